package match

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// RecordDeal is a trustless hand's mental-poker deal in its record
// (docs/fairness.md, "Dealing without a dealer who sees"): everything a
// verifier needs to recompute every pass and every card opened, with no
// secret of anyone's but the keys every seat published at the end.
type RecordDeal struct {
	GameID string `json:"gameId"`
	Hand   uint64 `json:"hand"`
	Cards  int    `json:"cards"`
	// PublicKeys are the seats' Ed25519 keys, hex, in seat order.
	PublicKeys []string `json:"publicKeys"`
	// Passes are both passes' messages in order; Keys every key published
	// during the hand, in order (the others' keys of a seat's cards, then
	// each opening's keys); Reveals every seat's end-of-hand keys, by
	// seat (null: none came).
	Passes []*mentalpoker.PassMessage `json:"passes"`
	// Refused is a signed pass the protocol refused (a drop, a duplicate,
	// a bad proof): the evidence of a forfeit for cheating in the deal.
	Refused *mentalpoker.PassMessage     `json:"refused,omitempty"`
	Keys    []*mentalpoker.KeyMessage    `json:"keys"`
	Reveals []*mentalpoker.RevealMessage `json:"reveals"`
	// Opened are the cards opened to every seat during the hand, as
	// shown; Moves the game's moves in order.
	Opened []OpenedCard `json:"opened"`
	Moves  []game.Move  `json:"moves"`
	// Pending is the move that waited for its cards' keys when the hand
	// was aborted: its chips count as put in.
	Pending *game.Move `json:"pending,omitempty"`
	// Forfeit, if the hand was not settled by its rules; Payoffs as
	// settled, one per seat.
	Forfeit *DealForfeit `json:"forfeit,omitempty"`
	Payoffs []float64    `json:"payoffs"`
}

// OpenedCard is a card opened to every seat.
type OpenedCard struct {
	Position int `json:"position"`
	Card     int `json:"card"`
}

// The reasons of a forfeit.
const (
	// ForfeitDeadline: the seats named withheld a pass or a key past the
	// deadline; each loses what it had put in (game.Stakes).
	ForfeitDeadline = "deadline"
	// ForfeitCheat: the seats named sent a signed pass the protocol
	// refuses, a pass that does not recompute, or no end-of-hand reveal;
	// each loses the most it could lose in the hand (game.MaxLoss).
	ForfeitCheat = "cheat"
	// ForfeitAbandoned: the table's owner (or the server) ended the hand
	// before its end; it names no seat, reveals nothing (no end-of-hand
	// recomputation: the cards not shown stay closed) and each seat gets
	// the game's AbortPayoffs of the state the hand reached.
	ForfeitAbandoned = "abandoned"
)

// DealForfeit is why a hand was settled against seats: the reason and the
// seats named, ascending.
type DealForfeit struct {
	Reason string `json:"reason"`
	Seats  []int  `json:"seats"`
}

// DealPayoffs settles a hand: st's outcome with no forfeit; otherwise each
// named seat pays (game.Stakes' InPot for ForfeitDeadline, game.MaxLoss
// for ForfeitCheat) and the others share what they pay equally; a forfeit
// naming every seat voids the hand (every payoff 0). An error for a game
// that does not declare what a forfeit needs, an unknown reason, or seats
// out of range or repeated.
func DealPayoffs(def game.Definition, rules game.Ruleset, st game.State, f *DealForfeit) ([]float64, error) {
	n := st.NumSeats()
	if f == nil {
		o := st.Outcome()
		if !o.Over {
			return nil, errors.New("the hand is not over and no forfeit settles it")
		}
		return slices.Clone(o.Payoffs), nil
	}
	if f.Reason == ForfeitAbandoned {
		if len(f.Seats) != 0 {
			return nil, fmt.Errorf("an abandoned hand names seats %v: it names none", f.Seats)
		}
		return slices.Clone(st.AbortPayoffs()), nil
	}
	if len(f.Seats) == 0 || len(f.Seats) > n {
		return nil, fmt.Errorf("a forfeit names %d of %d seats", len(f.Seats), n)
	}
	pay := make([]float64, n)
	named := make([]bool, n)
	for _, s := range f.Seats {
		if s < 0 || s >= n || named[s] {
			return nil, fmt.Errorf("a forfeit names seat %d twice or out of range", s)
		}
		named[s] = true
		switch f.Reason {
		case ForfeitDeadline:
			sk, ok := st.(game.Stakes)
			if !ok {
				return nil, fmt.Errorf("%s does not say what a seat has put in (game.Stakes)", def.Name())
			}
			pay[s] = sk.InPot()[s]
		case ForfeitCheat:
			ml, ok := def.(game.MaxLoss)
			if !ok {
				return nil, fmt.Errorf("%s does not say what a seat can lose (game.MaxLoss)", def.Name())
			}
			pay[s] = ml.MaxLoss(rules)
		default:
			return nil, fmt.Errorf("forfeit reason %q", f.Reason)
		}
	}
	if len(f.Seats) == n {
		return make([]float64, n), nil // every seat at fault: the hand is void
	}
	var total float64
	for _, p := range pay {
		total += p
	}
	share := total / float64(n-len(f.Seats))
	out := make([]float64, n)
	for s := range out {
		if named[s] {
			out[s] = -pay[s]
		} else {
			out[s] = share
		}
	}
	return out, nil
}

// NewDealMatch sets up a trustless match of def over the dealer d with n
// seats (no options) under rules (nil: the default); the game must deal
// its deck at setup.
func NewDealMatch(def game.Definition, rules game.Ruleset, n int, d *MentalDealer) (*Match, error) {
	m, err := New(def, Config{Mode: rng.ModeTrustless, Seats: make([]game.Seat, n), Rules: rules, Dealer: d})
	if err != nil {
		return nil, err
	}
	if !d.Dealt() {
		return nil, fmt.Errorf("%s deals no private deck at setup", def.Name())
	}
	return m, nil
}

// VerifyDeal recomputes a recorded trustless hand: every pass (accepted
// in turn), every key published during the hand (against its
// commitment), the moves replayed with the cards those keys open, the
// end-of-hand recomputation over every seat's reveal (Audit), every card
// shown against the recomputation, and the payoffs against the rules and
// the forfeit. A forfeit for cheating must be the recomputation's own
// verdict. It returns the card at every position; an error names the
// pass, key, seat, position or move at fault (a *mentalpoker.CheatError
// inside names the seat).
func VerifyDeal(def game.Definition, rules game.Ruleset, r *RecordDeal) ([]int, error) {
	if r == nil {
		return nil, errors.New("no deal")
	}
	pubs := make([]ed25519.PublicKey, len(r.PublicKeys))
	for i, h := range r.PublicKeys {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("seat %d's public key is not 64 hex digits", i)
		}
		pubs[i] = b
	}
	tb, err := mentalpoker.NewTable(r.GameID, r.Hand, r.Cards, pubs)
	if err != nil {
		return nil, err
	}
	d := NewMentalDealer(tb)
	m, err := NewDealMatch(def, rules, len(pubs), d)
	if err != nil {
		return nil, err
	}
	for i, msg := range r.Passes {
		if err := tb.Accept(msg); err != nil {
			return nil, fmt.Errorf("pass message %d: %w", i+1, err)
		}
	}
	if !tb.Dealt() {
		if err := checkStopped(tb, r); err != nil {
			return nil, err
		}
		return nil, checkPayoffs(def, rules, m.State(), r)
	}
	for i, k := range r.Keys {
		if err := tb.AcceptKey(k); err != nil {
			return nil, fmt.Errorf("published key %d: %w", i+1, err)
		}
	}
	for i, mv := range r.Moves {
		if _, err := m.ApplyKeyed(mv, nil); err != nil {
			if w := d.Wanted(); w != nil {
				err = fmt.Errorf("it opens positions %v without every seat's key: %w", w, missingKey(tb, w))
			}
			return nil, fmt.Errorf("move %d (%s by seat %d): %w", i+1, mv.Kind, mv.Seat, err)
		}
	}
	cards, err := checkEnd(tb, d, m, r)
	if err != nil {
		return nil, err
	}
	for _, o := range r.Opened {
		c, err := tb.OpenPublic(o.Position)
		if err != nil {
			return nil, fmt.Errorf("opened card at position %d: %w", o.Position, err)
		}
		if c != o.Card || cards != nil && cards[o.Position] != c {
			return nil, fmt.Errorf("opened card at position %d: the record shows %d, the keys open %d", o.Position, o.Card, c)
		}
	}
	return cards, checkPayoffs(def, rules, m.State(), r)
}

// StakesAfter returns st after the pending move mv (nil: st itself), for
// what the seats have put in when a hand is aborted while mv waits for
// its cards: mv is applied to a clone with stand-in cards (0, 1, … for
// the positions it opens), which move chips as the real ones do. An
// error if mv does not apply.
func StakesAfter(st game.State, mv *game.Move) (out game.State, err error) {
	if mv == nil {
		return st, nil
	}
	defer func() {
		if r := recover(); r != nil {
			if r != rng.Refusal {
				panic(r)
			}
			out, err = nil, errors.New("the pending move draws randomness")
		}
	}()
	c := st.Clone()
	if _, err := c.Apply(*mv, standIn{&keyedRand{s: rng.NewRefusing(rng.ModeTrustless)}}, nil); err != nil {
		return nil, fmt.Errorf("the pending move: %w", err)
	}
	return c, nil
}

// standIn is a Rand that deals nothing and opens stand-in cards.
type standIn struct{ *keyedRand }

func (standIn) DealPrivate(int, []int, rng.Tag, *rng.Ctx) { panic(rng.Refusal) }

func (standIn) DrawCard(_ string, _, pos, to int, _ rng.Tag, _ *rng.Ctx) int {
	if to != game.All {
		panic(rng.Refusal)
	}
	return pos
}

func (standIn) OpenPublic(_ string, ps []int) []int {
	out := make([]int, len(ps))
	for i := range out {
		out[i] = i
	}
	return out
}

func checkPayoffs(def game.Definition, rules game.Ruleset, st game.State, r *RecordDeal) error {
	if r.Forfeit == nil || r.Forfeit.Reason != ForfeitAbandoned { // an abandon pays the state reached
		var err error
		if st, err = StakesAfter(st, r.Pending); err != nil {
			return err
		}
	}
	pay, err := DealPayoffs(def, rulesOr(def, rules), st, r.Forfeit)
	if err != nil {
		return err
	}
	if !slices.Equal(pay, r.Payoffs) {
		return fmt.Errorf("payoffs %v; the hand settles %v", r.Payoffs, pay)
	}
	return nil
}

func rulesOr(def game.Definition, r game.Ruleset) game.Ruleset {
	if r == nil {
		return def.DefaultRuleset()
	}
	return r
}

// missingKey names the first seat whose key for one of ps tb lacks.
func missingKey(tb *mentalpoker.Table, ps []int) error {
	for _, p := range ps {
		if _, err := tb.OpenPublic(p); err != nil {
			return err
		}
	}
	return errors.New("no key is missing")
}
