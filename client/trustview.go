package client

import (
	"context"
	"errors"
	"math"
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

// view reads uid's view through t: once uid's seat has checked moves,
// only the moves after them and no log (a seat reads the protocol, never
// the log: TrustView leaves it out), which the server answers from the
// table's head alone; a seat restored from its secrets with their
// checkpoint (trustseat.Restore) asks from it; a seat that has checked
// none (a fresh one, one restored from secrets without a checkpoint, as
// at a dealing table, one whose last view did not check) reads the whole
// table once.
func (tt *TrustTable) view(t *Table, uid string) (*TableView, error) {
	checked := 0
	if s := tt.Seats[uid]; s != nil {
		checked = s.Checked()
	}
	var after uint64
	if checked > 0 {
		after = math.MaxUint64 // no log
	}
	return t.ViewAfter(tt.Ctx, after, checked)
}
