package integration

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/lobby/fslobby"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/fstables"
)

// newTableEnv is a server as deploy builds it: the dungeon's
// store and the tables of the registry on the emulator's Firestore, ID
// tokens from the Auth emulator.
func newTableEnv(t *testing.T) *functest.Client {
	t.Helper()
	return newTableEnvWith(t, nil)
}

// newTableEnvWith is newTableEnv with the table store wrapped by wrap
// (nil: as it is).
func newTableEnvWith(t *testing.T, wrap func(*firestore.Client, tablestore.Store) tablestore.Store) *functest.Client {
	t.Helper()
	emu.Require(t)
	fc := emu.Client(t)
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	require.NoError(t, err)
	svc := service.New(service.Config{Store: fsstore.New(fc), Engine: eng, AllowSeeded: true, Logger: quiet(),
		Now: func() time.Time { return fixedNow }})
	var ts tablestore.Store = fstables.New(fc, registry.Lookup)
	if wrap != nil {
		ts = wrap(fc, ts)
	}
	api := functions.New(dungeonfn.New(svc), v, quiet()).WithTables(ts).OneIDSpace().WithLobby(fslobby.New(fc))
	srv := httptest.NewServer(api.Mux())
	t.Cleanup(srv.Close)
	return &functest.Client{Base: srv.URL}
}

// A whole seeded Pig game through the functions on Firestore ends as
// match.New and Apply end on the same seed and moves; a retried act gets
// its first answer, a stale one is refused.
func TestTablePigOnFirestore(t *testing.T) {
	pigDef, err := registry.Lookup("pig") // the registry, not the game: the machinery's tests reach games through it
	require.NoError(t, err)
	c := newTableEnv(t)
	ctx := context.Background()
	toks := []string{token(t, "pig-a"), token(t, "pig-b")}
	g, seed := runID("fs-pig"), "integration-pig" // a fresh id each run: the emulator outlives a -count

	require.NoError(t, functest.TableLobby(ctx, c, pigDef, g, seed, toks))

	// One move by hand first: its retry, its stale twin.
	v, err := functest.TableView(ctx, c, g, toks[0])
	require.NoError(t, err)
	tok := toks[v.ToMove]
	roll := map[string]any{"gameId": g, "actionId": "first", "version": v.Version, "move": map[string]any{"kind": "roll"}}
	var r1, r2 functions.TableResult
	require.NoError(t, c.Call(ctx, "act", tok, roll, &r1))
	require.NoError(t, c.Call(ctx, "act", tok, roll, &r2))
	require.False(t, r1.Replayed)
	require.True(t, r2.Replayed)
	r2.Replayed = false
	require.Equal(t, r1, r2)
	stale := map[string]any{"gameId": g, "actionId": "second", "version": v.Version, "move": map[string]any{"kind": "roll"}}
	err = c.Call(ctx, "act", tok, stale, nil)
	require.Equal(t, "FAILED_PRECONDITION", functest.Status(err), "%v", err)
	first := game.Move{Seat: v.Seat, Kind: "roll"}

	bots, err := rng.NewSeeded(seed + "/bots")
	require.NoError(t, err)
	moves, end, err := functest.PlayTable(ctx, c, pigDef, g, toks, bots, 2000)
	require.NoError(t, err)
	moves = append([]game.Move{first}, moves...)

	require.NoError(t, functest.EndsAsMatch(pigDef, seed, 2, moves, end))
	require.Equal(t, uint64(1+2+1+len(moves)), end.Version)
	require.NoError(t, functest.CheckTableExport(ctx, c, pigDef, g, toks, token(t, "pig-stranger")))
}

// The documents the functions write for a table fit the rules: a seated
// player's client reads games/{id} and its log, another signed-in user
// neither, and nobody the private table (positive control: under rules
// opened at private/ the same read succeeds). The dungeon's and the
// tables' game ids are one space: a create of either kind on the other's
// id is already_created.
func TestTableDocumentsUnderTheRules(t *testing.T) {
	c := newTableEnv(t)
	ctx := context.Background()
	seated, outsider := token(t, "rules-seated"), token(t, "rules-outsider")
	g := runID("fs-table-rules")
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "createGame", seated, map[string]any{"game": "pig", "gameId": g, "actionId": "c"}, &r))
	require.NoError(t, c.Call(ctx, "joinGame", seated, map[string]any{"gameId": g, "actionId": "j", "version": r.Version, "seat": 0}, &r))

	read := func(url, tok string) int {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	docs := emu.Firestore().DocumentsURL() + "/games/" + g
	logDoc := fmt.Sprintf("%s/log/%020d", docs, r.Version) // the join's events end at seq 2 = version 2
	require.Equal(t, http.StatusOK, read(docs, seated))
	require.Equal(t, http.StatusOK, read(logDoc, seated))
	require.Equal(t, http.StatusForbidden, read(docs, outsider))
	require.Equal(t, http.StatusForbidden, read(logDoc, outsider))
	require.Equal(t, http.StatusForbidden, read(docs+"/private/table", seated))
	require.Equal(t, http.StatusForbidden, read(docs+"/private/table", outsider))
	weak := emu.Weakened(t, []string{"/private/{doc}"}, "games/"+g+"/private/table")
	require.Equal(t, http.StatusOK, read(weak.DocumentsURL()+"/games/"+g+"/private/table", seated))

	err := c.Call(ctx, "createGame", outsider, map[string]any{"gameId": g, "actionId": "d", "mode": "crypto"}, nil)
	require.Equal(t, "ALREADY_EXISTS", functest.Status(err), "%v", err)
	require.NoError(t, c.Call(ctx, "createGame", outsider, map[string]any{"gameId": g + "-d", "actionId": "d"}, nil))
	err = c.Call(ctx, "createGame", seated, map[string]any{"game": "pig", "gameId": g + "-d", "actionId": "p"}, nil)
	require.Equal(t, "ALREADY_EXISTS", functest.Status(err), "%v", err)
	err = c.Call(ctx, "createGame", seated, map[string]any{"game": "chess", "gameId": g + "-x", "actionId": "p"}, nil)
	require.Equal(t, "INVALID_ARGUMENT", functest.Status(err))
	require.True(t, strings.Contains(err.Error(), "pig, dungeon"), "%v", err)
}

// A fair table keeps its server seed and its players' entropy on
// Firestore between calls: its commitment is the same on every read, and
// after the owner abandons it mid-game the revealed seed opens it.
func TestFairTableOnFirestore(t *testing.T) {
	c := newTableEnv(t)
	ctx := context.Background()
	toks := []string{token(t, "fair-a"), token(t, "fair-b")}
	g := runID("fs-fair")
	var r functions.TableResult
	require.NoError(t, c.Call(ctx, "createGame", toks[0], map[string]any{"game": "pig", "gameId": g, "actionId": "c", "mode": "fair"}, &r))
	v, err := functest.TableView(ctx, c, g, toks[0])
	require.NoError(t, err)
	commit := v.Fairness.CommitmentHex
	for i, tok := range toks {
		require.NoError(t, c.Call(ctx, "joinGame", tok, map[string]any{"game": "pig", "gameId": g, "actionId": "j",
			"version": r.Version, "seat": i, "entropy": fmt.Sprintf("%02x", i+1)}, &r))
	}
	require.NoError(t, c.Call(ctx, "startGame", toks[0], map[string]any{"gameId": g, "actionId": "s", "version": r.Version}, &r))
	v, err = functest.TableView(ctx, c, g, toks[1])
	require.NoError(t, err)
	require.Equal(t, commit, v.Fairness.CommitmentHex)
	require.Empty(t, v.Fairness.ServerSeedHex)
	require.NoError(t, c.Call(ctx, "act", toks[0], map[string]any{"gameId": g, "actionId": "end", "version": r.Version, "kind": "abandon"}, &r))
	v, err = functest.TableView(ctx, c, g, toks[1])
	require.NoError(t, err)
	require.Equal(t, commit, v.Fairness.CommitmentHex)
	require.Equal(t, []string{"01", "02"}, v.Fairness.ContributionsHex)
	want, err := match.CommitmentHex(v.Fairness.ServerSeedHex)
	require.NoError(t, err)
	require.Equal(t, commit, want)
	gs, err := match.GameSeedHex(v.Fairness.ServerSeedHex, v.Fairness.ContributionsHex)
	require.NoError(t, err)
	require.Equal(t, gs, v.Fairness.GameSeedHex)
}
