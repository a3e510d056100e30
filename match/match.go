// Package match is the machinery that plays any game through its
// definition (package game): a match in seeded or crypto mode with the
// dispatch guards, its log and its record, deterministic replay; bots (a
// uniform random one, and each game's heuristic styles); simulations of
// many seeded games on several workers; and the contract suite every
// registered game must pass. It imports no game: games sit above it.
package match

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// Config is how a match is made.
type Config struct {
	// Mode is rng.ModeSeeded (with Seed: sfc32 seeded by cyrb128 of the
	// seed string, replayable by anyone who knows it, never for real
	// games), rng.ModeFair (with Seed: the game seed of the fair protocol
	// as 64 lower-case hex digits, fair.GameSeed of a committed server
	// seed and the players' entropy; ADR-005's ChaCha20 stream,
	// rng.NewFair) or rng.ModeCrypto (crypto/rand).
	Mode rng.Mode
	Seed string
	// Seats has one element per seat, with its options.
	Seats []game.Seat
	// Rules is a ruleset of the definition; nil is its default.
	Rules game.Ruleset
	// Auditor, if not nil, receives the stream's audit entries.
	Auditor rng.Auditor
	// Dealer, for a trustless match only, backs the game's private decks
	// (game.Deal, game.Open) with a mental-poker deal; nil: a game that
	// deals is refused at setup, as one that draws.
	Dealer game.Dealer
	// Lean keeps no log and no record (a simulation's match): Events,
	// Moves and Draws stay empty and Replay cannot be used; a state that
	// can skip its events (game.Quieter) is made quiet, so Apply may
	// return none.
	Lean bool
	// DealDraws, for a crypto match that keeps its record only, deals
	// every deck the game draws one card at a time (game.Draw) from an
	// order shuffled at the deck's first draw, a named-deck shuffle
	// (DeckShuffles), so that a table commits to the order before any
	// card of it is seen (docs/fairness.md, "Decks drawn one card at a
	// time"). Without it a crypto match draws each card with UniformInt
	// over the cards left, as records written before it did.
	DealDraws bool
}

// Match is one game of a definition in play. Not safe for concurrent use.
type Match struct {
	def    game.Definition
	kinds  []game.KindSpec
	kind   int // the index in kinds of the last kind hasKind found
	cfg    Config
	rules  game.Ruleset
	stream *rng.Stream
	rnd    game.Rand
	rec    *recorder
	st     game.State
	log    []game.Event
	moves  []game.Move
	last   []game.Event // the events of the last move (lean mode)
	first  []int        // seats in the order they first moved
	moved  []bool
	// keyed, keys and seq are a trustless match's: the stream of the move
	// being applied, each move's round randomness, the audit's seq.
	keyed *keyedRand
	keys  []*[32]byte
	seq   uint64
}

// New sets a match up: it builds the stream of cfg.Mode, checks the
// ruleset's game, and runs the definition's Setup. Errors: a mode other
// than seeded, fair, crypto and trustless, a seeded match without a seed
// or with a seed that is not UTF-8, a fair match whose seed is not 64
// lower-case hex digits, a trustless match with a seed or whose setup
// draws, a ruleset of another game, and Setup's own.
func New(def game.Definition, cfg Config) (*Match, error) {
	if cfg.Dealer != nil && cfg.Mode != rng.ModeTrustless {
		return nil, game.Reject(game.CodeBadSetup, "a dealer is for trustless matches")
	}
	if cfg.Mode == rng.ModeTrustless {
		return newTrustless(def, cfg)
	}
	s, err := newStream(cfg)
	if err != nil {
		return nil, err
	}
	return setup(def, cfg, s, nil)
}

// newStream is the stream of a seeded, fair or crypto cfg (New's
// refusals of its mode and seed).
func newStream(cfg Config) (*rng.Stream, error) {
	var opts []rng.Option
	if cfg.Auditor != nil {
		opts = append(opts, rng.WithAuditor(cfg.Auditor))
	}
	switch cfg.Mode {
	case rng.ModeSeeded:
		if cfg.Seed == "" {
			return nil, game.Reject(game.CodeBadSetup, "a seeded match needs a seed")
		}
		s, err := rng.NewSeeded(cfg.Seed, opts...)
		if err != nil {
			return nil, game.Reject(game.CodeBadSetup, err.Error())
		}
		return s, nil
	case rng.ModeFair:
		seed, err := fair.ParseServerSeed(cfg.Seed) // a game seed has a server seed's form
		if err != nil {
			return nil, game.Reject(game.CodeBadSetup, "a fair match's seed is its game seed, 64 lower-case hex digits")
		}
		return rng.NewFair(seed[:], opts...), nil
	case rng.ModeCrypto:
		if cfg.Seed != "" {
			return nil, game.Reject(game.CodeBadSetup, "a crypto match takes no seed")
		}
		return rng.NewCrypto(opts...), nil
	default:
		return nil, game.Reject(game.CodeBadSetup, fmt.Sprintf("mode %q: the machinery plays seeded, fair, crypto and trustless matches", cfg.Mode))
	}
}

// setup makes the match over stream s, or over base instead when it is
// not nil (a crypto match's replay: its recorded draws).
func setup(def game.Definition, cfg Config, s *rng.Stream, base game.Rand) (*Match, error) {
	rules := cfg.Rules
	if rules == nil {
		rules = def.DefaultRuleset()
	}
	if rules.Game() != def.Name() {
		return nil, game.Reject(game.CodeBadRuleset, fmt.Sprintf("a %s ruleset for a game of %s", rules.Game(), def.Name()))
	}
	if err := checkDealDraws(cfg); err != nil {
		return nil, err
	}
	m := &Match{def: def, kinds: def.Kinds(), cfg: cfg, rules: rules, stream: s, moved: make([]bool, len(cfg.Seats))}
	if base == nil {
		base = game.FromStream(s)
	}
	m.rnd = base
	if !cfg.Lean {
		m.rec = &recorder{r: base, dealDraws: cfg.DealDraws}
		m.rnd = m.rec
	}
	st, ev, err := def.Setup(rules, cfg.Seats, m.rnd, nil)
	if err != nil {
		return nil, err
	}
	m.st = st
	if !cfg.Lean {
		m.log = ev
	} else if q, ok := st.(game.Quieter); ok {
		q.Quiet()
	}
	return m, nil
}

// Apply dispatches mv with the machinery's guards, in this order:
// game_over (the game awaits nobody), invalid_action for a kind the game
// does not have (named), unknown_player for a seat out of range,
// not_your_turn for another seat than the one awaited; then the game's
// own checks. A refused move leaves the match exactly as it was (the game
// validates before it draws or changes anything). It returns the events
// of the move, which the match keeps until the next Apply.
func (m *Match) Apply(mv game.Move) ([]game.Event, error) {
	return m.apply(mv, m.st.ToMove())
}

// apply is Apply with the seat the game awaits (ToMove) already known.
func (m *Match) apply(mv game.Move, to int) ([]game.Event, error) {
	if err := m.guardTo(mv, to); err != nil {
		return nil, err
	}
	var err error
	if m.cfg.Lean {
		m.last, err = m.st.Apply(mv, m.rnd, m.last[:0])
		if err != nil {
			return nil, err
		}
	} else {
		n := len(m.log)
		m.log, err = m.st.Apply(mv, m.rnd, m.log)
		if err != nil {
			return nil, err
		}
		m.moves = append(m.moves, mv)
		m.last = m.log[n:]
	}
	if !m.moved[mv.Seat] {
		m.moved[mv.Seat] = true
		m.first = append(m.first, mv.Seat)
	}
	return m.last, nil
}

// hasKind reports whether the game has the move kind k, trying first
// the kind it found last (a game's moves repeat their kinds).
func (m *Match) hasKind(k string) bool {
	if m.kind < len(m.kinds) && m.kinds[m.kind].Name == k {
		return true
	}
	for i := range m.kinds {
		if m.kinds[i].Name == k {
			m.kind = i
			return true
		}
	}
	return false
}

// State returns the game's state (the match's own: do not change it).
func (m *Match) State() game.State { return m.st }

// Rules returns the match's ruleset.
func (m *Match) Rules() game.Ruleset { return m.rules }

// Over reports whether the game awaits nobody.
func (m *Match) Over() bool { return m.st.ToMove() == game.Nobody }

// Events returns the log: Setup's events and every move's, in order; the
// event at index i has seq i+1.
func (m *Match) Events() []game.Event { return m.log }

// Moves returns the moves applied, in order.
func (m *Match) Moves() []game.Move { return m.moves }

// Draws returns every value the game drew, in call order, as a
// game.Scripted replays them (a shuffle's swap indices j for i from the
// end): with Moves, the record that replays a crypto match.
func (m *Match) Draws() []int64 {
	if m.rec == nil {
		return nil
	}
	return m.rec.draws
}

// Stream returns the match's stream (for its seq and saved state); nil
// for a crypto match's replay, which draws from its record.
func (m *Match) Stream() *rng.Stream { return m.stream }

// Position returns seat's position, 1 for the first seat to move: seats
// are numbered in the order they first moved, then the seats that never
// moved in seat order.
func (m *Match) Position(seat int) int {
	for i, s := range m.first {
		if s == seat {
			return i + 1
		}
	}
	p := len(m.first)
	for s := 0; s <= seat; s++ {
		if !m.moved[s] {
			p++
		}
	}
	return p
}

// StateBytes returns the state's canonical bytes: the public part, each
// seat's private part and the secret part, each after a NUL.
func StateBytes(st game.State) []byte {
	b := st.AppendPublic(nil)
	for s := range st.NumSeats() {
		b = append(b, 0)
		b = st.AppendPrivate(b, s)
	}
	b = append(b, 0)
	return st.AppendSecret(b)
}

// LogJSON returns the log as JSON lines (game.AppendEventJSON).
func (m *Match) LogJSON() []byte {
	var b []byte
	types := m.def.EventTypes()
	for i, e := range m.log {
		b = game.AppendEventJSON(b, types, i+1, e)
		b = append(b, '\n')
	}
	return b
}

// Replay plays moves again from cfg (cfg.Lean is ignored) and returns the
// match. A seeded match replays from its seed; a crypto match needs its
// draws (Match.Draws), returned in order as a game.Scripted does, every
// one of them used. An error names the first move refused, or the first
// draw outside its call's range or past the end (never a panic: draws
// may come from a file).
func Replay(def game.Definition, cfg Config, moves []game.Move, draws []int64) (*Match, error) {
	m, _, err := replay(def, cfg, moves, draws)
	return m, err
}

// Resume is Replay for a match that goes on (a stored match restored): a
// seeded match replays from its seed and its stream goes on; a crypto
// match replays from its draws, every one of them used by moves, and then
// draws from a new crypto stream (Stream stays nil). Draws keeps the
// recorded draws and the new ones. Errors: Replay's.
func Resume(def game.Definition, cfg Config, moves []game.Move, draws []int64) (*Match, error) {
	m, script, err := replay(def, cfg, moves, draws)
	if err != nil {
		return nil, err
	}
	if script != nil {
		script.then = game.FromStream(rng.NewCrypto())
	}
	return m, nil
}

func replay(def game.Definition, cfg Config, moves []game.Move, draws []int64) (*Match, *replayScript, error) {
	cfg.Lean = false
	var m *Match
	var err error
	var script *replayScript
	if cfg.Mode == rng.ModeCrypto {
		script = &replayScript{vals: draws}
		m, err = setup(def, cfg, nil, script)
	} else {
		m, err = New(def, cfg)
	}
	if err == nil && script != nil && script.err != nil {
		err = fmt.Errorf("setup: %w", script.err)
	}
	if err != nil {
		return nil, nil, err
	}
	for i, mv := range moves {
		_, err := m.Apply(mv)
		if err == nil && script != nil && script.err != nil {
			err = script.err
		}
		if err != nil {
			return m, nil, fmt.Errorf("move %d (%s by seat %d): %w", i+1, mv.Kind, mv.Seat, err)
		}
	}
	if script != nil && script.next != len(draws) {
		return m, nil, fmt.Errorf("%d of %d draws left unused", len(draws)-script.next, len(draws))
	}
	return m, script, nil
}

// Modes are the modes the machinery plays a game in, so far.
var Modes = []rng.Mode{rng.ModeSeeded, rng.ModeCrypto}
