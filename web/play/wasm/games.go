//go:build js && wasm

package main

import (
	"encoding/json"

	gamedef "github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
)

// gameInfo is one registered game as the page's lobby and generic board
// read it (fairboard.games()): its name, its seats (min, max, default and
// the options a seat picks when it joins), its move kinds with their
// arguments and docs, and its event types with their fields.
type gameInfo struct {
	Name   string      `json:"name"`
	Seats  seatsInfo   `json:"seats"`
	Kinds  []kindInfo  `json:"kinds"`
	Events []eventInfo `json:"events"`
	// Trustless: the page can play the game at a trustless table (every
	// part public, game.AllPublic, or dealt by mental poker, game.MaxLoss;
	// and no seat options).
	Trustless bool `json:"trustless"`
}

type seatsInfo struct {
	Min     int          `json:"min"`
	Max     int          `json:"max"`
	Default int          `json:"default"`
	Options []optionInfo `json:"options"`
}

type optionInfo struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Doc    string   `json:"doc"`
}

type kindInfo struct {
	Name    string    `json:"name"`
	Doc     string    `json:"doc"`
	Args    []argInfo `json:"args"`
	Forfeit bool      `json:"forfeit,omitempty"`
}

type argInfo struct {
	Name string `json:"name"`
	Min  int64  `json:"min"`
	Max  int64  `json:"max"`
}

type eventInfo struct {
	Type   string   `json:"type"`
	Fields []string `json:"fields"`
}

// gamesJSON lists the registry's games, the dungeon first (the page's
// default), then the others in registry order.
func gamesJSON() string {
	var out []gameInfo
	all := registry.All()
	for _, first := range []bool{true, false} {
		for _, def := range all {
			if (def.Name() == registry.Dungeon) == first {
				out = append(out, describeGame(def))
			}
		}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func describeGame(def gamedef.Definition) gameInfo {
	s := def.Seats()
	g := gameInfo{Name: def.Name(), Seats: seatsInfo{Min: s.Min, Max: s.Max, Default: s.Default, Options: []optionInfo{}},
		Kinds: []kindInfo{}, Events: []eventInfo{}, Trustless: trustlessHere(def)}
	for _, o := range s.Options {
		g.Seats.Options = append(g.Seats.Options, optionInfo{Name: o.Name, Values: append([]string{}, o.Values...), Doc: o.Doc})
	}
	for _, k := range def.Kinds() {
		ki := kindInfo{Name: k.Name, Doc: k.Doc, Args: []argInfo{}, Forfeit: k.Forfeit}
		for _, a := range k.Args {
			ki.Args = append(ki.Args, argInfo{Name: a.Name, Min: a.Min, Max: a.Max})
		}
		g.Kinds = append(g.Kinds, ki)
	}
	for _, e := range def.EventTypes() {
		g.Events = append(g.Events, eventInfo{Type: e.Type, Fields: append([]string{}, e.Fields...)})
	}
	return g
}

// trustlessHere reports whether the page plays def at a trustless table:
// every part public (game.AllPublic) or a private deck dealt by mental
// poker (game.MaxLoss), with seats that pick no option.
func trustlessHere(def gamedef.Definition) bool {
	_, dealing := def.(gamedef.MaxLoss)
	return (gamedef.IsAllPublic(def) || dealing) && len(def.Seats().Options) == 0
}
