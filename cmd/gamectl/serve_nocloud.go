//go:build !cloud

package main

import (
	"context"
	"errors"
	"io"

	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/names"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/registry/server"
	"github.com/fairboard/fairboard/tablestore"
)

// cloudBuilt: this gamectl was built without Firestore and the Firebase
// Admin SDK. They (and gRPC under them) are most of a first build's time,
// and only serve on Firestore or with real tokens needs them.
const cloudBuilt = false

// errNoCloud says how to get a gamectl that serves on Firestore.
var errNoCloud = errors.New("this gamectl was built without Firestore and Firebase Auth; " +
	"to serve on Firestore, the emulators or a project, build it with the cloud tag: " +
	"go run -tags cloud ./cmd/gamectl serve ... (or go build -tags cloud ./cmd/gamectl)")

func openFirestore(context.Context, string, server.Config) (*server.Server, tablestore.Store, names.Store, lobby.Store, error) {
	return nil, nil, nil, nil, errNoCloud
}

func cloudVerifier(context.Context, string) (callable.TokenVerifier, error) { return nil, errNoCloud }

// startEmulators is refused: the emulators' clients are in the cloud build.
func (c *serveConfig) startEmulators(context.Context, io.Writer) (func(), error) {
	return nil, c.checkEmulatorFlags()
}
