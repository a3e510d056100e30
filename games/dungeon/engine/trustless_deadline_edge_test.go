package engine_test

import (
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// TestTrustlessRevealAtTheDeadline: a round is open for reveals up to
// its deadline, that millisecond included (the abort is refused at it,
// TestTrustlessDeadline); a reveal one millisecond later is refused.
func TestTrustlessRevealAtTheDeadline(t *testing.T) {
	tg := newTrustless(t, 3)
	tg.must(tg.signed(0, engine.Action{Kind: engine.ActStart}))
	pd := tg.g.Public.Trustless.Pending
	late := tg.reveal(1)
	late.At = pd.Deadline + 1
	tg.refused(late, engine.CodeDeadlinePassed)
	at := tg.reveal(0)
	at.At = pd.Deadline
	tg.must(at)
	late.At = pd.Deadline
	tg.must(late)
}
