package engine

import (
	"bytes"
	"testing"
)

// Clone must keep nil and empty slices apart: they encode to JSON null and
// [] respectively, and the store compares states by their canonical JSON.
func TestCloneKeepsEmptySlices(t *testing.T) {
	g := &Game{}
	g.Public.Phase = PhasePlaying
	g.Public.Players = []Player{{UID: "p1", Items: []string{}}}
	g.Public.Decks = []DeckInfo{{ID: "chance", Discard: []string{}}}
	g.Public.Combat = &Combat{ID: "c1", Enemies: []Enemy{}}
	g.Public.Bracket = &Bracket{Finalists: []string{}}
	g.Secret.Decks = []SecretDeck{{ID: "chance", Cards: []string{}}}
	want, err := g.CanonicalJSON()
	if err != nil {
		t.Fatal(err)
	}
	c := g.Clone()
	got, err := c.CanonicalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("clone differs:\n got %s\nwant %s", got, want)
	}
	// And it is deep: changing the clone leaves the original alone.
	c.Public.Players[0].UID = "changed"
	c.Public.Combat.ID = "c2"
	if g.Public.Players[0].UID != "p1" || g.Public.Combat.ID != "c1" {
		t.Fatal("clone shares memory with the original")
	}
}
