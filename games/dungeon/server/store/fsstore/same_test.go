package fsstore

import (
	"maps"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// TestSameValue holds the diff's equality to reflect.DeepEqual (the one
// it replaces) on every pair of a set of document values, nested ones
// among them; the one difference is meant: 0 and -0 are not the same
// value (DeepEqual says they are), so a change of sign is written.
func TestSameValue(t *testing.T) {
	negZero := math.Copysign(0, -1)
	at := time.Unix(1, 2)
	values := []any{
		nil, true, false, "", "a", "b", int64(0), int64(1), int64(-1), float64(0), negZero, 1.5, 1.0,
		[]any(nil), []any{}, []any{nil}, []any{int64(1)}, []any{1.0}, []any{int64(1), "a"}, []any{"a", int64(1)},
		map[string]any(nil), map[string]any{}, map[string]any{"a": nil}, map[string]any{"a": int64(1)},
		map[string]any{"b": int64(1)}, map[string]any{"a": int64(1), "b": []any{}},
		map[string]any{"a": int64(1), "b": []any(nil)}, map[string]any{"a": []any{map[string]any{"x": "y"}}},
		map[string]any{"a": []any{map[string]any{"x": "z"}}}, []byte("a"), at, time.Unix(1, 3),
	}
	for i, a := range values {
		for j, b := range values {
			want := reflect.DeepEqual(a, b)
			if x, ok := a.(float64); ok && x == 0 {
				if y, ok := b.(float64); ok && y == 0 && math.Signbit(x) != math.Signbit(y) {
					want = false
				}
			}
			if got := sameValue(a, b); got != want {
				t.Errorf("sameValue(%#v, %#v) = %v, want %v (values %d, %d)", a, b, got, want, i, j)
			}
		}
	}
	// Equal values that are not the same object, nested.
	mk := func() any {
		return map[string]any{"p": []any{map[string]any{"uid": "p1", "hp": int64(3), "x": 0.25}}, "n": nil}
	}
	if !sameValue(mk(), mk()) {
		t.Error("equal nested documents are not the same value")
	}
}

// TestSecretFields: the fields privateData reads are every field a
// private state's document can hold: those of an engine.Secret with every
// field set (written out by hand, and counted, so a new field fails here
// until it is set below).
func TestSecretFields(t *testing.T) {
	s := engine.Secret{Seed: "s", RNGState: "r", Decks: []engine.SecretDeck{{ID: "d"}}, ServerSeed: "x",
		Entropy: []string{"e"}, GameSeed: "g", SaltKey: engine.Hash32{1}, Shuffles: []engine.ShuffleRecord{{}},
		Links: []engine.RoundLink{{}}}
	if n := reflect.TypeFor[engine.Secret]().NumField(); n != 9 {
		t.Fatalf("engine.Secret has %d fields, the test sets 9", n)
	}
	d, err := store.ToDoc(&s)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(maps.Keys(d))
	got := slices.Sorted(slices.Values(secretFields))
	if !slices.Equal(got, want) {
		t.Errorf("secretFields = %v, the document's fields are %v", got, want)
	}
}
