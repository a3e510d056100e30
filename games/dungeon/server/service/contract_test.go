package service_test

// Tests of the service's documented contract at its exact edges: the id the
// engine sees, the entropy and seat limits as docs/functions.md states
// them, the events Do returns, the log page of View, and the logger. Every
// expected value is written out here from the docs, not read from the code
// (a constant of the package would move with a mutated definition).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// TestEngineActionID: the engine sees "uid:actionId", and "" when the
// client gave no id (docs/functions.md, Idempotency: "the engine sees
// uid:id ... Public.lastActionId shows that form").
func TestEngineActionID(t *testing.T) {
	for _, tc := range []struct{ actor, id, want string }{
		{"p1", "a7", "p1:a7"},
		{"uid-X_9", "k-1", "uid-X_9:k-1"},
		{"p1", "", ""},
	} {
		if got := service.EngineActionID(tc.actor, tc.id); got != tc.want {
			t.Errorf("EngineActionID(%q, %q) = %q; want %q", tc.actor, tc.id, got, tc.want)
		}
	}

	svc := newService(store.NewMemory(), nil)
	ctx := context.Background()
	for _, step := range []struct {
		a    engine.Action
		want string // Public.lastActionId after it
	}{
		{engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c"}, "p1:c"},
		{engine.Action{Kind: engine.ActJoin, Actor: "p2", ID: "j-2", Seat: 1, Class: engine.ClassMonk}, "p2:j-2"},
		// No action id: the engine's last id is empty again.
		{engine.Action{Kind: engine.ActJoin, Actor: "p3", Seat: 2, Class: engine.ClassScout}, ""},
	} {
		if _, err := svc.Do(ctx, "g", step.a); err != nil {
			t.Fatalf("%s by %s: %v", step.a.Kind, step.a.Actor, err)
		}
		v, err := svc.View(ctx, "p1", "g", 0)
		if err != nil {
			t.Fatal(err)
		}
		if v.Public.LastActionID != step.want {
			t.Errorf("after %s by %s with id %q: lastActionId %q; want %q", step.a.Kind, step.a.Actor, step.a.ID, v.Public.LastActionID, step.want)
		}
	}
}

// TestEntropyAtItsLimit: docs/functions.md, Field limits: entropy is "at
// most 128 hex digits (64 bytes)". A fair game's join with exactly 128 is
// applied; 130 (65 bytes, still whole bytes of hex) is a FieldError naming
// entropy, and the store is never called.
func TestEntropyAtItsLimit(t *testing.T) {
	c := &counting{Store: store.NewMemory()}
	svc := newService(c, nil)
	ctx := context.Background()
	if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "fair"}); err != nil {
		t.Fatal(err)
	}
	applies := c.applies.Load()
	long := engine.Action{Kind: engine.ActJoin, Actor: "p1", ID: "j", Seat: 0, Class: engine.ClassMonk, Entropy: strings.Repeat("9f", 65)}
	_, err := svc.Do(ctx, "g", long)
	var fe *service.FieldError
	if !errors.As(err, &fe) || fe.Field != "entropy" || fe.Problem != "must be at most 128 bytes" {
		t.Errorf("join with 130 hex digits of entropy = %v; want the FieldError \"entropy must be at most 128 bytes\"", err)
	}
	if n := c.applies.Load() - applies; n != 0 {
		t.Errorf("the refused join reached the store %d times", n)
	}
	atLimit := long
	atLimit.Entropy = strings.Repeat("9f", 64)
	if r, err := svc.Do(ctx, "g", atLimit); err != nil || r.Replayed {
		t.Fatalf("join with exactly 128 hex digits of entropy = %+v, %v; want it applied", r, err)
	}
	v, err := svc.View(ctx, "p1", "g", 0)
	if err != nil || len(v.Public.Players) != 1 || v.Public.Players[0].UID != "p1" {
		t.Fatalf("after the join: %+v, %v; want p1 seated", v, err)
	}
}

// TestSeatErrorNamesItsRange: docs/functions.md, Field limits: seat is "0
// to the ruleset's players - 1"; the default ruleset seats 6 players
// (engine/rules/default.json, maxPlayers), so the range is [0, 5].
func TestSeatErrorNamesItsRange(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	for _, seat := range []int{-1, 6, 99} {
		_, err := svc.Do(context.Background(), "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", ID: "j", Seat: seat, Class: engine.ClassMonk})
		var fe *service.FieldError
		if !errors.As(err, &fe) || fe.Field != "seat" || fe.Problem != "must be in [0, 5]" {
			t.Errorf("seat %d: %v; want the FieldError \"seat must be in [0, 5]\"", seat, err)
			continue
		}
		if want := "service: invalid request: seat must be in [0, 5]"; err.Error() != want {
			t.Errorf("seat %d: message %q; want %q", seat, err.Error(), want)
		}
	}
}

// TestDoReturnsTheLoggedEvents: the Result of each action holds exactly
// the events the action logged (docs/functions.md, Result: "the public log
// events it produced"): the log's events with seq past the state before
// it, up to the state after it; an action that logs nothing (endManage)
// returns "events": [] in JSON, never null.
func TestDoReturnsTheLoggedEvents(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	ctx := context.Background()
	started(t, svc, "g", false)
	empty, some := 0, 0
	for k := 0; k < 120 && (empty < 3 || some < 10); k++ {
		before, err := svc.View(ctx, "p1", "g", 0)
		if err != nil {
			t.Fatal(err)
		}
		if before.Public.Phase != engine.PhasePlaying {
			break
		}
		a := awaited(t, svc, "g")
		a.ID = fmt.Sprintf("a%d", k)
		r, err := svc.Do(ctx, "g", a)
		if err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
		logged, err := svc.View(ctx, "p1", "g", before.Public.LogSeq)
		if err != nil {
			t.Fatal(err)
		}
		if n := logged.Public.LogSeq - before.Public.LogSeq; uint64(len(logged.Events)) != n {
			t.Fatalf("%s: the log grew by %d seqs but holds %d new events", a.Kind, n, len(logged.Events))
		}
		if got, want := logJSON(r.Events), logJSON(logged.Events); got != want {
			t.Fatalf("%s %s: Do returned %s; the log holds %s", a.ID, a.Kind, got, want)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if len(logged.Events) == 0 {
			empty++
			if !bytes.Contains(b, []byte(`"events":[]`)) {
				t.Errorf("%s logged nothing; its result %s; want \"events\":[]", a.Kind, b)
			}
		} else {
			some++
		}
	}
	if empty < 3 || some < 10 {
		t.Fatalf("%d actions that logged nothing and %d that logged events; want at least 3 and 10", empty, some)
	}
}

// TestViewPageEdges: a page holds at most 1000 events (docs/functions.md,
// View: "at most 1000; more when there are more"). A six-player game of
// the bots logs more than 1001 events; the log's seqs are 1..L with L the
// state's logSeq (each event takes the next seq, docs/engine.md).
func TestViewPageEdges(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	ctx := context.Background()
	play(t, svc, "svc-1", 6, false)
	v, err := svc.View(ctx, policy.UID(0), "bot-svc-1", 0)
	if err != nil {
		t.Fatal(err)
	}
	L := v.Public.LogSeq
	if L < 1002 {
		t.Fatalf("the game logged %d events; the test needs more than 1001", L)
	}
	for _, tc := range []struct {
		after       uint64
		first, last uint64 // seqs of the page; 0, 0 for an empty page
		more        bool
	}{
		{0, 1, 1000, true},
		{L - 1001, L - 1000, L - 1, true}, // 1001 left: a full page, and more
		{L - 1000, L - 999, L, false},     // exactly 1000 left: one page, no more
		{L - 1, L, L, false},
		{L, 0, 0, false}, // nothing after the last
	} {
		v, err := svc.View(ctx, policy.UID(0), "bot-svc-1", tc.after)
		if err != nil {
			t.Fatalf("after %d: %v", tc.after, err)
		}
		n := uint64(0)
		if tc.last > 0 {
			n = tc.last - tc.first + 1
		}
		if uint64(len(v.Events)) != n || v.More != tc.more {
			t.Errorf("after %d of %d: %d events, more %v; want %d, more %v", tc.after, L, len(v.Events), v.More, n, tc.more)
			continue
		}
		for i, e := range v.Events {
			if e.Seq != tc.first+uint64(i) {
				t.Errorf("after %d: event %d has seq %d; want %d", tc.after, i, e.Seq, tc.first+uint64(i))
				break
			}
		}
	}
}

// growing wraps a store whose log grows between View's read of the game
// and its read of the log: before each Log it runs grow (another
// player's action committed in between).
type growing struct {
	store.Store
	grow func()
}

func (g *growing) Log(ctx context.Context, id string, after uint64, limit int) ([]engine.Event, error) {
	g.grow()
	return g.Store.Log(ctx, id, after, limit)
}

// TestViewKeepsStateAndLogInStep: View returns no event newer than the
// state it returns (docs/functions.md, View: the events of the state it
// shows), even when an action commits between its two reads.
func TestViewKeepsStateAndLogInStep(t *testing.T) {
	mem := store.NewMemory()
	plain := newService(mem, nil)
	ctx := context.Background()
	started(t, plain, "g", false)
	var once sync.Once
	grow := func() {
		once.Do(func() {
			// Actions until the log has grown (endManage logs nothing).
			for k := 0; k < 20; k++ {
				before, _ := plain.View(ctx, "p1", "g", 0)
				a := awaited(t, plain, "g")
				a.ID = fmt.Sprintf("late%d", k)
				if _, err := plain.Do(ctx, "g", a); err != nil {
					t.Errorf("the action between the reads: %v", err)
					return
				}
				if after, _ := plain.View(ctx, "p1", "g", 0); after.Public.LogSeq > before.Public.LogSeq {
					return
				}
			}
			t.Error("20 actions logged nothing")
		})
	}
	before, err := plain.View(ctx, "p1", "g", 0)
	if err != nil {
		t.Fatal(err)
	}
	L := before.Public.LogSeq
	v, err := newService(&growing{Store: mem, grow: grow}, nil).View(ctx, "p1", "g", 0)
	if err != nil {
		t.Fatal(err)
	}
	if v.Public.LogSeq != L {
		t.Fatalf("the view's state has logSeq %d; want %d, the state before the late action", v.Public.LogSeq, L)
	}
	if uint64(len(v.Events)) != L || v.More || v.Events[0].Seq != 1 || v.Events[len(v.Events)-1].Seq != L {
		t.Errorf("the view holds %d events (more %v); want seqs 1..%d, no more", len(v.Events), v.More, L)
	}
	now, err := plain.View(ctx, "p1", "g", 0)
	if err != nil || now.Public.LogSeq <= L {
		t.Fatalf("the late action did not grow the log: %v", err)
	}
}

// TestConfiguredLoggerGetsAuditFailures: Config.Logger "receives
// audit-write failures and repairs": an audit write that fails is logged
// at ERROR there, and the repair on the action's replay at WARN, each
// naming the game.
func TestConfiguredLoggerGetsAuditFailures(t *testing.T) {
	mem := newOldStore()
	sw := &switchableAudit{st: mem}
	var buf bytes.Buffer
	svc := newService(mem, func(c *service.Config) {
		c.Audit = sw
		c.Logger = slog.New(slog.NewTextHandler(&buf, nil))
	})
	sw.fail.Store(true)
	started(t, svc, "logged", true) // start draws: its audit write fails
	if !strings.Contains(buf.String(), "level=ERROR") || !strings.Contains(buf.String(), "game=logged") {
		t.Fatalf("the configured logger got %q; want an ERROR naming game=logged", buf.String())
	}
	buf.Reset()
	sw.fail.Store(false)
	if _, err := svc.Do(context.Background(), "logged", engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "level=WARN") || !strings.Contains(buf.String(), "game=logged") {
		t.Errorf("the configured logger got %q after the repair; want a WARN naming game=logged", buf.String())
	}
}

// TestVerifyShuffleEdges: claimed_deck holds "1 to 4096 cards"
// (docs/functions.md, Field limits), so 4096 are verified, not refused;
// and the registry's explanation of a bad seed is cut at 160 bytes, on a
// character boundary, with "…" after it. hashchain-v1 explains a seed
// with one ':' by quoting it: `want HEX or HEX:SESSION:MOVE, not "` (35
// bytes), the seed, `"`.
func TestVerifyShuffleEdges(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	deck := make([]string, 4096)
	for i := range deck {
		deck[i] = fmt.Sprintf("c%d", i)
	}
	r, err := svc.VerifyShuffle("fisher-yates-v1", "00", deck)
	if err != nil || len(r.Actual) != 4096 {
		t.Fatalf("a claim of 4096 cards: %v; want it verified", err)
	}

	const prefix = `is not a seed of hashchain-v1: want HEX or HEX:SESSION:MOVE, not "`
	for _, tc := range []struct{ name, seed, want string }{
		// 35 + 124 + 1 = 160 bytes: whole.
		{"160 bytes", "a:" + strings.Repeat("b", 122), prefix + "a:" + strings.Repeat("b", 122) + `"`},
		// 161 bytes: the first 160 (the closing quote goes).
		{"161 bytes", "a:" + strings.Repeat("b", 123), prefix + "a:" + strings.Repeat("b", 123) + "…"},
		// The é's (2 bytes each) start at byte 37; byte 160 is the second
		// half of the 62nd, so the cut falls back to 159: 61 é's.
		{"cut inside a character", "a:" + strings.Repeat("é", 70), prefix + "a:" + strings.Repeat("é", 61) + "…"},
	} {
		_, err := svc.VerifyShuffle("hashchain-v1", tc.seed, deck[:5])
		var fe *service.FieldError
		if !errors.As(err, &fe) || fe.Field != "seed" || fe.Problem != tc.want {
			t.Errorf("%s: %v; want the seed's problem %q", tc.name, err, tc.want)
		}
	}
}
