package engine

import (
	"strings"
	"testing"
)

// TestReferenceWiring: a program that links no reference game learns so
// by name at NewReference, and a second registration is refused; with the
// dungeon's rules linked (reference_test.go) the table is registered.
func TestReferenceWiring(t *testing.T) {
	if reference == nil {
		t.Fatal("the dungeon's rules, linked into this test, registered no reference game")
	}
	kept := reference
	t.Cleanup(func() { reference = kept })

	mustPanic(t, "registered twice", func() { RegisterReference(kept) })
	mustPanic(t, "RegisterReference(nil)", func() { RegisterReference(nil) })

	reference = nil
	mustPanic(t, "no reference game is registered", func() { NewReference(DefaultRules()) })
	RegisterReference(kept)
	if NewReference(DefaultRules()) == nil || len(ReferenceTable()) == 0 {
		t.Fatal("a registered reference game built no engine or an empty table")
	}
}

func mustPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, want) {
			t.Errorf("panic %v, want one that says %q", r, want)
		}
	}()
	f()
}
