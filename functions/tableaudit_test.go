package functions_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/tablestore"
)

// auditNow is the clock of the audit tests' servers (unix ms).
const auditNow = 1_760_000_123_000

// newAuditServer is a server with seeded games allowed, its tables in
// memory (returned, to read their rings as the server does) and its
// clock at auditNow; forceAudit is the deployment's FAIRBOARD_AUDIT=1.
func newAuditServer(t *testing.T, forceAudit bool) (*functest.Client, *tablestore.Memory) {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	now := func() time.Time { return time.UnixMilli(auditNow) }
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, AllowSeeded: true, ForceAudit: forceAudit, Logger: quiet, Now: now})
	tables := tablestore.NewMemory(registry.Lookup)
	api := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet).WithTables(tables).WithClock(now)
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}, tables
}

// auditPig plays a seeded Pig table g through c (createGame with the
// fields of more) and returns the audit entries a match of its own
// draws on the same seed and moves, each at auditNow.
func auditPig(t *testing.T, c *functest.Client, g string, more map[string]any) []audit.Entry {
	t.Helper()
	ctx := context.Background()
	tokens := []string{"dev:u0", "dev:u1"}
	seed := "functions-" + g
	require.NoError(t, functest.TableLobbyWith(ctx, c, pig.Def, g, seed, tokens, more))
	bots, err := rng.NewSeeded(seed + "/bots")
	require.NoError(t, err)
	moves, _, err := functest.PlayTable(ctx, c, pig.Def, g, tokens, bots, 2000)
	require.NoError(t, err)
	var want []audit.Entry
	m, err := match.New(pig.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2),
		Auditor: rng.AuditorFunc(func(e rng.Entry) { want = append(want, audit.Entry{Entry: e, TS: auditNow}) })})
	require.NoError(t, err)
	for _, mv := range moves {
		_, err := m.Apply(mv)
		require.NoError(t, err)
	}
	require.NotEmpty(t, want)
	return want[max(0, len(want)-audit.RingSize):]
}

// createGame's audit field keeps a table's ring as the dungeon's: its
// entries are a match's of its own on the same seed and moves, each at
// the server's time of its action; a table created without it keeps
// none; a rematch keeps its table's choice; under the deployment's FAIRBOARD_AUDIT=1 every table does. No
// getView answer holds an entry (positive control: the ring's own JSON
// does).
func TestTableAuditOverHTTP(t *testing.T) {
	ctx := context.Background()
	c, tables := newAuditServer(t, false)
	want := auditPig(t, c, "audit-on", map[string]any{"audit": true})
	ring, err := tables.Audit(ctx, "audit-on")
	require.NoError(t, err)
	require.Equal(t, want, ring)
	auditPig(t, c, "audit-off", nil)
	ring, err = tables.Audit(ctx, "audit-off")
	require.NoError(t, err)
	require.Empty(t, ring)
	for g, on := range map[string]bool{"audit-on": true, "audit-off": false} {
		require.NoError(t, c.Call(ctx, "rematch", "dev:u0", map[string]any{"gameId": g}, nil))
		v, _, err := tables.View(ctx, functions.RematchID(g), "")
		require.NoError(t, err)
		require.Equal(t, on, v.Audited, "%s's rematch carries its audit", g)
	}

	forced, ftables := newAuditServer(t, true)
	want = auditPig(t, forced, "audit-forced", nil)
	ring, err = ftables.Audit(ctx, "audit-forced")
	require.NoError(t, err)
	require.Equal(t, want, ring)

	b, err := json.Marshal(ring)
	require.NoError(t, err)
	require.Contains(t, string(b), string(pig.TagRoll), "positive control")
	for _, tok := range []string{"dev:u0", "dev:u1", "dev:stranger"} {
		v := raw(t, forced, "getView", tok, map[string]any{"gameId": "audit-forced"})
		require.NotContains(t, v, string(pig.TagRoll), "%s's getView", tok)
		require.NotContains(t, v, `"ctx"`, "%s's getView", tok)
	}
	require.False(t, strings.Contains(raw(t, forced, "exportGame", "dev:stranger", map[string]any{"gameId": "audit-forced"}), string(pig.TagRoll)))
}
