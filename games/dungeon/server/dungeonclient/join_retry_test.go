package dungeonclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
)

// TestJoinGivesUpOnStaleVersions: a join refused as stale (another join
// came first) is made again against the version read anew, 20 times at
// most: a server that always answers stale gets 21 joins, each against
// the version it then showed, and the client returns the refusal. (The
// server below stops answering stale after 50, so that a client that
// would go on for ever ends too.)
func TestJoinGivesUpOnStaleVersions(t *testing.T) {
	var mu sync.Mutex
	joins, views := 0, 0
	var versions []uint64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		var body struct {
			Data struct {
				Version uint64 `json:"version"`
			} `json:"data"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			t.Errorf("%s: %v", r.URL.Path, err) // not require: this is the server's goroutine
		}
		w.Header().Set("Content-Type", "application/json")
		var out any
		switch strings.TrimPrefix(r.URL.Path, "/") {
		case "getView":
			views++
			pub := engine.Public{GameID: "g", Version: uint64(views), Trustless: &engine.Trustless{ChainLength: uint32(engine.DefaultRules().MaxRandomActions())}}
			out = map[string]any{"result": dungeonclient.View{State: pub, Events: []engine.Event{}}}
		case "joinGame":
			joins++
			versions = append(versions, body.Data.Version)
			code := string(engine.CodeStaleVersion)
			if joins > 50 {
				code = "enough"
			}
			out = map[string]any{"error": map[string]any{"status": "FAILED_PRECONDITION", "message": "refused", "details": map[string]any{"code": code}}}
		default:
			t.Errorf("unexpected call %s", r.URL.Path)
		}
		if err := json.NewEncoder(w).Encode(out); err != nil {
			t.Errorf("%s: %v", r.URL.Path, err)
		}
	}))
	defer srv.Close()
	f := &client.Functions{Base: srv.URL, Token: func(context.Context) (string, error) { return "t", nil }}
	cfg := dungeonclient.Config{Functions: f, UID: "p1", GameID: "g", SecretsFile: filepath.Join(t.TempDir(), "p1.json")}
	_, err := dungeonclient.Join(context.Background(), cfg, 0, engine.ClassMonk, false)
	var ce *client.CallError
	require.True(t, errors.As(err, &ce), "%v", err)
	require.Equal(t, string(engine.CodeStaleVersion), ce.Code)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, 21, joins, "the first join and 20 more")
	require.Equal(t, 21, views, "each against a version read anew")
	for i, v := range versions {
		require.Equal(t, uint64(i+1), v, "join %d", i)
	}
}

// TestJoinStaleThenNoView: when the game cannot be read again after a
// stale join, Join returns that failure (no client, no join sent).
func TestJoinStaleThenNoView(t *testing.T) {
	var mu sync.Mutex
	joins, views := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		var out any
		switch strings.TrimPrefix(r.URL.Path, "/") {
		case "getView":
			views++
			pub := engine.Public{GameID: "g", Version: 1, Trustless: &engine.Trustless{ChainLength: uint32(engine.DefaultRules().MaxRandomActions())}}
			out = map[string]any{"result": dungeonclient.View{State: pub, Events: []engine.Event{}}}
			if views > 1 {
				out = map[string]any{"error": map[string]any{"status": "NOT_FOUND", "message": "no such game"}}
			}
		case "joinGame":
			joins++
			out = map[string]any{"error": map[string]any{"status": "FAILED_PRECONDITION", "message": "stale", "details": map[string]any{"code": string(engine.CodeStaleVersion)}}}
		}
		if err := json.NewEncoder(w).Encode(out); err != nil {
			t.Errorf("%s: %v", r.URL.Path, err)
		}
	}))
	defer srv.Close()
	f := &client.Functions{Base: srv.URL, Token: func(context.Context) (string, error) { return "t", nil }}
	cfg := dungeonclient.Config{Functions: f, UID: "p1", GameID: "g", SecretsFile: filepath.Join(t.TempDir(), "p1.json")}
	c, err := dungeonclient.Join(context.Background(), cfg, 0, engine.ClassMonk, false)
	require.Nil(t, c)
	var ce *client.CallError
	require.True(t, errors.As(err, &ce), "%v", err)
	require.Equal(t, "getView", ce.Function)
	require.Equal(t, "NOT_FOUND", ce.Status)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, 1, joins)
}
