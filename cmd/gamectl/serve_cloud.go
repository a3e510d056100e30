//go:build cloud

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/registry/server"
	"github.com/fairboard/fairboard/games/registry/server/fsserver"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/lobby/fslobby"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/names/fsnames"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/fstables"
)

// cloudBuilt: this gamectl can serve on Firestore and verify Firebase ID
// tokens (built with -tags cloud).
const cloudBuilt = true

// errNoCloud is never used in a cloud build.
var errNoCloud error

// openFirestore opens the project's Firestore (the emulator when
// FIRESTORE_EMULATOR_HOST is set): the dungeon's server with cfg
// (fsserver.Open: its store closes the client when closed and reads
// actions with the field mask) and the store of the registry's other
// games' tables on the same client.
func openFirestore(ctx context.Context, project string, cfg server.Config) (*server.Server, tablestore.Store, names.Store, lobby.Store, error) {
	fc, err := firestore.NewClient(ctx, project)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("firestore: %w", err)
	}
	dungeon, err := fsserver.Open(ctx, fc, false, cfg)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	return dungeon, fstables.New(fc, lookupGame), fsnames.New(fc), fslobby.New(fc), nil
}

// cloudVerifier verifies Firebase ID tokens with the Admin SDK (the Auth
// emulator's when FIREBASE_AUTH_EMULATOR_HOST is set), refusing disabled
// accounts and revoked sessions as a deployment does.
func cloudVerifier(ctx context.Context, project string) (callable.TokenVerifier, error) {
	return deploy.AdminVerifier(ctx, project, deploy.CheckRevoked(deploy.DefaultRevocationTTL))
}

// startEmulators starts the Firestore emulator (with the repository's
// firestore.rules) and the Auth emulator side by side on free ports, for
// project demo-fairboard, and points serve (and the Admin SDK, which reads
// only the environment) at them. The returned function stops both; the
// emulators' watchdogs also stop them if gamectl dies.
func (c *serveConfig) startEmulators(ctx context.Context, stderr io.Writer) (func(), error) {
	if err := c.checkEmulatorFlags(); err != nil {
		return nil, err
	}
	if err := emulator.CheckTools(true, true); err != nil {
		return nil, usagef("--emulators: %v (run from the repository, after npm ci)", err)
	}
	c.project = emulatorProject
	fmt.Fprintln(stderr, "gamectl serve: starting the Firestore and Auth emulators (about 10 s, longer on a busy machine)...")
	var fs *emulator.Firestore
	var auth *emulator.Auth
	var fsErr, authErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		fs, fsErr = emulator.StartFirestore(ctx, emulator.FirestoreOptions{ProjectID: c.project, Rules: "firestore.rules"})
	})
	wg.Go(func() { auth, authErr = emulator.StartAuth(ctx, emulator.AuthOptions{ProjectID: c.project}) })
	wg.Wait()
	stop := func() {
		if fs != nil {
			fs.Stop()
		}
		if auth != nil {
			auth.Stop()
		}
	}
	if fsErr != nil || authErr != nil {
		stop()
		if fsErr != nil {
			return nil, fmt.Errorf("the Firestore emulator did not start: %w", fsErr)
		}
		return nil, fmt.Errorf("the Auth emulator did not start: %w", authErr)
	}
	env := map[string]string{"FIRESTORE_EMULATOR_HOST": fs.Host, "FIREBASE_AUTH_EMULATOR_HOST": auth.Host, "GOOGLE_CLOUD_PROJECT": c.project}
	old := map[string]*string{}
	for k, v := range env {
		if o, ok := os.LookupEnv(k); ok {
			old[k] = &o
		} else {
			old[k] = nil
		}
		os.Setenv(k, v)
	}
	fmt.Fprintln(stderr, emulatorsReady(fs.Host, auth.Host))
	return func() {
		stop()
		for k, o := range old { // the environment as it was, for whatever runs next in this process
			if o == nil {
				os.Unsetenv(k)
			} else {
				os.Setenv(k, *o)
			}
		}
	}, nil
}
