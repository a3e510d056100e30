package trustlesstest

import (
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/checks"
)

// Replay is one replay of a cross-game attack (a seat's start or reveal
// signed in game A, sent to its twin B, where the same players sit with
// the same keys and chain secrets) with some of the checks that refuse it
// switched off, and what it then gets: refused by the next check in the
// engine's order (Then, its code), or taken into B (Then empty). The
// positive controls of the service's TestCrossGameReplayRefused and of the
// functions' TestCrossGameReplayThroughTheFunctions.
type Replay struct {
	Name string
	// Reveal: p1's reveal of A's index 1 (B's pending index too), with
	// B's digest and transcript put in its place if Moved; else A's start,
	// at the version both games wait for it.
	Reveal, Moved bool
	Off           []checks.Check
	Then          engine.Code
}

// CrossGameReplays: every check on the way refuses a replay alone. An
// action's signature covers the game id; a reveal is refused by its digest
// and transcript (A's pending action, which names A), its signature (the
// game id) and its link (a chain is its game's: the same secret makes
// another chain in B), in that order.
var CrossGameReplays = []Replay{
	{"start without ActionSignature", false, false, []checks.Check{checks.ActionSignature}, ""},
	{"reveal without RevealDigest", true, false, []checks.Check{checks.RevealDigest}, engine.CodeBadSignature},
	{"reveal without RevealDigest, RevealSignature", true, false, []checks.Check{checks.RevealDigest, checks.RevealSignature}, engine.CodeWrongLink},
	{"reveal without RevealDigest, RevealSignature, RevealLink", true, false,
		[]checks.Check{checks.RevealDigest, checks.RevealSignature, checks.RevealLink}, ""},
	{"moved reveal without RevealSignature", true, true, []checks.Check{checks.RevealSignature}, engine.CodeWrongLink},
	{"moved reveal without RevealSignature, RevealLink", true, true, []checks.Check{checks.RevealSignature, checks.RevealLink}, ""},
}
