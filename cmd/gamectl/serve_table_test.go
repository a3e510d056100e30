package main

import (
	"context"
	"testing"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/rng"
)

// serve wires the registry's games: a Pig table is created, played to its
// end and viewed through the local server.
func TestServePlaysPig(t *testing.T) {
	clearServeEnv(t)
	base, stop := startServe(t, "--insecure-dev-auth", "--allow-seeded")
	c := &functest.Client{Base: base}
	ctx := context.Background()
	toks := []string{"dev:alice", "dev:bob"}
	if err := functest.TableLobby(ctx, c, mustGame(t, "pig"), "pig-demo", "demo-seed", toks); err != nil {
		t.Fatal(err)
	}
	bots, err := rng.NewSeeded("serve-bots")
	if err != nil {
		t.Fatal(err)
	}
	_, end, err := functest.PlayTable(ctx, c, mustGame(t, "pig"), "pig-demo", toks, bots, 2000)
	if err != nil {
		t.Fatal(err)
	}
	if end.Game != "pig" || end.Phase != "finished" || end.Outcome == nil || len(end.Outcome.Winners) != 1 {
		t.Errorf("final view %+v", end)
	}
	err = c.Call(ctx, "createGame", "dev:alice", map[string]any{"game": "chess", "gameId": "x", "actionId": "c"}, nil)
	if functest.Status(err) != "INVALID_ARGUMENT" {
		t.Errorf("an unknown game: %v", err)
	}
	if err := stop(); err != nil {
		t.Errorf("serve returned %v after its context ended", err)
	}
}
