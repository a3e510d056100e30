// Package policy is the dungeon's heuristic bots: built-in policies that
// pick a legal action deterministically from the public view of a game
// (Cautious, Aggressive), the styles they play by (Style, which the
// search bot of games/dungeon/tools/bot plays out with), and the view a
// policy is handed (View). Policies never call the RNG; they only choose
// actions. It is part of the game's rules side: the definition
// (games/dungeon) wraps these policies as its styles, and no package here
// builds an RNG (randlint); the driver that plays whole games with them,
// bot.Runner, and the search bot are the game's tools
// (games/dungeon/tools/bot).
package policy

import (
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// Policy chooses the next action for the player uid, which the game awaits.
// It reads only the public state and the ruleset, and must return a legal
// action (the driver treats a rejection as a bug).
type Policy interface {
	Name() string
	Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action
}

// Cautious heals early, sleeps when hurt, never challenges and re-rolls a
// defense die of 3 or less.
type Cautious struct{}

// Aggressive challenges whoever holds the best item when healthy, only
// sleeps when nearly knocked out, and re-rolls a defense die of 3 or less.
type Aggressive struct{}

// Name returns "cautious".
func (Cautious) Name() string { return "cautious" }

// Name returns "aggressive".
func (Aggressive) Name() string { return "aggressive" }

// Heuristics lists the built-in (heuristic) policies by name.
var Heuristics = []string{"cautious", "aggressive"}

// Choose implements Policy.
func (Cautious) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		CautiousStyle(r).Choose(&a, p, r, me)
	}
	return a
}

// Choose implements Policy.
func (Aggressive) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	var a engine.Action
	if me, _ := p.Player(uid); me != nil {
		AggressiveStyle(r).Choose(&a, p, r, me)
	}
	return a
}

// View fills v with the public view of p that a policy is handed: p with
// what could name the game's seed or the generator's position blanked
// (the game id, which a bot game names after its seed, the generator's
// sequence number, the last action's id, and the fairness record). It
// shares p's lists: a policy reads the view, never changes it.
func View(v, p *engine.Public) {
	*v = *p
	v.GameID, v.LastActionID, v.Fairness = "", "", nil
	v.RNG.Seq, v.RNG.AuditEnabled = 0, false
}

// UID returns the uid of seat i in a bot game: "p1" for seat 0.
func UID(i int) string { return "p" + strconv.Itoa(i+1) }

// DefaultClasses returns the default class rotation for n players: seat i
// gets engine.Classes[i%4] (warrior, monk, duelist, scout).
func DefaultClasses(n int) []engine.Class {
	out := make([]engine.Class, n)
	for i := range out {
		out[i] = engine.Classes[i%len(engine.Classes)]
	}
	return out
}
