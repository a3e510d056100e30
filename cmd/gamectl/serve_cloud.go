//go:build cloud

package main

import (
	"context"
	"fmt"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/functions/deploy"
	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/store/fsstore"
)

// cloudBuilt: this gamectl can serve on Firestore and verify Firebase ID
// tokens (built with -tags cloud).
const cloudBuilt = true

// errNoCloud is never used in a cloud build.
var errNoCloud error

// openFirestore opens the project's Firestore (the emulator when
// FIRESTORE_EMULATOR_HOST is set).
func openFirestore(ctx context.Context, project string) (store.Store, error) {
	fc, err := firestore.NewClient(ctx, project)
	if err != nil {
		return nil, fmt.Errorf("firestore: %w", err)
	}
	return fsstore.New(fc, fsstore.WithCloseClient()), nil
}

// cloudVerifier verifies Firebase ID tokens with the Admin SDK (the Auth
// emulator's when FIREBASE_AUTH_EMULATOR_HOST is set), refusing disabled
// accounts and revoked sessions as a deployment does.
func cloudVerifier(ctx context.Context, project string) (callable.TokenVerifier, error) {
	return deploy.AdminVerifier(ctx, project, deploy.CheckRevoked(deploy.DefaultRevocationTTL))
}
