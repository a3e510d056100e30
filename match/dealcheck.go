package match

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// checkEnd checks how a dealt hand ended against its record. A forfeit
// for the deadline must name exactly the seats the hand waited for: those
// with deal keys due, or, with a move pending, those without a key (the
// staged ones are published at the abort) of a card it opens. Reveals
// missing must be a forfeit for cheating naming exactly those seats.
// Otherwise the end-of-hand recomputation runs: a failure must be the
// forfeit's (one seat, named), a success leaves no forfeit. It returns
// the recomputed cards (nil when there is no recomputation).
func checkEnd(tb *mentalpoker.Table, d *MentalDealer, m *Match, r *RecordDeal) ([]int, error) {
	f := r.Forfeit
	var noReveal []int
	for j := range tb.Seats() {
		if j >= len(r.Reveals) || r.Reveals[j] == nil {
			noReveal = append(noReveal, j)
		}
	}
	switch {
	case f != nil && f.Reason == ForfeitAbandoned:
		// Ended by the table's owner: nothing is revealed, so nothing is
		// recomputed; what the record shows was checked as it went.
		return nil, nil
	case f != nil && f.Reason == ForfeitDeadline:
		want, err := waitedFor(tb, d, m, r)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(want, f.Seats) {
			return nil, fmt.Errorf("a forfeit for the deadline names seats %v; the hand waited for %v", f.Seats, want)
		}
		return nil, nil
	case len(noReveal) > 0:
		if f == nil || f.Reason != ForfeitCheat || !slices.Equal(f.Seats, noReveal) {
			_, err := tb.Audit(r.Reveals)
			return nil, fmt.Errorf("end-of-hand recomputation: %w (seats %v sent no reveal)", err, noReveal)
		}
		return nil, nil
	}
	cards, err := tb.Audit(r.Reveals)
	if err != nil {
		seat, named := mentalpoker.Culprit(err)
		if f == nil || f.Reason != ForfeitCheat || !named || !slices.Equal(f.Seats, []int{seat}) {
			return nil, fmt.Errorf("end-of-hand recomputation: %w", err)
		}
		return nil, nil
	}
	if f != nil {
		return nil, fmt.Errorf("a forfeit for cheating names seats %v, but every pass recomputes", f.Seats)
	}
	return cards, nil
}

// waitedFor returns the seats a hand aborted for the deadline after its
// passes waited for, ascending.
func waitedFor(tb *mentalpoker.Table, d *MentalDealer, m *Match, r *RecordDeal) ([]int, error) {
	seen := map[int]bool{}
	if due := d.PrivateKeysDue(); len(due) > 0 {
		for _, x := range due {
			seen[x[1]] = true
		}
	} else if r.Pending != nil {
		draws, err := m.WouldDraw(*r.Pending)
		want := d.Wanted()
		if err != nil || !draws || want == nil {
			return nil, fmt.Errorf("the pending move opens no card (%v)", err)
		}
		for _, p := range want {
			for _, s := range tb.Missing(p, -1) {
				seen[s] = true
			}
		}
	} else {
		return nil, errors.New("a forfeit for the deadline, but the hand waited for nothing")
	}
	var out []int
	for s := range tb.Seats() {
		if seen[s] {
			out = append(out, s)
		}
	}
	return out, nil
}

// checkStopped checks a deal that stopped in its passes: a forfeit for
// the deadline naming the seat whose pass is due, or one for cheating
// naming that seat with its signed refused pass as evidence
// (ProvenCheat: a *FalseCheat otherwise).
func checkStopped(tb *mentalpoker.Table, r *RecordDeal) error {
	pass, seat := tb.Next()
	f := r.Forfeit
	if f != nil && f.Reason == ForfeitAbandoned && len(f.Seats) == 0 {
		return nil
	}
	if f == nil || !slices.Equal(f.Seats, []int{seat}) {
		return fmt.Errorf("the deal stops before pass %d of seat %d and the record does not name that seat", pass, seat)
	}
	if f.Reason == ForfeitDeadline {
		return nil
	}
	return ProvenCheat(tb, r.Refused)
}
