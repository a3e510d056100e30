// Package fstables is the Firestore tablestore.Store.
//
// Layout (docs/firebase.md):
//
//	games/{gameId}                public part, readable by the seated players under
//	                              firestore.rules: game, mode, ownerUid, phase, seats
//	                              [{uid, options}], playerUids, version, toMove, rules,
//	                              rulesHash, state (the game's public part, JSON text,
//	                              once started), outcome (once finished), fairness (a
//	                              fair table's: its commitment, with openings each seat's
//	                              commitment, whether it opened and the deadline, and once
//	                              finished the server seed, the contributions and the game seed),
//	                              tableDueAt (a trustless table's pending round's
//	                              deadline or a dealing table's current wait's,
//	                              unix ms, absent when none: the sweep's query),
//	                              tableActedAt (the time of the last applied
//	                              action, unix ms, absent once finished: the
//	                              idle sweep's query, with phase)
//	games/{gameId}/private/table  the table's head (table.SaveHead, fairboard-table/v2;
//	                              a table saved before heads: table.Save, v1, until its
//	                              next action): the seed, the snapshot, the open tail of
//	                              the log, moves and draws (under ChunkSize of each):
//	                              server only
//	games/{gameId}/private/c-{i}  sealed chunk i (%06d, from 0) of the log, moves and
//	                              draws, with a trustless table's protocol of those moves
//	                              (fairboard-table-chunk/v1), created once: server only
//	games/{gameId}/private/r-{h}  one stored result, h its table.ResultID (hex SHA-256
//	                              of actor "/" action id), created once: server only
//	games/{gameId}/private/audit  an audited table's RNG audit ring: auditRing {slot:
//	                              entry JSON}, the last 500 entries, put in by the
//	                              commits of the actions that drew them (audit.go):
//	                              server only
//	games/{gameId}/log/{id}       one applied action's events as the public reads them
//	                              {events: [...]} (an event addressed to one seat as its
//	                              trace, table.TypeAddressed), id %020d of its last seq
//	games/{gameId}/seats/{seat}   one seat's own part (table.SeatPart): seat, uid,
//	                              private (the game's private part of it, JSON text),
//	                              events (the events addressed to it); readable by that
//	                              seat's uid alone under firestore.rules; written once
//	                              the game has a private part or an addressed event for
//	                              it, and again whenever either changes
//
// Every create and action is one Firestore transaction: it reads the
// head and the action's stored result in one GetAll, restores the table
// from the head alone (table.Restore, from its snapshot; AddResult),
// applies the action and writes the game document, the head, the new
// stored result, the chunk the head sealed if any, one log document and
// the seat documents whose part changed; a refused action or a retry
// (table.Result.Replayed) writes nothing. A whole view, a record and
// Saved read the head, then its chunks (table.JoinHead); ViewAfter a
// seq in the open tail reads the head alone, at a trustless table only
// for a reader whose client has checked the moves the head sealed
// (docs/store.md, "The saved table's parts"). Of two actions at once
// on a table, Firestore's locks serialise them and the loser is retried
// on the winner's table (then stale_version if it named the version).
package fstables

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// The collection and document names.
const (
	collGames   = "games"
	collPrivate = "private"
	docTable    = "table"
	collLog     = "log"
	collSeats   = "seats"
)

// Store is a tablestore.Store on a Firestore client.
type Store struct {
	c             *firestore.Client
	lookup        tablestore.Lookup
	chunk         int                 // the head's chunk size (ChunkSize; tests' smaller)
	backfillRead  func(gameID string) // tests: between a backfill's read and stamp
	backfillBlind bool                // tests' control: a stamp without precondition
}

var _ tablestore.Store = (*Store)(nil)

// New returns the Store on c, finding games with lookup.
func New(c *firestore.Client, lookup tablestore.Lookup) *Store {
	if c == nil || lookup == nil {
		panic("fstables.New: a client and a lookup are required")
	}
	return &Store{c: c, lookup: lookup, chunk: ChunkSize}
}

// privateDoc is games/{id}/private/table.
type privateDoc struct {
	Game  string `firestore:"game"`
	Saved string `firestore:"saved"`
}

func (s *Store) refs(gameID string) (pub, priv *firestore.DocumentRef) {
	pub = s.c.Collection(collGames).Doc(gameID)
	return pub, pub.Collection(collPrivate).Doc(docTable)
}

func notCreated(gameID string) error {
	return &table.Error{Code: table.CodeNotCreated, Msg: "no game " + gameID}
}

// Create implements tablestore.Store: one transaction reading games/{id}
// and its private table; a create on a game id any game holds (a table,
// or a dungeon game) is answered as tablestore.Store says.
func (s *Store) Create(ctx context.Context, gameID, name string, req table.CreateRequest) (*table.Result, error) {
	if !table.ValidID(gameID) {
		return nil, &table.Error{Code: table.CodeBadGameID, Msg: "a game id is 1-128 characters of [A-Za-z0-9_-]"}
	}
	def, err := tablestore.Def(s.lookup, name)
	if err != nil {
		return nil, err
	}
	req.GameID = gameID // a trustless table binds every signature to it
	var res *table.Result
	err = s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		pubRef, privRef := s.refs(gameID)
		snaps, err := tx.GetAll([]*firestore.DocumentRef{pubRef, privRef, s.resultRef(gameID, req.Actor, req.ActionID)})
		if err != nil {
			return err
		}
		if snaps[1].Exists() {
			_, t, err := s.restore(snaps[1], snaps[2])
			if err != nil {
				return err
			}
			res, err = t.Retry(def, req)
			return err
		}
		if snaps[0].Exists() {
			return &table.Error{Code: table.CodeAlreadyCreated, Msg: "the game exists"}
		}
		t, r, err := table.Create(def, req)
		if err != nil {
			return err
		}
		res = r
		return s.write(tx, gameID, t, nil, true, req.At)
	})
	if err != nil {
		return nil, mapErr(err)
	}
	return res, nil
}

// Do implements tablestore.Store: one transaction (read the head and
// the action's stored result together, restore, Do, write).
func (s *Store) Do(ctx context.Context, gameID string, a table.Action) (*table.Result, error) {
	if !table.ValidID(gameID) {
		return nil, notCreated(gameID)
	}
	var res *table.Result
	err := s.c.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		_, privRef := s.refs(gameID)
		snaps, err := tx.GetAll([]*firestore.DocumentRef{privRef, s.resultRef(gameID, a.Actor, a.ActionID)})
		if err != nil {
			return err
		}
		if !snaps[0].Exists() {
			return notCreated(gameID)
		}
		_, t, err := s.restore(snaps[0], snaps[1])
		if err != nil {
			return err
		}
		before := t.Public().Log
		parts := seatParts(t)
		r, err := t.Do(a)
		if err != nil {
			return err
		}
		res = r
		if r.Replayed {
			return nil
		}
		if err := s.write(tx, gameID, t, before, false, a.At); err != nil {
			return err
		}
		return s.writeSeats(tx, gameID, t, parts)
	})
	if err != nil {
		return nil, mapErr(err)
	}
	return res, nil
}

// View implements tablestore.Store: reads of the head and its sealed
// chunks (not a transaction), restored (ViewAfter reads fewer).
func (s *Store) View(ctx context.Context, gameID, uid string) (*table.View, game.Definition, error) {
	def, t, err := s.load(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	return t.View(uid), def, nil
}

// Def implements tablestore.Store.
func (s *Store) Def(name string) (game.Definition, error) { return tablestore.Def(s.lookup, name) }

// Game implements tablestore.Store: one read of the private table.
func (s *Store) Game(ctx context.Context, gameID string) (string, error) {
	if !table.ValidID(gameID) {
		return "", notCreated(gameID)
	}
	_, privRef := s.refs(gameID)
	snap, err := privRef.Get(ctx)
	if status.Code(err) == codes.NotFound {
		return "", notCreated(gameID)
	}
	if err != nil {
		return "", mapErr(err)
	}
	var d privateDoc
	if err := snap.DataTo(&d); err != nil {
		return "", fmt.Errorf("fstables: decode %s: %w", snap.Ref.Path, err)
	}
	return d.Game, nil
}

// load reads the table gameID whole: its head, then its sealed chunks
// (immutable once written, and never fewer than the head counts).
func (s *Store) load(ctx context.Context, gameID string) (game.Definition, *table.Table, error) {
	def, t, head, err := s.loadHead(ctx, gameID)
	if err != nil {
		return nil, nil, err
	}
	if t, err = s.whole(ctx, gameID, def, t, head); err != nil {
		return nil, nil, err
	}
	return def, t, nil
}

// whole is the table whose head t (saved as head) loadHead read, joined
// with its sealed chunks (one GetAll; none read when it has none).
func (s *Store) whole(ctx context.Context, gameID string, def game.Definition, t *table.Table, head []byte) (*table.Table, error) {
	if t.SealedChunks() == 0 {
		return t, nil
	}
	data, err := s.join(ctx, gameID, head, t.SealedChunks())
	if err != nil {
		return nil, err
	}
	if t, err = table.Restore(def, data); err != nil {
		return nil, fmt.Errorf("fstables: %s: %w", gameID, err)
	}
	return t, nil
}

// loadHead reads and restores the head of the table gameID alone (one
// read): its log is the open tail (table.Table.SealedSeqs).
func (s *Store) loadHead(ctx context.Context, gameID string) (game.Definition, *table.Table, []byte, error) {
	if !table.ValidID(gameID) {
		return nil, nil, nil, notCreated(gameID)
	}
	_, privRef := s.refs(gameID)
	snap, err := privRef.Get(ctx)
	if status.Code(err) == codes.NotFound {
		return nil, nil, nil, notCreated(gameID)
	}
	if err != nil {
		return nil, nil, nil, mapErr(err)
	}
	def, t, err := s.restore(snap, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	var d privateDoc
	if err := snap.DataTo(&d); err != nil {
		return nil, nil, nil, err
	}
	return def, t, []byte(d.Saved), nil
}

// restore makes the table of a private document (a head, or a table
// saved whole) again, with the stored result of res if it exists (nil:
// none read).
func (s *Store) restore(snap, res *firestore.DocumentSnapshot) (game.Definition, *table.Table, error) {
	var d privateDoc
	if err := snap.DataTo(&d); err != nil {
		return nil, nil, fmt.Errorf("fstables: decode %s: %w", snap.Ref.Path, err)
	}
	def, err := tablestore.Def(s.lookup, d.Game)
	if err != nil {
		return nil, nil, fmt.Errorf("fstables: %s: %v", snap.Ref.Path, err) // not the caller's fault: internal
	}
	t, err := table.Restore(def, []byte(d.Saved))
	if err != nil {
		return nil, nil, fmt.Errorf("fstables: %s: %w", snap.Ref.Path, err)
	}
	if res != nil && res.Exists() {
		var r partDoc
		if err := res.DataTo(&r); err != nil {
			return nil, nil, fmt.Errorf("fstables: decode %s: %w", res.Ref.Path, err)
		}
		if err := t.AddResult([]byte(r.Saved)); err != nil {
			return nil, nil, fmt.Errorf("fstables: %s: %w", res.Ref.Path, err)
		}
	}
	return def, t, nil
}

// write queues the table's three shared documents: the public one and
// the private one set whole (created, for a new table: isNew), and the
// log document of the public log's events after before (every seq: an
// addressed event as its trace), at the time at of the action
// (tableActedAt: idle.go). The seat documents are writeSeats'.
func (s *Store) write(tx *firestore.Transaction, gameID string, t *table.Table, before []table.Event, isNew bool, at int64) error {
	pubRef, privRef := s.refs(gameID)
	h, err := t.SaveHead(s.chunk)
	if err != nil {
		return err
	}
	pv := t.Public()
	put := tx.Set
	if isNew { // a new table: created, never over a document that appeared since the read
		put = func(ref *firestore.DocumentRef, data any, _ ...firestore.SetOption) error {
			return tx.Create(ref, data)
		}
	}
	pd := publicOf(pv)
	pd.TableDueAt = t.DueAt()
	pd.TableActedAt = actedAt(t, at)
	if err := put(pubRef, pd); err != nil {
		return err
	}
	if err := put(privRef, privateDoc{Game: pv.Game, Saved: string(h.Saved)}); err != nil {
		return err
	}
	if err := s.writeParts(tx, gameID, h); err != nil {
		return err
	}
	fresh := pv.Log[len(before):]
	if len(fresh) == 0 {
		return nil
	}
	doc, err := logDoc(t.Def(), fresh)
	if err != nil {
		return err
	}
	id := fmt.Sprintf("%020d", fresh[len(fresh)-1].Seq)
	return tx.Create(pubRef.Collection(collLog).Doc(id), doc)
}

// logDoc is {events: [...]}, each event the map of its
// tablestore.AppendEventJSON.
func logDoc(def game.Definition, events []table.Event) (map[string]any, error) {
	list := make([]any, len(events))
	for i, e := range events {
		var m map[string]any
		dec := json.NewDecoder(bytesReader(tablestore.AppendEventJSON(nil, def, e)))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			return nil, err
		}
		for k, v := range m {
			if n, ok := v.(json.Number); ok {
				x, err := n.Int64()
				if err != nil {
					return nil, err
				}
				m[k] = x
			}
		}
		list[i] = m
	}
	return map[string]any{"events": list}, nil
}

// mapErr keeps a table's refusal and tablestore's errors; a Firestore
// error that says the database did not answer wraps
// tablestore.ErrUnavailable, one that says the transaction kept losing
// tablestore.ErrContention.
func mapErr(err error) error {
	var te *table.Error
	if errors.As(err, &te) || errors.Is(err, tablestore.ErrUnknownGame) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded:
		return fmt.Errorf("%w: %v", tablestore.ErrUnavailable, err)
	case codes.Aborted:
		return fmt.Errorf("%w: %v", tablestore.ErrContention, err)
	}
	return err
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
