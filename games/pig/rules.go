// Package pig is Pig, the dice game, on the game definition (package
// game): two to six players take turns rolling one die; a 1 ends the turn
// and loses its total, any other face adds to it; holding banks the turn
// total. The first to reach the goal with banked score plus turn total
// wins at once. docs/games.md walks through it as the example game.
package pig

import (
	"fmt"

	"github.com/fairboard/fairboard/game"
)

// Name is Pig's registry name.
const Name = "pig"

// The ruleset numbers' paths and ranges. The issue pins the lower bounds
// (a goal of at least 1, a die of at least 2 sides); the upper bounds keep
// a game finite in practice and a sweep's range explicit.
var params = []game.Param{
	{Path: "goal", Default: 100, Min: 1, Max: 10000, Integer: true, Doc: "the score that wins"},
	{Path: "dieSides", Default: 6, Min: 2, Max: 1000, Integer: true, Doc: "the die's sides, 1 to dieSides"},
}

// Rules is Pig's ruleset: {"goal":100,"dieSides":6}. Build it with
// DefaultRules or Definition.DecodeRuleset; it cannot change once built,
// so games and goroutines share it.
type Rules struct {
	goal     int
	dieSides int
	canon    []byte
	hash     string
}

// defaultRules is made once: a simulation asks for it per game.
var defaultRules = newRules(100, 6)

// DefaultRules returns the default ruleset: goal 100, a six-sided die.
func DefaultRules() *Rules { return defaultRules }

// Goal returns the score that wins, at least 1.
func (r *Rules) Goal() int { return r.goal }

// DieSides returns the die's sides, at least 2.
func (r *Rules) DieSides() int { return r.dieSides }

func newRules(goal, sides int) *Rules {
	r := &Rules{goal: goal, dieSides: sides}
	r.canon = fmt.Appendf(nil, `{"goal":%d,"dieSides":%d}`, goal, sides)
	r.hash = game.HashJSON(r.canon)
	return r
}

// Game returns "pig".
func (r *Rules) Game() string { return Name }

// CanonicalJSON returns {"goal":G,"dieSides":D}.
func (r *Rules) CanonicalJSON() []byte { return append([]byte(nil), r.canon...) }

// Hash returns the hex SHA-256 of CanonicalJSON.
func (r *Rules) Hash() string { return r.hash }

// decodeRules decodes a ruleset strictly: both fields required, whole
// numbers within their ranges, nothing else.
func decodeRules(data []byte) (*Rules, error) {
	var v struct {
		Goal     *float64 `json:"goal"`
		DieSides *float64 `json:"dieSides"`
	}
	if err := game.DecodeStrict(data, &v); err != nil {
		return nil, err
	}
	var got [2]int
	for i, n := range []*float64{v.Goal, v.DieSides} {
		p := params[i]
		if n == nil {
			return nil, game.Reject(game.CodeBadRuleset, "missing "+p.Path)
		}
		if err := game.CheckParam(p, *n); err != nil {
			return nil, err
		}
		got[i] = int(*n)
	}
	return newRules(got[0], got[1]), nil
}
