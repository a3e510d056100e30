package reducers_test

// The rules suite's dispatch and assertions: one action with scripted
// words, a refusal that must leave the game unchanged, and the compact log
// the tests compare with the lines they write by hand.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// outcome is what one dispatched action did.
type outcome struct {
	ev    []engine.Event
	audit []rng.Entry
}

// tags returns the audit tags, one per RNG consumption.
func (o outcome) tags() []string {
	t := make([]string, len(o.audit))
	for i, e := range o.audit {
		t[i] = string(e.Tag)
	}
	return t
}

// act dispatches a as the player the game awaits.
func act(t *testing.T, g *engine.Game, kind engine.ActionKind, ws ...uint32) outcome {
	t.Helper()
	return do(t, g, engine.Action{Kind: kind, Actor: g.Public.Awaiting}, ws...)
}

// do dispatches a on g with a stream that returns exactly the words ws. It
// fails the test if the action is rejected, if it reads fewer or more
// words than scripted, or if a game that passed Game.Check before the
// action fails it after.
func do(t *testing.T, g *engine.Game, a engine.Action, ws ...uint32) outcome {
	t.Helper()
	src := &script{words: ws}
	var o outcome
	s := rng.New(src, rng.WithSeq(g.Public.RNG.Seq), rng.WithAuditor(rng.AuditorFunc(func(e rng.Entry) { o.audit = append(o.audit, e) })))
	eng := engineOf(g)
	consistent := g.Public.Phase == engine.PhaseNone || g.Check(eng.Rules()) == nil
	ev, err := eng.Dispatch(g, &a, s, nil)
	if err != nil {
		t.Fatalf("%s by %q rejected: %v", a.Kind, a.Actor, err)
	}
	if src.over > 0 || src.next != len(ws) {
		t.Fatalf("%s by %q read %d words, %d scripted", a.Kind, a.Actor, src.next+src.over, len(ws))
	}
	if consistent {
		if err := g.Check(eng.Rules()); err != nil {
			t.Fatalf("after %s: %v", a.Kind, err)
		}
	}
	o.ev = ev
	return o
}

// refuse dispatches a and requires its rejection with the code, leaving the
// game byte for byte as it was, emitting nothing and reading no word.
func refuse(t *testing.T, g *engine.Game, a engine.Action, code engine.Code) {
	t.Helper()
	src := &script{}
	s := rng.New(src, rng.WithSeq(g.Public.RNG.Seq))
	before, _ := g.CanonicalJSON()
	ev, err := engineOf(g).Dispatch(g, &a, s, nil)
	if !errors.Is(err, code) {
		t.Fatalf("%s by %q: got %v, want %s", a.Kind, a.Actor, err, code)
	}
	after, _ := g.CanonicalJSON()
	if !bytes.Equal(before, after) || len(ev) != 0 || src.next+src.over != 0 {
		t.Fatalf("%s by %q rejected (%s) but changed the game, logged %d events or read %d words",
			a.Kind, a.Actor, code, len(ev), src.next+src.over)
	}
}

// show writes the events compactly, one line each, for comparison with a
// log written by hand. DeckShuffled shows only the deck and its size (the
// deck's order is checked in the secret state), FairnessRevealed only that
// it came (its content is the fairness layer's).
func show(ev []engine.Event) []string {
	out := make([]string, 0, len(ev))
	for _, e := range ev {
		var s string
		switch e.Type {
		case engine.EvTurnOrderRolled:
			s = fmt.Sprintf("order %s %d", e.UID, e.Value)
		case engine.EvTieBreakRerolled:
			s = fmt.Sprintf("reroll %s %d", e.UID, e.Value)
		case engine.EvGameStarted:
			s = fmt.Sprintf("started %v", e.Order)
		case engine.EvDeckShuffled:
			s = fmt.Sprintf("shuffled %s %d", e.DeckID, e.Size)
		case engine.EvTurnStarted:
			s = fmt.Sprintf("turn %s r%d t%d", e.UID, e.Round, e.Turn)
		case engine.EvDiceRolled:
			s = fmt.Sprintf("dice %s %s %d", e.Who, e.Tag, e.Value)
			if e.Total != 0 && (e.NMods > 0 || e.Total != e.Value) {
				s += fmt.Sprintf(" %v=%d", e.Modifiers(), e.Total)
			}
		case engine.EvMoved:
			s = fmt.Sprintf("moved %s %d->%d %s", e.UID, e.From, e.To, e.Cause)
		case engine.EvSlept:
			s = fmt.Sprintf("slept %s +%d hp=%d", e.UID, e.Amount, e.HP)
		case engine.EvHealed:
			s = fmt.Sprintf("healed %s +%d hp=%d", e.UID, e.Amount, e.HP)
		case engine.EvCardDrawn:
			s = fmt.Sprintf("drew %s %s %s", e.UID, e.DeckID, e.CardID)
		case engine.EvChanceResolved:
			s = fmt.Sprintf("chance %s %s %s", e.UID, e.CardID, e.Effect)
		case engine.EvItemUsed:
			s = fmt.Sprintf("used %s %s +%d hp=%d", e.UID, e.CardID, e.Amount, e.HP)
		case engine.EvItemDropped:
			s = fmt.Sprintf("dropped %s %s", e.UID, e.CardID)
		case engine.EvDiscarded:
			s = fmt.Sprintf("discarded %s %s", e.UID, e.CardID)
		case engine.EvEnemyCompositionChosen:
			s = fmt.Sprintf("composition tile=%d t%d %s", e.TileID, e.Tier, e.Choice)
		case engine.EvEnemySpawned:
			s = fmt.Sprintf("spawned %s %s t%d hp=%d", e.CombatID, e.CardID, e.Tier, e.HP)
		case engine.EvDamageDealt:
			s = fmt.Sprintf("hit %s->%s %d hp=%d", e.Who, e.Target, e.Amount, e.HP)
		case engine.EvEnemyDefeated:
			s = fmt.Sprintf("defeated %s %s", e.CombatID, e.CardID)
		case engine.EvLootRoll:
			s = fmt.Sprintf("loot t%d %s", e.EnemyTier, e.Outcome)
		case engine.EvKnockedOut:
			s = fmt.Sprintf("knockedOut %s %d->%d hp=%d", e.UID, e.From, e.To, e.HP)
		case engine.EvCombatEnded:
			s = fmt.Sprintf("combatEnded %s %s %s", e.CombatID, e.UID, e.Outcome)
		case engine.EvDuelOffered:
			s = fmt.Sprintf("duel %s %s->%s", e.DuelID, e.UID, e.Target)
		case engine.EvDuelCancelled:
			s = fmt.Sprintf("cancelled %s %s %s", e.DuelID, e.UID, e.Reason)
		case engine.EvRerollDeclined:
			s = fmt.Sprintf("declined %s %s", e.DuelID, e.UID)
		case engine.EvDuelEnded:
			s = fmt.Sprintf("duelEnded %s winner=%s %s", e.DuelID, e.Winner, e.Outcome)
		case engine.EvItemTaken:
			s = fmt.Sprintf("took %s<-%s %s", e.UID, e.Target, e.CardID)
		case engine.EvTieBreakResolved:
			s = fmt.Sprintf("tiebreak %s %v->%s", e.Reason, e.Candidates, e.ChosenUID)
		case engine.EvRoundEnded:
			s = fmt.Sprintf("roundEnded %d", e.Round)
		case engine.EvBracketStarted:
			s = fmt.Sprintf("bracket %v", e.Candidates)
		case engine.EvGameFinished:
			s = fmt.Sprintf("finished winner=%s r%d %s", e.Winner, e.Round, e.Outcome)
		case engine.EvGameCreated:
			s = fmt.Sprintf("created %s %s", e.UID, e.GameID)
		case engine.EvFairnessRevealed:
			s = "revealed"
		case engine.EvPlayerJoined:
			s = fmt.Sprintf("joined %s seat=%d %s", e.UID, e.Seat, e.Class)
		default:
			s = e.Type.String()
		}
		out = append(out, s)
	}
	return out
}

// wantLog compares the action's log with the lines written by hand.
func wantLog(t *testing.T, o outcome, want ...string) {
	t.Helper()
	got := show(o.ev)
	if !slices.Equal(got, want) {
		t.Fatalf("log:\n  got  %s\n  want %s", strings.Join(got, "\n       "), strings.Join(want, "\n       "))
	}
}

// wantTags compares the audit tags of the action's RNG consumptions.
func wantTags(t *testing.T, o outcome, want ...string) {
	t.Helper()
	if got := o.tags(); !slices.Equal(got, want) {
		t.Fatalf("rng tags:\n  got  %v\n  want %v", got, want)
	}
}

// player returns the player uid of g (the test fails if there is none).
func player(t *testing.T, g *engine.Game, uid string) *engine.Player {
	t.Helper()
	pl, _ := g.Public.Player(uid)
	if pl == nil {
		t.Fatalf("no player %q", uid)
	}
	return pl
}

// wantPlayer checks a player's tile, HP and items (in order).
func wantPlayer(t *testing.T, g *engine.Game, uid string, pos, hp int, items ...string) {
	t.Helper()
	pl := player(t, g, uid)
	if pl.Pos != pos || pl.HP != hp || !slices.Equal(pl.Items, items) {
		t.Fatalf("%s: tile %d HP %d items %v; want tile %d HP %d items %v", uid, pl.Pos, pl.HP, pl.Items, pos, hp, items)
	}
}

// wantAt checks the step and whom the game awaits.
func wantAt(t *testing.T, g *engine.Game, step engine.Step, awaiting string) {
	t.Helper()
	p := &g.Public
	if p.Step != step || p.Awaiting != awaiting {
		t.Fatalf("step %q awaiting %q; want step %q awaiting %q", p.Step, p.Awaiting, step, awaiting)
	}
}

// wantDiscard checks deck d's discard pile.
func wantDiscard(t *testing.T, g *engine.Game, d int, ids ...string) {
	t.Helper()
	if got := g.Public.Decks[d].Discard; !slices.Equal(got, ids) {
		t.Fatalf("%s discard pile %v, want %v", engine.DeckIDs[d], got, ids)
	}
}

// wantPile checks deck d's draw pile (top first) and its public size.
func wantPile(t *testing.T, g *engine.Game, d int, ids ...string) {
	t.Helper()
	if got := g.Secret.Decks[d].Cards; !slices.Equal(got, ids) || g.Public.Decks[d].Size != len(ids) {
		t.Fatalf("%s draw pile %v (size %d), want %v", engine.DeckIDs[d], got, g.Public.Decks[d].Size, ids)
	}
}
