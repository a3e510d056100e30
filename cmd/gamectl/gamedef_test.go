package main

import (
	"testing"

	"github.com/fairboard/fairboard/game"
)

// registered is the registry's lookup as games.go wires it, kept before a
// test swaps lookupGame for its own games.
var registered = lookupGame

// mustGame returns the registered game called name: the tests reach a
// game through the registry, as the commands do, never by importing it.
func mustGame(t testing.TB, name string) game.Definition {
	t.Helper()
	def, err := registered(name)
	if err != nil {
		t.Fatal(err)
	}
	return def
}
