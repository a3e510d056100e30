package trustdeal

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// CheckCheat checks, as any reader of the hand can, an end that names a
// seat a cheat in the deal's passes (the server refused its signed pass
// as proven evidence: Server.Do): against a table of cfg's hand (its
// game and rules, which fix the deck's size, its game id, hand and
// seats' keys; the deadline is not read) that takes the published passes
// in turn, refused must be the awaited seat's pass, refused as a cheat
// (match.ProvenCheat). refused is the view's evidence (View.Refused),
// or, where it shows none, the pass the reader itself sent and holds the
// server's acknowledgement of. Nil for an end that names no cheat, or a
// cheat after the passes (the end-of-hand audit's, which every reveal
// published lets anyone run). Errors: a *match.FalseCheat when refused
// verifies, is missing, or is no signed evidence of the seat awaited; a
// forfeit naming another seat than the one awaited; a published pass
// that does not verify; a setup the protocol refuses.
func CheckCheat(cfg Config, passes []*mentalpoker.PassMessage, f *match.DealForfeit, refused *mentalpoker.PassMessage) error {
	if f == nil || f.Reason != match.ForfeitCheat {
		return nil
	}
	n, err := deckSize(cfg)
	if err != nil {
		return err
	}
	tb, err := mentalpoker.NewTable(cfg.GameID, cfg.Hand, n, cfg.Keys)
	if err != nil {
		return err
	}
	for i, m := range passes {
		if err := tb.Accept(m); err != nil {
			return fmt.Errorf("trustdeal: published pass message %d does not verify: %w", i+1, err)
		}
	}
	if tb.Dealt() {
		return nil
	}
	if pass, seat := tb.Next(); !slices.Equal(f.Seats, []int{seat}) {
		return fmt.Errorf("trustdeal: a forfeit for cheating names seats %v; the deal awaited pass %d of seat %d", f.Seats, pass, seat)
	}
	return match.ProvenCheat(tb, refused)
}
