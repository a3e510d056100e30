package sim

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestProgressIsSilentOffATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 100)
	p.Add(50)
	p.Add(50)
	p.Finish()
	if buf.Len() != 0 {
		t.Fatalf("wrote %q to a non-terminal", buf.String())
	}
	var nilBar *Progress
	nilBar.Add(1) // a run without a bar passes nil
	nilBar.Finish()
}

func TestProgressLine(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(1000, 0)
	p := &Progress{w: &buf, on: true, total: 1000, now: func() time.Time { return now }}
	p.Add(0) // starts the clock
	now = now.Add(2 * time.Second)
	p.Add(250)
	out := buf.String()
	for _, want := range []string{"250/1000 games", "125 games/s", "6s left", "[#######......."} {
		if !strings.Contains(out, want) {
			t.Errorf("progress line %q lacks %q", out, want)
		}
	}
	// Redraws are throttled to ten a second, but the last one always shows.
	buf.Reset()
	p.Add(1)
	if buf.Len() != 0 {
		t.Errorf("redrew within 100ms: %q", buf.String())
	}
	p.Add(749)
	if !strings.Contains(buf.String(), "1000/1000 games") {
		t.Errorf("final state not drawn: %q", buf.String())
	}
}
