package functions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	firebase "firebase.google.com/go/v4"
	"firebase.google.com/go/v4/auth"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/store"
)

// AdminVerifier returns the Firebase Admin SDK's auth client for the
// project, which verifies ID tokens against Google's keys, or, when
// FIREBASE_AUTH_EMULATOR_HOST is set, the Auth emulator's unsigned tokens
// (the SDK reads that variable). It fails if the SDK cannot be
// initialized.
func AdminVerifier(ctx context.Context, projectID string) (*auth.Client, error) {
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("functions: firebase app: %w", err)
	}
	c, err := app.Auth(ctx)
	if err != nil {
		return nil, fmt.Errorf("functions: firebase auth: %w", err)
	}
	return c, nil
}

// InsecureDevVerifier accepts "dev:<uid>" as the ID token of uid, with no
// proof at all. It is for the embedded development server only (gamectl
// serve --insecure-dev-auth on the in-memory store); anything deployed
// must use AdminVerifier.
type InsecureDevVerifier struct{}

var _ callable.TokenVerifier = InsecureDevVerifier{}

// VerifyIDToken implements callable.TokenVerifier: "dev:alice" is uid
// "alice"; the uid must be 1-128 of [A-Za-z0-9_-].
func (InsecureDevVerifier) VerifyIDToken(_ context.Context, tok string) (*auth.Token, error) {
	uid, ok := strings.CutPrefix(tok, "dev:")
	if !ok || !store.ValidID(uid) {
		return nil, errors.New("functions: dev token must be dev:<uid>")
	}
	return &auth.Token{UID: uid, Subject: uid}, nil
}
