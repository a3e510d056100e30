package engine

import (
	"testing"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// TestCtxCommitShuffle: a handler's Ctx.CommitShuffle records the shuffle
// and returns its commitment in a full dispatch, and does neither in a
// lean one ([Dispatcher.Lean]). The expected commitment is built here from
// rng/fair's public derivations (checked against Node/OpenSSL vectors in
// that package): the salt of shuffle 0 from the game's salt key, then
// SHA-256 over the salt, the deck id and the cards.
func TestCtxCommitShuffle(t *testing.T) {
	var got Hash32
	calls := 0
	tab := Table{ActMove: func(c *Ctx, a *Action) error {
		calls++
		got = c.CommitShuffle(DeckChance, rng.TagTestOnly)
		return nil
	}}
	e := New(DefaultRules(), tab)
	setup := func() (*Game, *rng.Stream) {
		g, s := lobbyGame(t)
		g.Secret.Decks = make([]SecretDeck, NumDecks)
		for d := range g.Secret.Decks {
			g.Secret.Decks[d].ID = DeckIDs[d]
		}
		g.Secret.Decks[DeckChance].Cards = []string{"c3", "c1", "c2"}
		for i := range g.Secret.SaltKey {
			g.Secret.SaltKey[i] = byte(i + 1)
		}
		return g, s
	}
	a := func() *Action { return &Action{Kind: ActMove, Actor: "p1", ID: "a4", Version: 3} }

	key := [32]byte{}
	for i := range key {
		key[i] = byte(i + 1)
	}
	salt := fair.DeckSalt(&key, 0)
	want := Hash32(fair.DeckCommitment(&salt, DeckIDs[DeckChance], []string{"c3", "c1", "c2"}))

	for name, dispatch := range dispatchers(e) {
		g, s := setup()
		if _, err := dispatch(g, a(), s, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got != want {
			t.Errorf("%s: commitment %v, want %v", name, got, want)
		}
		sh := g.Secret.Shuffles
		if len(sh) != 1 || sh[0].K != 0 || sh[0].Seq != 5 || sh[0].DeckID != DeckIDs[DeckChance] ||
			sh[0].Tag != rng.TagTestOnly || sh[0].Salt != Hash32(salt) || len(sh[0].Order) != 3 || sh[0].Order[0] != "c3" {
			t.Errorf("%s: recorded shuffles %+v", name, sh)
		}
	}

	d := e.NewDispatcher()
	d.Lean(0)
	g, s := setup()
	got = Hash32{1}
	if _, err := d.Dispatch(g, a(), s, nil); err != nil {
		t.Fatal(err)
	}
	if got != (Hash32{}) || len(g.Secret.Shuffles) != 0 {
		t.Errorf("lean: commitment %v and %d shuffles recorded, want zero and none", got, len(g.Secret.Shuffles))
	}
	if calls != 3 {
		t.Errorf("the handler ran %d times, want 3", calls)
	}
}

// TestLeanDropsEventsButCountsThem: a lean dispatcher keeps only the
// events of its set, but every event built counts in Public.LogSeq, so the
// kept ones carry the seqs of the full log. Worked by hand: the game's
// LogSeq is 4; the handler adds GameCreated (seq 5, dropped), DiceRolled
// (seq 6, kept, value 3) and GameCreated again (seq 7, dropped, its slot
// written over): the log gets one event, seq 6, and LogSeq is 7.
func TestLeanDropsEventsButCountsThem(t *testing.T) {
	tab := Table{ActMove: func(c *Ctx, a *Action) error {
		e := c.Add(EvGameCreated)
		e.UID, e.NMods = "dropped", 2
		e = c.Add(EvDiceRolled)
		e.Who, e.Sides, e.Value = a.Actor, 6, 3
		e = c.Add(EvGameCreated)
		if e.NMods != 0 || e.Seq != 7 || e.Type != EvGameCreated {
			t.Errorf("a reused slot: seq %d, type %v, nmods %d; want 7, GameCreated, 0", e.Seq, e.Type, e.NMods)
		}
		return nil
	}}
	d := New(DefaultRules(), tab).NewDispatcher()
	d.Lean(EventsOf(EvDiceRolled))
	g, s := lobbyGame(t)
	ev, err := d.Dispatch(g, &Action{Kind: ActMove, Actor: "p1", ID: "a4", Version: 3}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev) != 1 || ev[0].Seq != 6 || ev[0].Type != EvDiceRolled || ev[0].Value != 3 || ev[0].Who != "p1" {
		t.Errorf("kept events %+v, want one DiceRolled at seq 6", ev)
	}
	if g.Public.LogSeq != 7 {
		t.Errorf("LogSeq %d, want 7", g.Public.LogSeq)
	}
}

// TestEventSet: EventsOf sets a bit per type; Has is false for every
// other type, including types past the 64 a set can hold.
func TestEventSet(t *testing.T) {
	s := EventsOf(EvDiceRolled, EvRoundEnded)
	for _, c := range []struct {
		t    EventType
		want bool
	}{{EvDiceRolled, true}, {EvRoundEnded, true}, {EvGameCreated, false}, {0, false}, {63, false}, {64, false}, {200, false}} {
		if got := s.Has(c.t); got != c.want {
			t.Errorf("Has(%d) = %v, want %v", c.t, got, c.want)
		}
	}
	if EventsOf().Has(EvDiceRolled) || !EventSet(^uint64(0)).Has(63) || EventSet(^uint64(0)).Has(64) {
		t.Error("the empty and the full set")
	}
	if EventsOf(EvDiceRolled) != EventSet(1)<<EvDiceRolled {
		t.Errorf("EventsOf(DiceRolled) = %b", EventsOf(EvDiceRolled))
	}
}
