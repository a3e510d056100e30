package fstables

import (
	"context"
	"errors"
	"fmt"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fairboard/fairboard/table"
)

// The backfill of tableActedAt (tablestore.Store.BackfillActed): a table
// whose public document was last written before the stores kept
// tableActedAt has none, and Firestore's idle query (Idle) never returns
// a document without the field it orders by. Each step reads the
// cursor document, then the next limit documents of games in document-
// name order after it (a projection of game, phase and tableActedAt: no
// index but the built-in one), stamps those that are tables (a game
// field: a dungeon game has none), unfinished and without tableActedAt,
// and moves the cursor on.
//
// The time stamped is the public document's update time: every create
// and applied action rewrites that document, so it is the commit time of
// the table's last applied action (or of a later write, which only ends
// the table later, never earlier). The stored table itself holds no
// time. Each stamp is an update of tableActedAt alone with the
// precondition that the document was not written since the step read
// it: an action committed meanwhile (which wrote its own tableActedAt)
// fails the precondition and is left as it is, never overwritten.

// The cursor document, sweep/tableActedAt (server only under
// firestore.rules): after, the last game id a step read ("" before the
// first); done once a step read fewer than its limit (every later step
// reads this document alone); stamped, the tables stamped in all; at,
// the last step's time (unix ms).
const (
	collSweep   = "sweep"
	docBackfill = "tableActedAt"
	fieldGame   = "game"
)

type backfillDoc struct {
	After   string `firestore:"after"`
	Done    bool   `firestore:"done"`
	Stamped int64  `firestore:"stamped"`
	At      int64  `firestore:"at"`
}

// BackfillActed implements tablestore.Store (see above): one read of
// the cursor, one query of at most limit documents, one write per table
// stamped, and one write of the cursor; once done, the cursor's read
// alone.
func (s *Store) BackfillActed(ctx context.Context, now int64, limit int) (table.ActedBackfill, error) {
	var out table.ActedBackfill
	if limit < 1 || now <= 0 {
		return out, errors.New("fstables: a backfill takes a limit of 1 or more and a time after 1970")
	}
	cur := s.c.Collection(collSweep).Doc(docBackfill)
	var d backfillDoc
	csnap, err := cur.Get(ctx)
	switch {
	case status.Code(err) == codes.NotFound:
	case err != nil:
		return out, mapErr(err)
	default:
		if err := csnap.DataTo(&d); err != nil {
			return out, fmt.Errorf("fstables: decode %s: %w", cur.Path, err)
		}
	}
	if d.Done {
		out.Done = true
		return out, nil
	}
	q := s.c.Collection(collGames).OrderBy(firestore.DocumentID, firestore.Asc).
		Select(fieldGame, fieldPhase, fieldTableActed).Limit(limit)
	if d.After != "" {
		q = q.StartAfter(d.After)
	}
	snaps, err := q.Documents(ctx).GetAll()
	if err != nil {
		return out, mapErr(err)
	}
	for _, snap := range snaps {
		if !needsStamp(snap.Data()) {
			continue
		}
		if s.backfillRead != nil {
			s.backfillRead(snap.Ref.ID)
		}
		stamped, err := s.stamp(ctx, snap, now)
		if err != nil {
			return out, err // the cursor stays: the next step reads these again
		}
		if stamped {
			out.Stamped++
		}
	}
	out.Scanned, out.Done = len(snaps), len(snaps) < limit
	if len(snaps) > 0 {
		d.After = snaps[len(snaps)-1].Ref.ID
	}
	d.Done, d.Stamped, d.At = out.Done, d.Stamped+int64(out.Stamped), now
	if csnap != nil && csnap.Exists() {
		_, err = cur.Update(ctx, []firestore.Update{{Path: "after", Value: d.After}, {Path: "done", Value: d.Done},
			{Path: "stamped", Value: d.Stamped}, {Path: "at", Value: d.At}}, firestore.LastUpdateTime(csnap.UpdateTime))
	} else {
		_, err = cur.Create(ctx, d)
	}
	switch status.Code(err) {
	case codes.OK, codes.FailedPrecondition, codes.AlreadyExists:
		// another step (a sweep at once) moved the cursor since: it holds
		return out, nil
	}
	return out, mapErr(err)
}

// needsStamp says whether a games document (its projection) is a table
// (a non-empty game field) that is unfinished and has no tableActedAt.
func needsStamp(m map[string]any) bool {
	g, _ := m[fieldGame].(string)
	ph, _ := m[fieldPhase].(string)
	_, has := m[fieldTableActed]
	return g != "" && !has && (ph == string(table.PhaseLobby) || ph == string(table.PhasePlaying))
}

// stamp writes tableActedAt on the table snap read: its update time in
// unix ms (now if it has none), if the document is as it was read (false
// when it was written since, or is gone).
func (s *Store) stamp(ctx context.Context, snap *firestore.DocumentSnapshot, now int64) (bool, error) {
	at := now
	if !snap.UpdateTime.IsZero() && snap.UpdateTime.After(time.UnixMilli(0)) {
		at = snap.UpdateTime.UnixMilli()
	}
	var pre []firestore.Precondition
	if !s.backfillBlind {
		pre = append(pre, firestore.LastUpdateTime(snap.UpdateTime))
	}
	_, err := snap.Ref.Update(ctx, []firestore.Update{{Path: fieldTableActed, Value: at}}, pre...)
	switch status.Code(err) {
	case codes.OK:
		return true, nil
	case codes.FailedPrecondition, codes.NotFound:
		return false, nil
	}
	return false, mapErr(err)
}
