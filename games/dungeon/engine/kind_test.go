package engine

import (
	"strings"
	"testing"
)

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

// An event type past the table (a value no constructor makes) is named
// "Unknown" and written with no fields: {"seq":..,"type":"Unknown"}.
func TestEventTypePastTheTable(t *testing.T) {
	for _, ty := range []EventType{numEventTypes, numEventTypes + 1} {
		if s := ty.String(); s != "Unknown" {
			t.Errorf("EventType(%d).String() = %q, want Unknown", ty, s)
		}
		e := Event{Seq: 3, Type: ty, UID: "p1", Value: 4}
		if got := string(e.AppendJSON(nil)); got != `{"seq":3,"type":"Unknown"}` {
			t.Errorf("EventType(%d): AppendJSON = %s", ty, got)
		}
	}
}

// Player finds a player by uid with its index; an unknown uid gives nil, -1.
func TestPlayerByUID(t *testing.T) {
	p := &Public{Players: []Player{{UID: "b"}, {UID: "a"}}}
	if pl, i := p.Player("a"); pl != &p.Players[1] || i != 1 {
		t.Errorf("Player(a) = %p, %d; want the second player, 1", pl, i)
	}
	if pl, i := p.Player("c"); pl != nil || i != -1 {
		t.Errorf("Player(c) = %v, %d; want nil, -1", pl, i)
	}
	if pl, i := (&Public{}).Player(""); pl != nil || i != -1 {
		t.Errorf("Player on no players = %v, %d; want nil, -1", pl, i)
	}
}

// sameString is ==, whether the two strings share their bytes or not.
func TestSameString(t *testing.T) {
	h := DefaultRules().Hash()
	other := []byte(h)
	other[len(other)-1] ^= 1
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{h, h, true},
		{h, strings.Clone(h), true},
		{h, string(other), false},
		{h, h[1:], false},
		{"", "", true},
		{"seeded", "crypto", false},
	} {
		if got := sameString(c.a, c.b); got != c.want || got != (c.a == c.b) {
			t.Errorf("sameString(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
