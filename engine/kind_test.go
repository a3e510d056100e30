package engine

import "testing"

// kindIndex must number ActionKinds in order: New's array of handlers and
// Dispatch's lookup rely on it.
func TestKindIndex(t *testing.T) {
	if len(ActionKinds) != numActionKinds {
		t.Fatalf("%d action kinds, numActionKinds is %d", len(ActionKinds), numActionKinds)
	}
	for i, k := range ActionKinds {
		if got := kindIndex(k); got != i {
			t.Fatalf("kindIndex(%q) = %d, want %d", k, got, i)
		}
	}
	for _, k := range []ActionKind{"", "Move", "moves", "resolveCombat"} {
		if got := kindIndex(k); got != -1 {
			t.Fatalf("kindIndex(%q) = %d, want -1", k, got)
		}
	}
}
