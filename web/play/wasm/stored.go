//go:build js && wasm

package main

import (
	"encoding/hex"
	"fmt"
	"syscall/js"

	gamedef "github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
)

// stored is the registered game whose stored games the page follows and
// plays (fairboard.rules, reset, state, events, legal, marks, seat,
// signBytes, reveal, actReveal, check): the reference game's, through
// its definition (game.StoredGames). cur is the game followed, one that
// follows nothing until a reset.
var (
	stored = storedGames()
	cur    = stored.FollowStored("")
)

// storedGames returns the registry's reference game as game.StoredGames;
// a registry without it is a wiring mistake, and the page does not start.
func storedGames() gamedef.StoredGames {
	def, err := registry.Lookup(registry.Dungeon)
	if err != nil {
		panic(err)
	}
	s, ok := def.(gamedef.StoredGames)
	if !ok {
		panic(fmt.Sprintf("game %q keeps no stored games (game.StoredGames)", def.Name()))
	}
	return s
}

// revealAnswer is a reveal as the page reads it: {ok, action, message,
// index, digest} (the action without its signature, JSON; message the
// bytes to sign, hex), {ok, none: true}, or {ok: false, error}.
func revealAnswer(r gamedef.StoredReveal, err error) js.Value {
	switch {
	case err != nil:
		return answer(err, nil)
	case r.None:
		return answer(nil, map[string]any{"none": true})
	}
	return answer(nil, map[string]any{"action": string(r.Action), "message": hex.EncodeToString(r.Message),
		"index": r.Index, "digest": r.Digest})
}
