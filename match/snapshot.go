package match

import (
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// Snapshot is a match at one point of its game, enough to go on from
// there without replaying its moves (FromSnapshot): the state's three
// parts (as match.StateBytes joins them: the public part, each seat's
// private part, the secret part) and where its randomness stands. It
// holds the secret part and the stream's state: for the server only.
type Snapshot struct {
	Public  []byte
	Private [][]byte
	Secret  []byte
	// Stream is the stream's saved state (rng.Stream.State): a seeded
	// match's "sfc32:<32 hex digits>", a fair match's "chacha20:<offset>";
	// "" for a crypto match (it goes on on a new crypto stream) and a
	// trustless one (each round has its own stream).
	Stream string
	// Seq is the audit's seq so far: the stream's (seeded, fair), the
	// rounds' (trustless); 0 for a crypto match.
	Seq uint64
	// Dealt is a crypto match's decks dealt by position
	// (Config.DealDraws; Match.Dealt), whose orders the rest of each
	// deck is dealt from: none without DealDraws.
	Dealt []DealtDeck
}

// History is what a match restored from a snapshot keeps of its past,
// as the match it was kept it: its moves, a crypto match's draws (so
// that Draws, and the record, hold them all), a trustless match's keys
// (one per move), and the game's events (Events).
type History struct {
	Moves  []game.Move
	Draws  []int64
	Keys   []*[32]byte
	Events []game.Event
}

// Snapshot returns the match's snapshot. Errors: a lean match (it keeps
// no moves, so it could not be restored with its history), and a stream
// whose state cannot be saved in a mode that needs it.
func (m *Match) Snapshot() (*Snapshot, error) {
	if m.cfg.Lean {
		return nil, fmt.Errorf("match: snapshot of a lean match")
	}
	n := m.st.NumSeats()
	s := &Snapshot{Public: m.st.AppendPublic(nil), Private: make([][]byte, n), Secret: m.st.AppendSecret(nil)}
	for i := range n {
		s.Private[i] = m.st.AppendPrivate(nil, i)
	}
	switch m.cfg.Mode {
	case rng.ModeSeeded, rng.ModeFair:
		if m.stream == nil {
			return nil, fmt.Errorf("match: snapshot of a %s match without its stream", m.cfg.Mode)
		}
		st, err := m.stream.State()
		if err != nil {
			return nil, fmt.Errorf("match: snapshot: %w", err)
		}
		s.Stream, s.Seq = st, m.stream.Seq()
	case rng.ModeTrustless:
		s.Seq = m.seq
	}
	for _, d := range m.Dealt() {
		s.Dealt = append(s.Dealt, DealtDeck{DeckID: d.DeckID, Order: slices.Clone(d.Order)})
	}
	return s, nil
}

// FromSnapshot makes the match of cfg again at snap (Match.Snapshot)
// with its history h, without replaying h.Moves: the state from its parts
// (game.RestoreState), a seeded stream from its saved state and seq
// (rng.Restore, under cfg.Seed), a fair one from its game seed and
// offset (rng.RestoreFair), a crypto match on a new crypto stream with
// h.Draws kept, a trustless one with h.Keys and the rounds' seq. It goes
// on as the match it was taken from would: the same draws for the same
// moves, in every mode but crypto. cfg.Lean is ignored.
//
// Errors: a definition that is not a game.Restorer (game.ErrNotRestorer:
// restore by replay instead), RestoreState's refusal of the parts, a
// ruleset of another game, a stream state that does not restore, a
// seeded match without a seed, a fair match whose seed is not 64
// lower-case hex digits, a trustless match whose keys are not one per
// move, a mode none of these, dealt decks (Snapshot.Dealt) in a match
// without DealDraws or whose orders are not each a permutation of
// 0..n-1 under one id.
func FromSnapshot(def game.Definition, cfg Config, snap *Snapshot, h History) (*Match, error) {
	cfg.Lean = false
	rules := cfg.Rules
	if rules == nil {
		rules = def.DefaultRuleset()
	}
	if rules.Game() != def.Name() {
		return nil, fmt.Errorf("match: a %s ruleset for a game of %s", rules.Game(), def.Name())
	}
	st, err := game.RestoreState(def, rules, cfg.Seats, snap.Public, snap.Private, snap.Secret)
	if err != nil {
		return nil, fmt.Errorf("match: restore %s's state: %w", def.Name(), err)
	}
	m := &Match{def: def, kinds: def.Kinds(), cfg: cfg, rules: rules, st: st, moved: make([]bool, len(cfg.Seats)),
		moves: h.Moves, log: h.Events}
	var opts []rng.Option
	if cfg.Auditor != nil {
		opts = append(opts, rng.WithAuditor(cfg.Auditor))
	}
	opts = append(opts, rng.WithSeq(snap.Seq))
	var base game.Rand
	switch cfg.Mode {
	case rng.ModeSeeded:
		if cfg.Seed == "" {
			return nil, fmt.Errorf("match: a seeded match needs a seed")
		}
		if m.stream, err = rng.Restore(snap.Stream, cfg.Seed, opts...); err != nil {
			return nil, fmt.Errorf("match: restore the seeded stream: %w", err)
		}
	case rng.ModeFair:
		seed, derr := hex.DecodeString(cfg.Seed)
		if derr != nil || len(seed) != 32 || hex.EncodeToString(seed) != cfg.Seed {
			return nil, fmt.Errorf("match: a fair match's seed is its game seed, 64 lower-case hex digits")
		}
		if m.stream, err = rng.RestoreFair(seed, snap.Stream, opts...); err != nil {
			return nil, fmt.Errorf("match: restore the fair stream: %w", err)
		}
	case rng.ModeCrypto:
		if snap.Stream != "" || snap.Seq != 0 {
			return nil, fmt.Errorf("match: a crypto match's snapshot has no stream")
		}
		m.stream = rng.NewCrypto(opts[:len(opts)-1]...)
	case rng.ModeTrustless:
		if len(h.Keys) != len(h.Moves) {
			return nil, fmt.Errorf("match: %d keys for %d moves", len(h.Keys), len(h.Moves))
		}
		if snap.Stream != "" {
			return nil, fmt.Errorf("match: a trustless match's snapshot has no stream")
		}
		m.keyed, m.keys, m.seq = &keyedRand{s: rng.NewRefusing(rng.ModeTrustless)}, h.Keys, snap.Seq
		base = m.keyed
	default:
		return nil, fmt.Errorf("match: mode %q", cfg.Mode)
	}
	if base == nil {
		base = game.FromStream(m.stream)
	}
	if err := checkDealt(cfg, snap.Dealt); err != nil {
		return nil, err
	}
	m.rec = &recorder{r: base, draws: h.Draws, dealDraws: cfg.DealDraws}
	for _, d := range snap.Dealt {
		m.rec.dealt = append(m.rec.dealt, DealtDeck{DeckID: d.DeckID, Order: slices.Clone(d.Order)})
	}
	m.rnd = m.rec
	for _, mv := range h.Moves {
		if mv.Seat < 0 || mv.Seat >= len(m.moved) {
			return nil, fmt.Errorf("match: a move of seat %d at a table of %d seats", mv.Seat, len(m.moved))
		}
		if !m.moved[mv.Seat] {
			m.moved[mv.Seat] = true
			m.first = append(m.first, mv.Seat)
		}
	}
	return m, nil
}
