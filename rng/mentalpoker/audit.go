package mentalpoker

import (
	"fmt"

	"github.com/cloudflare/circl/group"
)

// Audit is the end-of-hand recomputation. Given every seat's [RevealMessage]
// (indexed by seat), it checks each against the seat's commitments
// (a·G = A here, k_p·in_p = z_p below), then recomputes every pass from its
// recorded input: pass 1's output must be the input times a, in some order
// (same points, as a set), pass 2's output at p must be a⁻¹·z_p; finally
// every position is opened with every key and the cards must be each card
// once. It returns the card at every position of the final deck, against
// which the game checks every card opened during the hand.
//
// Errors: [ErrPhase] before both passes; otherwise a [*CheatError] naming
// the first seat at fault, in seat order for the reveals and then in pass
// order: [ErrMissing] (no reveal), [ErrContext], [ErrSignature],
// [ErrKey] (a key that is not its commitment's, or a wrong count),
// [ErrRecompute] (a pass that does not recompute: a substitution). A
// final [ErrNotCard] without a seat cannot follow passes that recompute.
func (t *Table) Audit(reveals []*RevealMessage) ([]int, error) {
	if !t.Dealt() {
		return nil, fmt.Errorf("%w: the deal is not done", ErrPhase)
	}
	s := len(t.pubs)
	as := make([]group.Scalar, s)
	ks := make([][]group.Scalar, s)
	for j := range s {
		var m *RevealMessage
		if j < len(reveals) {
			m = reveals[j]
		}
		var err error
		if as[j], ks[j], err = t.checkReveal(j, m); err != nil {
			return nil, err
		}
	}
	for step := range 2 * s {
		j, in, out := step%s, t.decks[step], t.decks[step+1]
		if step < s {
			got := make(map[[PointSize]byte]bool, t.n)
			for _, x := range in {
				got[encode(g.NewElement().Mul(x, as[j]))] = true
			}
			for p, y := range t.wire[step+1] {
				if !got[y] {
					return nil, cheat(j, ErrRecompute, "pass 1: position %d is not a card of the input times a", p)
				}
			}
			continue
		}
		ainv := g.NewScalar().Inv(as[j])
		for p, x := range in {
			z := g.NewElement().Mul(x, ks[j][p])
			if !z.IsEqual(t.keys[j][p]) {
				return nil, cheat(j, ErrKey, "position %d: k·in is not the keyed point", p)
			}
			if !z.Mul(z, ainv).IsEqual(out[p]) {
				return nil, cheat(j, ErrRecompute, "pass 2: position %d", p)
			}
		}
	}
	cards := make([]int, t.n)
	seen := make([]bool, t.n)
	for p := range t.n {
		prod := g.NewScalar().SetUint64(1)
		for j := range s {
			prod.Mul(prod, ks[j][p])
		}
		c, ok := t.index[encode(g.NewElement().Mul(t.decks[2*s][p], prod.Inv(prod)))]
		if !ok || seen[c] {
			return nil, fmt.Errorf("%w: position %d", ErrNotCard, p)
		}
		cards[p], seen[c] = c, true
	}
	return cards, nil
}

// checkReveal checks seat j's reveal and decodes its keys.
func (t *Table) checkReveal(j int, m *RevealMessage) (group.Scalar, []group.Scalar, error) {
	if m == nil {
		return nil, nil, cheat(j, ErrMissing, "no reveal")
	}
	if m.Game != t.game || m.Hand != t.hand || int(m.Seat) != j || m.Deal != t.deal {
		return nil, nil, cheat(j, ErrContext, "reveal for game %q hand %d seat %d", m.Game, m.Hand, m.Seat)
	}
	if !verifySig(t.pubs[j], m.SignedBytes(), m.Sig) {
		return nil, nil, cheat(j, ErrSignature, "reveal")
	}
	a, err := decodeScalar(m.Common)
	if err != nil || !g.NewElement().MulGen(a).IsEqual(t.commits[j]) {
		return nil, nil, cheat(j, ErrKey, "common key")
	}
	if len(m.Keys) != t.n {
		return nil, nil, cheat(j, ErrKey, "%d keys for %d positions", len(m.Keys), t.n)
	}
	ks := make([]group.Scalar, t.n)
	for p := range m.Keys {
		k, err := decodeScalar(m.Keys[p])
		if err != nil {
			return nil, nil, cheat(j, ErrKey, "position %d", p)
		}
		ks[p] = k
	}
	return a, ks, nil
}
