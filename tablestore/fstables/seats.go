package fstables

import (
	"bytes"
	"strconv"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/table"
)

// seatParts returns every seat's part of t (table.SeatPart).
func seatParts(t *table.Table) []table.SeatPart {
	out := make([]table.SeatPart, t.Seats())
	for i := range out {
		out[i] = t.SeatPart(i)
	}
	return out
}

// SeatDoc is games/{id}/seats/{seat}: one seat's own part, which the
// rules let that seat's uid alone read.
type SeatDoc struct {
	Seat int64  `firestore:"seat"`
	UID  string `firestore:"uid"`
	// Private is the game's private part of the seat (AppendPrivate),
	// as text; "" for a game without one.
	Private string `firestore:"private"`
	// Events are the events addressed to the seat, in order, each the
	// map of its tablestore.AppendEventJSON (as in a log document).
	Events []any `firestore:"events"`
}

// writeSeats queues the seat documents of t whose part differs from
// before (the parts before the action): a seat with a private part or an
// addressed event is written when its uid, its private part or its
// events changed; a seat with neither never is (Pig writes none).
func (s *Store) writeSeats(tx *firestore.Transaction, gameID string, t *table.Table, before []table.SeatPart) error {
	pubRef, _ := s.refs(gameID)
	for i := range t.Seats() {
		p := t.SeatPart(i)
		if p.Private == nil && len(p.Events) == 0 {
			continue
		}
		if i < len(before) && before[i].UID == p.UID && bytes.Equal(before[i].Private, p.Private) && len(before[i].Events) == len(p.Events) {
			continue
		}
		d := SeatDoc{Seat: int64(i), UID: p.UID, Private: string(p.Private), Events: []any{}}
		if len(p.Events) > 0 {
			ev, err := logDoc(t.Def(), p.Events)
			if err != nil {
				return err
			}
			d.Events = ev["events"].([]any)
		}
		if err := tx.Set(pubRef.Collection(collSeats).Doc(strconv.Itoa(i)), d); err != nil {
			return err
		}
	}
	return nil
}
