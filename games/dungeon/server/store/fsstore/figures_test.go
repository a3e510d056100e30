package fsstore_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// TestStorageFigures measures what the figures of docs/store.md's cost
// table come from, on request only (FAIRBOARD_FIGURES=1; it plays
// whole 4-player games on the emulator; FAIRBOARD_FIGURES_LAYOUT=previous
// for the previous release's layout): per game, the documents by
// collection, their size and the size of their automatic index entries
// by Firestore's published storage-size rules, with and without the
// exemptions of firestore.indexes.json; per action, the mean reads and
// writes and the documents a listener on the log and the game reads.
//
//	FAIRBOARD_FIGURES=1 go test -run TestStorageFigures -v ./store/fsstore/
func TestStorageFigures(t *testing.T) {
	if os.Getenv("FAIRBOARD_FIGURES") != "1" {
		t.Skip("on request: FAIRBOARD_FIGURES=1")
	}
	b, err := os.ReadFile("../../../../../firestore.indexes.json")
	if err != nil {
		t.Fatal(err)
	}
	var f indexFile
	if err := json.NewDecoder(bytes.NewReader(b)).Decode(&f); err != nil {
		t.Fatal(err)
	}
	exempt := map[string]bool{}
	for _, o := range f.FieldOverrides {
		exempt[o.CollectionGroup+"."+o.FieldPath] = true
	}
	var opts []fsstore.Option
	if os.Getenv("FAIRBOARD_FIGURES_LAYOUT") == "previous" {
		opts = append(opts, fsstore.WithPreviousLayout())
	}
	st := newStore(t, opts...)
	defer st.Close()
	ctx := context.Background()
	const games = 5
	var actions, logDocs, events int64
	for i := range games {
		id := fmt.Sprintf("fig-%d", i)
		playWhole(t, newSvc(st), st, newBotGame(id, 4, false))
		p, err := st.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		actions += int64(p.Version)
		events += int64(p.LogSeq)
	}
	played := st.Stats() // playWhole reads the game once an action
	by := map[string]*struct{ docs, size, idx, idxAll int64 }{}
	c := st.Client()
	for i := range games {
		id := fmt.Sprintf("fig-%d", i)
		snap, err := c.Doc("games/" + id).Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		add(by, "games", snap, exempt)
		for _, coll := range []string{"private", "log", "applied", "actions"} {
			snaps, err := c.Collection("games/" + id + "/" + coll).Documents(ctx).GetAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range snaps {
				add(by, coll, s, exempt)
				if coll == "log" {
					logDocs++
				}
			}
		}
	}
	var total, totalIdx, totalIdxAll int64
	for _, coll := range []string{"games", "private", "log", "applied", "actions"} {
		x := by[coll]
		total += x.size
		totalIdx += x.idx
		totalIdxAll += x.idxAll
		t.Logf("%-8s %6.1f docs/game %8.0f B/game documents %8.0f B/game index entries (%8.0f without the exemptions)",
			coll, float64(x.docs)/games, float64(x.size)/games, float64(x.idx)/games, float64(x.idxAll)/games)
	}
	t.Logf("per game: %.0f B of documents, %.0f B of index entries (%.0f without the exemptions); %.1f actions, %.1f events, %.1f log documents",
		float64(total)/games, float64(totalIdx)/games, float64(totalIdxAll)/games, float64(actions)/games, float64(events)/games, float64(logDocs)/games)
	t.Logf("per action: %.2f reads, %.2f writes (max %d); a listener on the game and its log reads %.2f documents (one a game, %.2f log)",
		float64(played.Reads-actions-games)/float64(actions), float64(played.Writes)/float64(actions), played.MaxWrites,
		1+float64(logDocs)/float64(actions), float64(logDocs)/float64(actions))
}

// add counts one document: its size and its index entries' (Firestore's
// storage-size rules: a string is its UTF-8 bytes + 1, an integer or a
// float 8, a boolean or null 1, a map or an array the sum of its parts, a
// document its name + its fields + 32; an automatic single-field index,
// collection-scoped, holds an ascending and a descending entry for every
// field that is not an array, map subfields included, and an
// array-contains entry for each element of an array; an entry is the
// parent's name + the collection id + the field name + the value + the
// document's name + 32).
func add(by map[string]*struct{ docs, size, idx, idxAll int64 }, coll string, s *firestore.DocumentSnapshot, exempt map[string]bool) {
	x := by[coll]
	if x == nil {
		x = &struct{ docs, size, idx, idxAll int64 }{}
		by[coll] = x
	}
	path := s.Ref.Path[strings.Index(s.Ref.Path, "/documents/")+len("/documents/"):]
	parts := strings.Split(path, "/")
	name := int64(16)
	for _, p := range parts {
		name += int64(len(p)) + 1
	}
	parent := int64(16)
	for _, p := range parts[:len(parts)-2] {
		parent += int64(len(p)) + 1
	}
	collID := int64(len(parts[len(parts)-2])) + 1
	x.docs++
	x.size += name + fieldsSize(s.Data()) + 32
	var walk func(field string, v any, top string)
	walk = func(field string, v any, top string) {
		entry := func(val int64) int64 { return parent + collID + int64(len(field)) + 1 + val + name + 32 }
		var n int64
		switch vv := v.(type) {
		case map[string]any:
			for k, e := range vv {
				walk(field+"."+k, e, top)
			}
			return
		case []any:
			seen := map[string]bool{}
			for _, e := range vv {
				k := fmt.Sprint(e)
				if !seen[k] {
					seen[k] = true
					n += entry(valueSize(e))
				}
			}
		default:
			n = 2 * entry(valueSize(v))
		}
		x.idxAll += n
		if !exempt[coll+"."+top] {
			x.idx += n
		}
	}
	for k, v := range s.Data() {
		walk(k, v, k)
	}
}

func fieldsSize(m map[string]any) int64 {
	var n int64
	for k, v := range m {
		n += int64(len(k)) + 1 + valueSize(v)
	}
	return n
}

func valueSize(v any) int64 {
	switch x := v.(type) {
	case nil, bool:
		return 1
	case int64, float64:
		return 8
	case string:
		return int64(len(x)) + 1
	case []any:
		var n int64
		for _, e := range x {
			n += valueSize(e)
		}
		return n
	case map[string]any:
		return fieldsSize(x) + 32
	}
	return 8
}
