package client

import (
	"context"
	"errors"
)

// ViewAfter is View asking, at a trustless table, for the applied moves
// after the first checked (getView's checkedMoves: those the player's
// seat has checked from the first move, trustseat.Seat.Checked; 0 asks
// for every move, as View does): the view's protocol then starts at
// most at move checked+1 (table.TrustlessView.MovesBase), and the
// server reads the table's sealed chunks only for a reader that has
// checked fewer moves than they hold (docs/store.md, "The saved table's
// parts"). The seat checks such a view from its own checkpoint, never
// from anything the server says of the moves before it. Errors: View's,
// and a negative checked.
func (t *Table) ViewAfter(ctx context.Context, afterSeq uint64, checked int) (*TableView, error) {
	if checked < 0 {
		return nil, errors.New("client: a negative count of checked moves")
	}
	d := map[string]any{"game": t.game, "gameId": t.id}
	if afterSeq > 0 {
		d["afterSeq"] = afterSeq
	}
	if checked > 0 {
		d["checkedMoves"] = checked
	}
	return t.view(ctx, d)
}

// view reads uid's view through t: after the last seq t's view held and
// the moves uid's seat has checked, once it has checked some (a seat
// that has checked none, a fresh one or one restored from its secrets,
// reads the whole table once). The seat reads the protocol, never the
// log (TrustView leaves it out), so the log after that seq is enough.
func (tt *TrustTable) view(t *Table, uid string) (*TableView, error) {
	checked := 0
	if s := tt.Seats[uid]; s != nil {
		checked = s.Checked()
	}
	var after uint64
	if checked > 0 {
		after = tt.seqs[uid]
	}
	v, err := t.ViewAfter(tt.Ctx, after, checked)
	if err != nil {
		return nil, err
	}
	if tt.seqs == nil {
		tt.seqs = map[string]uint64{}
	}
	for _, e := range v.Log {
		tt.seqs[uid] = max(tt.seqs[uid], uint64(e.Seq))
	}
	return v, nil
}
