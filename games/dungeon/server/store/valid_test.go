package store_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// TestValidIDEdges: ValidID at each edge of its documented rule (1 to 128
// characters of [A-Za-z0-9_-], not of the form __x__), one step inside
// and one step outside each: the ends of every character range and the
// ASCII characters just past them.
func TestValidIDEdges(t *testing.T) {
	for _, c := range []struct {
		id   string
		want bool
	}{
		{"", false},
		{"a", true},
		{strings.Repeat("x", 128), true},
		{strings.Repeat("x", 129), false},
		// The reserved form needs "__" at both ends: four underscores are
		// "__" + "" + "__", reserved; three are not the form.
		{"____", false},
		{"___", true},
		{"__x__", false},
		{"__x_", true},
		{"_x__", true},
		// Each range's ends are in, the characters beside them out
		// ('`' and '{' beside a-z, '@' and '[' beside A-Z, '/' and ':'
		// beside 0-9).
		{"a", true}, {"z", true}, {"A", true}, {"Z", true}, {"0", true}, {"9", true},
		{"_", true}, {"-", true},
		{"`", false}, {"{", false}, {"@", false}, {"[", false}, {"/", false}, {":", false},
		{"ab`", false}, {"ab{", false}, {"ab@", false}, {"ab[", false}, {"ab/", false}, {"ab:", false},
		{".", false}, {"a.b", false}, {"a b", false}, {"é", false},
	} {
		if got := store.ValidID(c.id); got != c.want {
			t.Errorf("ValidID(%q) = %v, want %v", c.id, got, c.want)
		}
	}
}

// TestDocConversionErrors: every error path of ToDoc, JSONToDoc and
// FromDoc: a value JSON cannot encode, a number outside float64 at the top
// and an integer outside int64 nested in an object and in an array.
func TestDocConversionErrors(t *testing.T) {
	var unsupported *json.UnsupportedTypeError
	if _, err := store.ToDoc(map[string]any{"c": make(chan int)}); !errors.As(err, &unsupported) {
		t.Errorf("ToDoc of a channel: %v, want encoding/json's UnsupportedTypeError", err)
	}
	for _, in := range []string{
		`{"a":1e400}`,
		`{"a":{"b":{"c":99999999999999999999}}}`,
		`{"a":[1,[2,-99999999999999999999]]}`,
	} {
		if _, err := store.JSONToDoc([]byte(in)); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("JSONToDoc(%s) = %v, want ErrInvalid", in, err)
		}
	}
	var v struct{ A int }
	if err := store.FromDoc(map[string]any{"A": make(chan int)}, &v); !errors.As(err, &unsupported) {
		t.Errorf("FromDoc of a channel: %v, want encoding/json's UnsupportedTypeError", err)
	}
	// The edges that are accepted: the largest int64 stays exact.
	m, err := store.JSONToDoc([]byte(`{"a":{"b":[9223372036854775807]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := m["a"].(map[string]any)["b"].([]any)[0]; got != int64(9223372036854775807) {
		t.Errorf("the largest int64 came back as %#v", got)
	}
}
