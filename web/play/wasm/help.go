//go:build js && wasm

package main

import (
	"encoding/json"

	gamedef "github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
)

// helpJSON is the page's "How to play": the game's own help
// (game.Helper) under its default ruleset, the ruleset the page plays, or,
// for a game without one, its moves' docs.
func helpJSON(name string) string {
	def, err := registry.Lookup(name)
	if err != nil {
		b, _ := json.Marshal(map[string]string{"error": err.Error()})
		return string(b)
	}
	var h gamedef.Help
	if hp, ok := def.(gamedef.Helper); ok {
		h = hp.Help(def.DefaultRuleset())
	} else {
		s := gamedef.HelpSection{Title: "Moves"}
		for _, k := range def.Kinds() {
			s.Items = append(s.Items, gamedef.HelpItem{Name: k.Name, Text: k.Doc})
		}
		h.Sections = append(h.Sections, s)
	}
	b, _ := json.Marshal(h)
	return string(b)
}
