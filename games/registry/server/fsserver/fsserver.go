// Package fsserver opens the dungeon's server (games/registry/server) on
// Firestore, for the deployment (deploy) and gamectl serve
// --project (its cloud build). It is apart from package server so that a
// gamectl built without Firestore links neither its client nor gRPC.
package fsserver

import (
	"context"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/registry/server"
)

// Open returns the dungeon's server on the Firestore client c: its store
// (fsstore) reads the actions with their field mask (fsstore.NewRPC,
// fsstore.WithRPC) and closes c when the server is closed.
// previousLayout makes the store write what the previous release wrote
// (fsstore.WithPreviousLayout), for the first step of a rolling deploy
// (docs/store.md). Its error is fsstore.NewRPC's, and c is closed then.
func Open(ctx context.Context, c *firestore.Client, previousLayout bool, cfg server.Config) (*server.Server, error) {
	rc, err := fsstore.NewRPC(ctx)
	if err != nil {
		c.Close()
		return nil, err
	}
	var opts []fsstore.Option
	if previousLayout {
		opts = append(opts, fsstore.WithPreviousLayout())
	}
	return server.On(fsstore.New(c, append(opts, fsstore.WithRPC(rc), fsstore.WithCloseClient())...), cfg), nil
}
