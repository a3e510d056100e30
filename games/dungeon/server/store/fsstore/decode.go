// Decoding what an attempt read: the game, its private state without the
// ring, and a record.

package fsstore

import (
	"fmt"
	"maps"
	"reflect"
	"strings"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// privateData is the private state's data without its audit ring, or nil
// when the game has no private state yet: the fields of engine.Secret's
// document that it holds. Only those are converted from the snapshot:
// the ring (up to 500 entries) is never needed by an action, which only
// adds its own entries to it, and converting it took about a tenth of an
// audited action's client CPU above the floor. A field the document holds
// that engine.Secret does not have (none is ever written) is left out,
// and so left as it is by the commit.
func privateData(snap *firestore.DocumentSnapshot) map[string]any {
	if !snap.Exists() {
		return nil
	}
	d := make(map[string]any, len(secretFields))
	for _, f := range secretFields {
		v, err := snap.DataAtPath(firestore.FieldPath{f})
		if err != nil {
			continue // not there (an omitted empty field)
		}
		d[f] = v
	}
	return d
}

// secretFields are the top-level fields of engine.Secret's document: the
// JSON names of its exported fields.
var secretFields = jsonFields(reflect.TypeFor[engine.Secret]())

// jsonFields are the names encoding/json gives the exported fields of
// struct type t (none of engine.Secret's is embedded or untagged-dash).
func jsonFields(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
			continue
		case name == "":
			name = f.Name
		}
		out = append(out, name)
	}
	return out
}

// decodeGame fills g from the game document's data and the private
// state's (privateData). It leaves both maps as they are.
func decodeGame(pub, priv map[string]any, g *engine.Game) error {
	pub = maps.Clone(pub)
	delete(pub, fieldOwner)
	delete(pub, fieldPlayers)
	delete(pub, fieldDue)
	if err := store.FromDoc(pub, &g.Public); err != nil {
		return fmt.Errorf("fsstore: decode game: %w", err)
	}
	if priv != nil {
		if err := store.FromDoc(priv, &g.Secret); err != nil {
			return fmt.Errorf("fsstore: decode private state: %w", err)
		}
	}
	return nil
}

// decodeRecord decodes a stored record and checks it belongs to req.
func decodeRecord(d map[string]any, req store.Request) (*store.Record, error) {
	var rec store.Record
	if err := store.FromDoc(d, &rec); err != nil {
		return nil, fmt.Errorf("fsstore: decode action record: %w", err)
	}
	if err := rec.Matches(req); err != nil {
		return nil, err
	}
	rec.Replayed = true
	return &rec, nil
}
