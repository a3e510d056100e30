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
