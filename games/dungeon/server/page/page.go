// Package page is the dungeon's stored games as the play page follows and
// plays them (docs/play.md): what the page draws of the ruleset (Board),
// and a Game that checks the game document, the log's events and the open
// round's reveal markers as they are read, lists the legal actions, and,
// for a trustless game, replays the log as the CLI's client does
// (player.Follower, player.CheckShown, player.CheckMarks) and makes the
// seat's reveals (player.Seat) from the replay alone.
//
// It is plain Go, JSON in and out, under the embedded default ruleset:
// the page's WebAssembly (web/play/wasm) reaches it through the dungeon's
// definition (game.StoredGames) and wraps it for JavaScript, and it is
// tested on the host. It does no I/O.
package page

import (
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	// The dungeon's rules, registered as the reference game that the
	// replay of a trustless game (player.Follower) plays.
	_ "github.com/fairboard/fairboard/games/dungeon/reducers"
)

// rules is the ruleset the page plays: the embedded default.
var rules = engine.DefaultRules()

// board is what the page draws, computed from the ruleset.
type board struct {
	Name       string         `json:"name"`
	RulesHash  string         `json:"rulesHash"`
	MinPlayers int            `json:"minPlayers"`
	MaxPlayers int            `json:"maxPlayers"`
	MaxHP      int            `json:"maxHp"`
	Classes    []engine.Class `json:"classes"`
	Tiles      []tile         `json:"tiles"`
	Cards      []card         `json:"cards"`
}

type tile struct {
	Index int             `json:"index"`
	Kind  engine.TileKind `json:"kind"`
	Tier  int             `json:"tier"`
}

type card struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Tier int    `json:"tier"`
}

// Board returns what the page draws of the default ruleset, as JSON: its
// name and hash, the players (min, max), the hit points, the classes,
// every tile (index, kind, zone tier) and every card (id, name, kind,
// tier).
func Board() []byte {
	b := board{Name: rules.Name, RulesHash: rules.Hash(), MinPlayers: rules.MinPlayers, MaxPlayers: rules.MaxPlayers,
		MaxHP: rules.MaxHP, Classes: engine.Classes}
	for i := 0; i < rules.Board.Length; i++ {
		b.Tiles = append(b.Tiles, tile{Index: i, Kind: rules.Tile(i), Tier: rules.Tier(i)})
	}
	for _, c := range rules.Cards() {
		b.Cards = append(b.Cards, card{ID: c.ID, Name: c.Name, Kind: fmt.Sprint(c.Kind), Tier: c.Tier})
	}
	out, _ := json.Marshal(b)
	return out
}
