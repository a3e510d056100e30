// A trustless round's staged reveals: the writes that stage one, and the
// query that reads a round's.

package fsstore

import (
	"context"
	"fmt"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// writeStage queues the three writes of a staged reveal a: its public
// marker (reveals/{id}), the reveal itself with its link (links/{id},
// never readable by clients) and its record r, each only if it does not
// exist; nothing of the game. A duplicate (the seat's reveal for that
// index staged already, or the record written) fails the commit, and the
// next attempt's read shows why.
func writeStage(tx batch, game *firestore.DocumentRef, refs []*firestore.DocumentRef, r *store.Record, a *engine.Action) (int, error) {
	id := stageID(a.Index, a.Seat)
	if err := createDoc(tx, game.Collection(collMarks).Doc(id), store.MarkOf(a)); err != nil {
		return 0, err
	}
	if err := createDoc(tx, game.Collection(collLinks).Doc(id), store.StagedReveal{Index: a.Index, Seat: a.Seat, Action: *a, Verified: a.Verified}); err != nil {
		return 0, err
	}
	n := 2
	if len(refs) == 3 {
		if err := createDoc(tx, refs[2], r); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// The collections of a trustless round's staged reveals: the public
// markers and the hidden reveals (docs/store.md, "Reveals").
const (
	collMarks = "reveals"
	collLinks = "links"
)

// stageID is the document id of seat's staged reveal for index: the
// index zero-padded to 20 digits, "-", the seat to 3, so that ids sort by
// index, then seat.
func stageID(index uint32, seat int) string { return fmt.Sprintf("%020d-%03d", index, seat) }

// stagedOf reads the reveals staged for index (one query of the links
// collection by id range), in the order they were accepted.
func (s *Store) stagedOf(ctx context.Context, game *firestore.DocumentRef, index uint32) ([]engine.Action, error) {
	out, _, err := s.stagedAt(ctx, game, index)
	return out, err
}

// stagedAt is stagedOf with the time each seat's staged reveal was
// written (its document's creation), by seat.
func (s *Store) stagedAt(ctx context.Context, game *firestore.DocumentRef, index uint32) ([]engine.Action, map[int]time.Time, error) {
	out := []engine.Action{}
	created := map[int]time.Time{}
	err := queryEach(ctx, s, roundQuery(game, index), collLinks, func(d *store.StagedReveal, snap *firestore.DocumentSnapshot) error {
		if err := checkStaged(d, index); err != nil {
			return err
		}
		out = append(out, d.Reveal())
		created[d.Seat] = snap.CreateTime
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	store.SortStaged(out)
	return out, created, nil
}

// roundQuery is the query of the reveals staged for index: the links
// collection's id range of that index.
func roundQuery(game *firestore.DocumentRef, index uint32) firestore.Query {
	return game.Collection(collLinks).OrderBy(firestore.DocumentID, firestore.Asc).
		StartAt(fmt.Sprintf("%020d-", index)).EndBefore(fmt.Sprintf("%020d.", index))
}

// checkStaged checks that a staged reveal read for index is one: its
// index and seat are its action's.
func checkStaged(d *store.StagedReveal, index uint32) error {
	if d.Index != index || d.Action.Index != index || d.Action.Seat != d.Seat {
		return fmt.Errorf("fsstore: the staged reveal of seat %d for index %d holds index %d seat %d", d.Seat, d.Index, d.Action.Index, d.Action.Seat)
	}
	return nil
}
