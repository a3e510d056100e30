package match

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
)

// A trustless match (Config.Mode rng.ModeTrustless, no seed) has no
// stream of its own: each move that draws is applied with the stream of
// its round's randomness R_v (ApplyKeyed, rng.NewTrustless), every other
// move with a stream that refuses its first word (rng.NewRefusing), and
// WouldDraw tells the two apart before a move is applied. Its setup may
// not draw (it has no round). The audit's seq runs on across the rounds.

// keyedRand is a trustless match's Rand: the stream of the move being
// applied, and the game's private decks (Config.Dealer; none: a deal
// refuses, as a word does).
type keyedRand struct {
	s      *rng.Stream
	dealer game.Dealer
}

// DealPrivate passes to the match's dealer, or refuses without one.
func (k *keyedRand) DealPrivate(n int, owners []int, tag rng.Tag, ctx *rng.Ctx) {
	if k.dealer == nil {
		panic(rng.Refusal)
	}
	k.dealer.DealPrivate(n, owners, tag, ctx)
}

// DrawCard passes to the match's dealer, or refuses without one.
func (k *keyedRand) DrawCard(deckID string, n, pos, to int, tag rng.Tag, ctx *rng.Ctx) int {
	if k.dealer == nil {
		panic(rng.Refusal)
	}
	return k.dealer.DrawCard(deckID, n, pos, to, tag, ctx)
}

// OpenPublic passes to the match's dealer, or refuses without one.
func (k *keyedRand) OpenPublic(deckID string, ps []int) []int {
	if k.dealer == nil {
		panic(rng.Refusal)
	}
	return k.dealer.OpenPublic(deckID, ps)
}

func (k *keyedRand) Dice(sides int, tag rng.Tag, ctx *rng.Ctx) (rng.DiceRoll, error) {
	return k.s.Dice(sides, tag, ctx)
}

func (k *keyedRand) UniformInt(min, max int64, tag rng.Tag, ctx *rng.Ctx) (int64, error) {
	return k.s.UniformInt(min, max, tag, ctx)
}

func (k *keyedRand) Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx) { rng.Shuffle(k.s, a, tag, ctx) }

// newTrustless sets a trustless match up: its setup runs on a refusing
// stream, and a setup that asks for a word is bad_setup.
func newTrustless(def game.Definition, cfg Config) (m *Match, err error) {
	if cfg.Seed != "" {
		return nil, game.Reject(game.CodeBadSetup, "a trustless match takes no seed: each move that draws has its round's randomness")
	}
	k := &keyedRand{s: rng.NewRefusing(rng.ModeTrustless), dealer: cfg.Dealer}
	defer func() {
		if r := recover(); r != nil {
			if r != rng.Refusal {
				panic(r)
			}
			m, err = nil, game.Reject(game.CodeBadSetup, def.Name()+"'s setup draws: a trustless game has no round before its first move")
		}
	}()
	m, err = setup(def, cfg, nil, k)
	if err != nil {
		return nil, err
	}
	m.keyed = k
	return m, nil
}

// guard is Apply's machinery guards.
func (m *Match) guard(mv game.Move) error { return m.guardTo(mv, m.st.ToMove()) }

// guardTo is guard with the seat the game awaits (ToMove) already known.
func (m *Match) guardTo(mv game.Move, to int) error {
	switch {
	case to == game.Nobody:
		return game.Reject(game.CodeGameOver, "the game is over")
	case !m.hasKind(mv.Kind):
		return game.Reject(game.CodeInvalidAction, "unknown move kind "+strconv.Quote(mv.Kind)+" for "+m.def.Name())
	case mv.Seat < 0 || mv.Seat >= m.st.NumSeats():
		return game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(mv.Seat))
	case mv.Seat != to:
		return game.Reject(game.CodeNotYourTurn, "the game awaits seat "+strconv.Itoa(to))
	}
	return nil
}

// WouldDraw reports whether mv, applied now, would draw randomness or
// open a card its dealer does not hold open yet: it applies mv to a clone
// of the state with a stream that refuses its first word (and the
// match's dealer, which notes the cards asked for and refuses). The match is unchanged. An error is Apply's refusal of mv (the
// guards, or the game's own), in which case mv would not apply at all.
func (m *Match) WouldDraw(mv game.Move) (draws bool, err error) {
	if err := m.guard(mv); err != nil {
		return false, err
	}
	defer func() {
		if r := recover(); r != nil {
			if r != rng.Refusal {
				panic(r)
			}
			draws, err = true, nil
		}
	}()
	var rnd game.Rand = game.FromStream(rng.NewRefusing(rng.ModeTrustless))
	if m.keyed != nil {
		dealer := m.keyed.dealer
		if d, ok := dealer.(interface{ Dry() game.Dealer }); ok {
			dealer = d.Dry() // a card drawn to a seat in the dry run stays undrawn
		}
		rnd = &keyedRand{s: rng.NewRefusing(rng.ModeTrustless), dealer: dealer}
	}
	_, err = m.st.Clone().Apply(mv, rnd, nil)
	return false, err
}

// ApplyKeyed applies mv to a trustless match: with the stream of its
// round's randomness key (R_v: rng.NewTrustless, its seq going on from
// the last round's), or, for key nil, a move that draws nothing. A move
// that draws without a key, or has a key and draws nothing, is refused
// (bad_stream), as is a match of another mode; otherwise Apply's
// refusals. The caller asks WouldDraw first.
func (m *Match) ApplyKeyed(mv game.Move, key *[32]byte) ([]game.Event, error) {
	if m.keyed == nil {
		return nil, game.Reject(codeBadStream, "not a trustless match")
	}
	draws, err := m.WouldDraw(mv)
	if err != nil {
		return nil, err
	}
	switch {
	case draws && key == nil:
		return nil, game.Reject(codeBadStream, "this "+mv.Kind+" draws: it needs its round's randomness")
	case !draws && key != nil:
		return nil, game.Reject(codeBadStream, "this "+mv.Kind+" draws nothing: it has no round")
	}
	if key == nil {
		m.keyed.s = rng.NewRefusing(rng.ModeTrustless)
	} else {
		var opts []rng.Option
		if m.cfg.Auditor != nil {
			opts = append(opts, rng.WithAuditor(m.cfg.Auditor))
		}
		m.keyed.s = trustless.Stream(*key, m.seq, opts...)
	}
	ev, err := m.Apply(mv)
	if err != nil {
		return nil, err
	}
	if key != nil {
		m.seq = m.keyed.s.Seq()
	}
	m.keys = append(m.keys, key)
	return ev, nil
}

// codeBadStream is the code of a move applied with the wrong randomness.
const codeBadStream = game.Code("bad_stream")

// Keys returns a trustless match's round randomness per move, in the
// order of Moves: R_v for a move that drew, nil for one that did not.
func (m *Match) Keys() []*[32]byte { return m.keys }

// ReplayTrustless plays moves again from cfg (a trustless match), each
// with its key (nil: a move that draws nothing). An error names the first
// move refused, a move that draws without a key or has one and draws
// nothing, or a count of keys other than of moves.
func ReplayTrustless(def game.Definition, cfg Config, moves []game.Move, keys []*[32]byte) (*Match, error) {
	if len(keys) != len(moves) {
		return nil, fmt.Errorf("%d keys for %d moves", len(keys), len(moves))
	}
	cfg.Lean, cfg.Mode = false, rng.ModeTrustless
	m, err := New(def, cfg)
	if err != nil {
		return nil, err
	}
	for i, mv := range moves {
		if _, err := m.ApplyKeyed(mv, keys[i]); err != nil {
			return m, fmt.Errorf("move %d (%s by seat %d): %w", i+1, mv.Kind, mv.Seat, err)
		}
	}
	return m, nil
}
