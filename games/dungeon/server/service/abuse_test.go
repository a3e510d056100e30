package service_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
)

// counting wraps a store and counts the calls that reach it.
type counting struct {
	store.Store
	applies, games, logs atomic.Int64
}

func (c *counting) Apply(ctx context.Context, r store.Request, m store.Mutator) (*store.Record, error) {
	c.applies.Add(1)
	return c.Store.Apply(ctx, r, m)
}

func (c *counting) Game(ctx context.Context, id string) (*engine.Public, error) {
	c.games.Add(1)
	return c.Store.Game(ctx, id)
}

func (c *counting) Log(ctx context.Context, id string, after uint64, limit int) ([]engine.Event, error) {
	c.logs.Add(1)
	return c.Store.Log(ctx, id, after, limit)
}

// started makes game id with p1 (owner) and p2 seated, started.
func started(t *testing.T, svc *service.Service, id string, audited bool) {
	t.Helper()
	ctx := context.Background()
	for _, a := range []engine.Action{
		{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: "seeded", Seed: "abuse-" + id, Audit: audited},
		{Kind: engine.ActJoin, Actor: "p1", ID: "j", Seat: 0, Class: engine.ClassWarrior},
		{Kind: engine.ActJoin, Actor: "p2", ID: "j", Seat: 1, Class: engine.ClassMonk},
		{Kind: engine.ActStart, Actor: "p1", ID: "s"},
	} {
		if _, err := svc.Do(ctx, id, a); err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
	}
}

// awaited returns the action the awaited player's bot chooses.
func awaited(t *testing.T, svc *service.Service, id string) engine.Action {
	t.Helper()
	v, err := svc.View(context.Background(), "p1", id, 0)
	if err != nil {
		t.Fatal(err)
	}
	uid := v.Public.Awaiting
	return seats(2)[int(uid[1]-'1')].Policy.Choose(v.Public, svc.Rules(), uid)
}

// TestStrangersLeaveNothing (issue 10, item 1): a caller who is not in a
// started game is answered as if it did not exist, and nothing of theirs
// is stored, so they can neither fill the game with records nor squat a
// player's next action id; in the lobby, a stranger's rejected join is
// answered and not stored either.
func TestStrangersLeaveNothing(t *testing.T) {
	mem := store.NewMemory()
	svc := newService(mem, nil)
	ctx := context.Background()
	started(t, svc, "g", false)
	next := awaited(t, svc, "g")
	for i := range 50 {
		a := next
		a.Actor, a.ID = "mallory", fmt.Sprintf("a%d", i)
		if _, err := svc.Do(ctx, "g", a); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("stranger's act = %v; want ErrNotFound (as for a game that does not exist)", err)
		}
		if _, err := mem.Action(ctx, "g", "mallory", a.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the stranger's action %s was recorded: %v", a.ID, err)
		}
	}
	// The player's own "a0" is not blocked by the stranger's.
	next.ID = "a0"
	if r, err := svc.Do(ctx, "g", next); err != nil || r.Replayed {
		t.Fatalf("the player's a0 after a stranger's a0: %+v, %v", r, err)
	}

	// In the lobby: a stranger's rejected join is answered, not stored;
	// the retry is judged again.
	lobby := newService(mem, nil)
	if _, err := lobby.Do(ctx, "l", engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c"}); err != nil {
		t.Fatal(err)
	}
	if _, err := lobby.Do(ctx, "l", engine.Action{Kind: engine.ActJoin, Actor: "p1", ID: "j", Seat: 0, Class: engine.ClassScout}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err := lobby.Do(ctx, "l", engine.Action{Kind: engine.ActJoin, Actor: "mallory", ID: "j", Seat: 0, Class: engine.ClassScout})
		if !errors.Is(err, engine.CodeSeatTaken) {
			t.Fatalf("stranger's join of a taken seat = %v; want seat_taken", err)
		}
	}
	if _, err := mem.Action(ctx, "l", "mallory", "j"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the stranger's rejected join was recorded: %v", err)
	}
	if r, err := lobby.Do(ctx, "l", engine.Action{Kind: engine.ActJoin, Actor: "mallory", ID: "j", Seat: 1, Class: engine.ClassScout}); err != nil || r.Replayed {
		t.Errorf("the stranger's join of a free seat with the same id: %+v, %v", r, err)
	}
}

// TestActionIDsArePerPlayer (issue 10, item 1): one player's action id
// never blocks another's, neither through the store's records nor through
// the engine's duplicate_action check (the awaited player sends exactly
// the id of the last applied action, which another player sent).
func TestActionIDsArePerPlayer(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	ctx := context.Background()
	started(t, svc, "g", false)
	last := map[string]string{} // uid -> their last applied id
	used := map[string]bool{}   // uid + " " + id
	switches := 0
	prev := ""
	for n := 0; n < 80 && switches < 3; n++ {
		a := awaited(t, svc, "g")
		a.ID = fmt.Sprintf("k%d", n)
		if prev != "" && prev != a.Actor && last[prev] != "" && !used[a.Actor+" "+last[prev]] {
			a.ID = last[prev] // the other player's last id, exactly
			switches++
		}
		used[a.Actor+" "+a.ID] = true
		if _, err := svc.Do(ctx, "g", a); err != nil {
			t.Fatalf("%s by %s with id %s: %v", a.Kind, a.Actor, a.ID, err)
		}
		v, _ := svc.View(ctx, "p1", "g", 0)
		if want := service.EngineActionID(a.Actor, a.ID); v.Public.LastActionID != want {
			t.Fatalf("LastActionID %q; want %q", v.Public.LastActionID, want)
		}
		last[a.Actor], prev = a.ID, a.Actor
		if v.Public.Phase != engine.PhasePlaying {
			break
		}
	}
	if switches < 3 {
		t.Fatalf("only %d hand-overs between players; want 3", switches)
	}
	// The same player reusing an id for another action is still refused.
	a := awaited(t, svc, "g")
	a.ID, a.Version = last[a.Actor], 1
	if _, err := svc.Do(ctx, "g", a); !errors.Is(err, store.ErrActionIDReused) {
		t.Errorf("a player's own id for another action = %v; want ErrActionIDReused", err)
	}
}

// TestFieldLimits (issue 10, items 1, 5, 9): every string field has a
// maximum and a format, the seat a range; a request that breaks one is a
// *FieldError naming the field, and the store is never called.
func TestFieldLimits(t *testing.T) {
	c := &counting{Store: store.NewMemory()}
	svc := newService(c, nil)
	ctx := context.Background()
	maxSeat := eng.Rules().MaxPlayers
	move := engine.Action{Kind: engine.ActMove, Actor: "p1", ID: "a"}
	with := func(f func(*engine.Action)) engine.Action { a := move; f(&a); return a }
	for _, tc := range []struct {
		name, game string
		a          engine.Action
		field      string
	}{
		{"1,000,000-byte cardId", "g", with(func(a *engine.Action) { a.Kind, a.CardID = engine.ActDiscard, strings.Repeat("x", 1_000_000) }), "cardId"},
		{"200,000 '<' cardId", "g", with(func(a *engine.Action) { a.Kind, a.CardID = engine.ActDiscard, strings.Repeat("<", 200_000) }), "cardId"},
		{"65-byte cardId", "g", with(func(a *engine.Action) { a.CardID = strings.Repeat("c", service.MaxCardIDLen+1) }), "cardId"},
		{"cardId not UTF-8", "g", with(func(a *engine.Action) { a.CardID = "\xff" }), "cardId"},
		{"129-character target", "g", with(func(a *engine.Action) { a.Target = strings.Repeat("é", service.MaxUIDLen+1) }), "target"},
		{"129-character actor", "g", with(func(a *engine.Action) { a.Actor = strings.Repeat("u", 129) }), "actor"},
		{"no actor", "g", with(func(a *engine.Action) { a.Actor = "" }), "actor"},
		{"129-byte actionId", "g", with(func(a *engine.Action) { a.ID = strings.Repeat("i", 129) }), "actionId"},
		{"actionId with a slash", "g", with(func(a *engine.Action) { a.ID = "a/b" }), "actionId"},
		{"reserved actionId", "g", with(func(a *engine.Action) { a.ID = "__x__" }), "actionId"},
		{"no gameId", "", move, "gameId"},
		{"129-byte gameId", strings.Repeat("g", 129), move, "gameId"},
		{"unknown kind", "g", with(func(a *engine.Action) { a.Kind = "teleport" }), "kind"},
		{"no kind", "g", with(func(a *engine.Action) { a.Kind = "" }), "kind"},
		{"257-byte seed", "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "seeded", Seed: strings.Repeat("s", service.MaxSeedLen+1)}, "seed"},
		{"seed in crypto mode", "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", Seed: "s"}, "seed"},
		{"seeded without a seed", "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "seeded"}, "seed"},
		{"unknown mode", "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "loaded-dice"}, "mode"},
		{"create names another game", "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "h"}, "gameId"},
		{"unknown class", "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: "wizard"}, "class"},
		{"seat -1", "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Seat: -1}, "seat"},
		{"seat past the last", "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Seat: maxSeat}, "seat"},
		{"seat 1,000,000", "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Seat: 1_000_000}, "seat"},
		{"129 hex digits of entropy", "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Entropy: strings.Repeat("a", service.MaxEntropyLen+1)}, "entropy"},
		{"entropy not hex", "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Entropy: "zz"}, "entropy"},
		{"odd entropy", "g", engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Entropy: "abc"}, "entropy"},
		{"entropy outside a join", "g", with(func(a *engine.Action) { a.Entropy = "ab" }), "entropy"},
		{"a caller's server seed", "g", engine.Action{Kind: engine.ActCreate, Actor: "p1", ServerSeed: strings.Repeat("0", 64)}, "serverSeed"},
	} {
		_, err := svc.Do(ctx, tc.game, tc.a)
		var fe *service.FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, service.ErrInvalid) {
			t.Errorf("%s: %v; want a FieldError for %s", tc.name, err, tc.field)
			continue
		}
		if len(err.Error()) > 200 {
			t.Errorf("%s: the message is %d bytes; it must not echo the value", tc.name, len(err.Error()))
		}
	}
	if n := c.applies.Load(); n != 0 {
		t.Errorf("the store was called %d times for invalid requests; want 0", n)
	}
	// At the limits: accepted by the checks (then judged by the engine).
	for _, a := range []engine.Action{
		{Kind: engine.ActCreate, Actor: "p1", ID: "fair", Mode: "fair"},
		{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Entropy: strings.Repeat("Ab", service.MaxEntropyLen/2)},
		{Kind: engine.ActCreate, Actor: strings.Repeat("é", service.MaxUIDLen), ID: strings.Repeat("i", service.MaxIDLen), Mode: "seeded", Seed: strings.Repeat("s", service.MaxSeedLen)},
		{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Seat: maxSeat - 1},
		with(func(a *engine.Action) {
			a.Kind, a.CardID, a.Target = engine.ActDiscard, strings.Repeat("c", service.MaxCardIDLen), strings.Repeat("é", service.MaxUIDLen)
		}),
	} {
		if _, err := svc.Do(ctx, "g", a); errors.Is(err, service.ErrInvalid) {
			t.Errorf("%s at the limits: %v", a.Kind, err)
		}
	}
	for _, c := range eng.Rules().Cards() {
		if len(c.ID) > service.MaxCardIDLen {
			t.Errorf("card %q of the default ruleset is longer than MaxCardIDLen", c.ID)
		}
	}
}

// TestViewChecksBeforeReading (issue 10, items 2 and 9): getView reads the
// game document, decides, and reads the log only for a caller who may see
// the game; a stranger of a started game gets the answer of a game that
// does not exist; an invalid id is a FieldError before any read.
func TestViewChecksBeforeReading(t *testing.T) {
	c := &counting{Store: store.NewMemory()}
	svc := newService(c, nil)
	ctx := context.Background()
	started(t, svc, "g", false)
	g0, l0 := c.games.Load(), c.logs.Load()
	if _, err := svc.View(ctx, "mallory", "g", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("stranger's view = %v; want ErrNotFound", err)
	}
	if c.games.Load() != g0+1 || c.logs.Load() != l0 {
		t.Errorf("stranger's view read the game %d times and the log %d times; want 1 and 0", c.games.Load()-g0, c.logs.Load()-l0)
	}
	if v, err := svc.View(ctx, "p2", "g", 0); err != nil || len(v.Events) == 0 || c.logs.Load() != l0+1 {
		t.Errorf("seated player's view: %v, log reads %d", err, c.logs.Load()-l0)
	}
	g0 = c.games.Load()
	for _, id := range []string{"", "a/b", strings.Repeat("g", 129)} {
		var fe *service.FieldError
		if _, err := svc.View(ctx, "p1", id, 0); !errors.As(err, &fe) || fe.Field != "gameId" {
			t.Errorf("View(%q) = %v; want a FieldError for gameId", id, err)
		}
	}
	if c.games.Load() != g0 {
		t.Error("View with an invalid id read the store")
	}
	// In the lobby anyone may look.
	if _, err := svc.Do(ctx, "l", engine.Action{Kind: engine.ActCreate, Actor: "p1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.View(ctx, "mallory", "l", 0); err != nil {
		t.Errorf("stranger's view of a lobby: %v", err)
	}
}

// TestOwnerSeesTheGame: the owner of a started game who has no seat is
// in the game: they may view it and abandon it, while a stranger still
// gets the answer of a missing game.
func TestOwnerSeesTheGame(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	ctx := context.Background()
	for _, a := range []engine.Action{
		{Kind: engine.ActCreate, Actor: "host", ID: "c"},
		{Kind: engine.ActJoin, Actor: "p1", ID: "j", Seat: 0, Class: engine.ClassWarrior},
		{Kind: engine.ActJoin, Actor: "p2", ID: "j", Seat: 1, Class: engine.ClassMonk},
		{Kind: engine.ActStart, Actor: "host", ID: "s"},
	} {
		if _, err := svc.Do(ctx, "g", a); err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
	}
	if _, err := svc.View(ctx, "host", "g", 0); err != nil {
		t.Errorf("the owner's view of their started game: %v", err)
	}
	if _, err := svc.View(ctx, "mallory", "g", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a stranger's view: %v; want ErrNotFound", err)
	}
	if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActAbandon, Actor: "mallory", ID: "x"}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a stranger's abandon: %v; want ErrNotFound", err)
	}
	if _, err := svc.Do(ctx, "g", engine.Action{Kind: engine.ActAbandon, Actor: "host", ID: "x"}); err != nil {
		t.Errorf("the owner's abandon: %v", err)
	}
	if v, err := svc.View(ctx, "p1", "g", 0); err != nil || v.Public.Phase != engine.PhaseFinished {
		t.Errorf("after the abandon: %v, %v; want finished", v, err)
	}
}

// switchableAudit fails while fail is set, else writes to the store.
type switchableAudit struct {
	st   store.Store
	fail atomic.Bool
}

func (s *switchableAudit) WriteAudit(ctx context.Context, g string, es []audit.Entry) (int, error) {
	if s.fail.Load() {
		return 0, errors.New("injected audit failure")
	}
	return s.st.WriteAudit(ctx, g, es)
}

// TestAuditRepairedOnReplay (issue 10, item 3): an action whose audit
// write failed has its entries in its record; the next replay of the
// action finds them missing from the ring and writes them (counted and
// logged), and a later replay finds nothing missing. The entries carry the
// server's time (item 10).
func TestAuditRepairedOnReplay(t *testing.T) {
	mem := newOldStore()
	sw := &switchableAudit{st: mem}
	svc := newService(mem, func(c *service.Config) { c.Audit = sw })
	ctx := context.Background()
	sw.fail.Store(true)
	started(t, svc, "g", true) // start draws: its audit write fails
	if st := svc.Stats(); st.AuditFailures != 1 {
		t.Fatalf("stats %+v; want one audit failure (the start)", st)
	}
	if ring, _ := mem.Audit(ctx, "g"); len(ring) != 0 {
		t.Fatalf("ring has %d entries after the failed write", len(ring))
	}
	sw.fail.Store(false)
	start := engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s"}
	r, err := svc.Do(ctx, "g", start)
	if err != nil || !r.Replayed {
		t.Fatalf("replay of start: %+v, %v", r, err)
	}
	ring, err := mem.Audit(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := svc.View(ctx, "p1", "g", 0)
	if len(ring) == 0 || uint64(len(ring)) != v.Public.RNG.Seq || ring[len(ring)-1].Seq != v.Public.RNG.Seq {
		t.Fatalf("ring after the repair: %d entries; want seqs 1..%d", len(ring), v.Public.RNG.Seq)
	}
	for _, e := range ring {
		if e.TS != testNow.UnixMilli() {
			t.Fatalf("entry %d has ts %d; want the server's %d", e.Seq, e.TS, testNow.UnixMilli())
		}
	}
	if st := svc.Stats(); st.AuditRepairs != 1 {
		t.Errorf("stats %+v; want one repair", st)
	}
	if _, err := svc.Do(ctx, "g", start); err != nil {
		t.Fatal(err)
	}
	if st := svc.Stats(); st.AuditRepairs != 1 || st.AuditFailures != 1 {
		t.Errorf("a replay with nothing missing changed the counters: %+v", st)
	}
}

// TestGameWithoutModeIsCrypto (issue 10, item 10): a stored game without
// rng.mode (written before the mode was stored) is a crypto game: it can
// be played, and the next action stores the mode.
func TestGameWithoutModeIsCrypto(t *testing.T) {
	mem := store.NewMemory()
	svc := newService(mem, nil)
	ctx := context.Background()
	for _, a := range []engine.Action{
		{Kind: engine.ActCreate, Actor: "p1", ID: "c"},
		{Kind: engine.ActJoin, Actor: "p1", ID: "j", Seat: 0, Class: engine.ClassWarrior},
		{Kind: engine.ActJoin, Actor: "p2", ID: "j", Seat: 1, Class: engine.ClassMonk},
	} {
		if _, err := svc.Do(ctx, "old", a); err != nil {
			t.Fatal(err)
		}
	}
	// Make it an old game: no mode.
	if _, err := mem.Apply(ctx, store.Request{GameID: "old", Actor: "migration"}, func(g *engine.Game, _ []engine.Action) (store.Outcome, error) {
		g.Public.RNG.Mode = ""
		return store.Outcome{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if v, err := svc.View(ctx, "p1", "old", 0); err != nil || v.Public.RNG.Mode != rng.ModeCrypto {
		t.Fatalf("view of the old game: mode %q, %v; want crypto", v.Public.RNG.Mode, err)
	}
	if _, err := svc.Do(ctx, "old", engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s"}); err != nil {
		t.Fatalf("start of a game without rng.mode: %v", err)
	}
	p, err := mem.Game(ctx, "old")
	if err != nil || p.RNG.Mode != rng.ModeCrypto || p.Phase != engine.PhasePlaying || p.RNG.Seq == 0 {
		t.Fatalf("after start: %+v, %v; want a crypto game that drew", p.RNG, err)
	}
}
