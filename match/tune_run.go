package match

import (
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
)

// A saved tuning run's settings, shared by the grid's and NTBEA's.

// runSettings are the settings every saved tuning run of a game holds,
// whichever search made it, which the command that resumes it must give
// again.
type runSettings struct {
	game, rules, seed string
	games             int64
	seats             int
	bots              []string
	target            float64
}

// differ says which setting of o differs from the run's s ("" if none).
func (s runSettings) differ(o runSettings) string {
	switch {
	case s.game != o.game:
		return fmt.Sprintf("the game %s, the run's is %s", o.game, s.game)
	case s.rules != o.rules:
		return fmt.Sprintf("the base ruleset %s, the run's is %s", o.rules, s.rules)
	case s.seed != o.seed:
		return fmt.Sprintf("the seed %q, the run's is %q", o.seed, s.seed)
	case s.games != o.games:
		return fmt.Sprintf("%d games, the run's are %d", o.games, s.games)
	case s.seats != o.seats:
		return fmt.Sprintf("%d seats, the run's are %d", o.seats, s.seats)
	case !slices.Equal(s.bots, o.bots):
		return fmt.Sprintf("the bots %s, the run's are %s", joinComma(o.bots), joinComma(s.bots))
	case s.target != o.target:
		return fmt.Sprintf("the target %g, the run's is %g", o.target, s.target)
	}
	return ""
}

// config is the TuneConfig of a saved run's settings under def, on
// workers goroutines (no Params, no Levels: the caller's), once the
// run's format is want and its game def. Errors: another format or
// game, a base ruleset def refuses.
func (s runSettings) config(def game.Definition, format, want string, workers int) (TuneConfig, error) {
	switch {
	case format != want:
		return TuneConfig{}, fmt.Errorf("format %q, want %q", format, want)
	case s.game != def.Name():
		return TuneConfig{}, fmt.Errorf("a run of %s, not of %s", s.game, def.Name())
	}
	rules, err := def.DecodeRuleset([]byte(s.rules))
	if err != nil {
		return TuneConfig{}, fmt.Errorf("the run's base ruleset: %w", err)
	}
	return TuneConfig{Sim: SimConfig{Def: def, Rules: rules, Games: s.games, Seed: s.seed, Seats: s.seats, Bots: s.bots, Workers: workers},
		Target: s.target}, nil
}
