package dungeon

import (
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/fixtures"
)

// ReplayFixture implements game.FixtureReplayer: the engine fixture at
// path (games/dungeon/fixtures) replayed under the embedded default
// ruleset. Errors: a file that is no fixture, or one that cannot be
// replayed at all (another ruleset, an impossible initial state, a bad
// step).
func (Definition) ReplayFixture(path string) (summary string, divergence, err error) {
	f, err := fixtures.Load(path)
	if err != nil {
		return "", nil, err
	}
	d, err := fixtures.Check(f, engine.DefaultRules())
	if err != nil {
		return "", nil, fmt.Errorf("%s is not a replayable fixture: %w", path, err)
	}
	if d != nil {
		return "", d, nil
	}
	steps := len(f.Actions) + len(f.Calls)
	return fmt.Sprintf("OK %s: %d steps, %d events, %d audit entries, final state %s", f.Name, steps, len(f.Log), len(f.Audit), f.FinalHash[:16]), nil, nil
}
