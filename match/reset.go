package match

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// Reset sets a new game up in m, as New(def, cfg) would with m's
// definition, but in m's memory: for a simulation that plays game after
// game on one worker (Simulate). Both m and cfg must be lean (nothing of
// m's old game is kept: its state, moves and positions are gone once
// Reset is called) and cfg seeded, fair or crypto. A state that is a
// game.Resetter sets the new game up in its own memory (SetupAgain); any
// other is set up anew by the definition. The new game is the one New
// would make: the same stream, draws, state and positions. Errors: New's
// for cfg's mode, seed and ruleset, a match or cfg that is not lean, a
// trustless cfg or one with a dealer, and the game's own refusals of the
// set-up. After an error m is unusable until a Reset succeeds.
func (m *Match) Reset(cfg Config) error {
	switch {
	case !m.cfg.Lean || !cfg.Lean:
		return game.Reject(game.CodeBadSetup, "Reset is for lean matches (simulations), which keep nothing of the game before")
	case cfg.Mode == rng.ModeTrustless || cfg.Dealer != nil:
		return game.Reject(game.CodeBadSetup, "Reset plays seeded, fair and crypto matches, not trustless ones")
	}
	s, err := newStream(cfg)
	if err != nil {
		return err
	}
	rules := cfg.Rules
	if rules == nil {
		rules = m.def.DefaultRuleset()
	}
	if rules.Game() != m.def.Name() {
		return game.Reject(game.CodeBadRuleset, fmt.Sprintf("a %s ruleset for a game of %s", rules.Game(), m.def.Name()))
	}
	m.cfg, m.rules, m.stream, m.rnd = cfg, rules, s, game.FromStream(s)
	if cap(m.moved) < len(cfg.Seats) {
		m.moved = make([]bool, len(cfg.Seats))
	}
	m.moved = m.moved[:len(cfg.Seats)]
	clear(m.moved)
	m.first, m.last = m.first[:0], m.last[:0]
	if r, ok := m.st.(game.Resetter); ok {
		_, err = r.SetupAgain(rules, cfg.Seats, m.rnd, m.last)
		return err
	}
	st, _, err := m.def.Setup(rules, cfg.Seats, m.rnd, nil)
	if err != nil {
		return err
	}
	m.st = st
	if q, ok := st.(game.Quieter); ok {
		q.Quiet()
	}
	return nil
}
