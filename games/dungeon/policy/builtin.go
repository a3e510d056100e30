package policy

import "github.com/fairboard/fairboard/games/dungeon/engine"

// BuiltIn is a built-in policy's rule (Cautious's or Aggressive's) under
// one ruleset, picking the action its Choose would return without what a
// call through Policy costs: the public view copied (View) and the
// action returned as a value (some 380 bytes). The definition's styles
// pick so (games/dungeon); so may another driver of the engine's bots.
type BuiltIn struct{ s Style }

// BuiltInOf returns pol's rule under r, and false for a policy that is
// not built in (neither Cautious nor Aggressive, as a value or a pointer).
func BuiltInOf(pol Policy, r *engine.Ruleset) (BuiltIn, bool) {
	s, ok := StyleOf(pol, r)
	return BuiltIn{s}, ok
}

// Pick returns the action the policy chooses for the player me of p,
// whom the game awaits, under the ruleset BuiltInOf was given: its kind,
// and the card id or the target uid the kind takes ("" otherwise). It is
// Choose's action with Actor me.UID and every other field zero
// (TestBuiltInPickIsChoose). It reads only what the view holds: the
// fields View blanks are never read.
func (b BuiltIn) Pick(p *engine.Public, r *engine.Ruleset, me *engine.Player) (k engine.ActionKind, card, target string) {
	return b.s.Pick(p, r, me)
}
