//go:build js && wasm

package main

import (
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

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

func describe() board {
	b := board{Name: rules.Name, RulesHash: rules.Hash(), MinPlayers: rules.MinPlayers, MaxPlayers: rules.MaxPlayers,
		MaxHP: rules.MaxHP, Classes: engine.Classes}
	for i := 0; i < rules.Board.Length; i++ {
		b.Tiles = append(b.Tiles, tile{Index: i, Kind: rules.Tile(i), Tier: rules.Tier(i)})
	}
	for _, c := range rules.Cards() {
		b.Cards = append(b.Cards, card{ID: c.ID, Name: c.Name, Kind: fmt.Sprint(c.Kind), Tier: c.Tier})
	}
	return b
}
