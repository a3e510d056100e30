package functions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	firebase "firebase.google.com/go/v4"
	"firebase.google.com/go/v4/auth"

	"github.com/fairboard/fairboard/store"
)

// AdminVerifier verifies ID tokens with the Firebase Admin SDK: against
// Google's keys for the project, or, when FIREBASE_AUTH_EMULATOR_HOST is
// set, the Auth emulator's unsigned tokens (the SDK reads that variable).
type AdminVerifier struct{ c *auth.Client }

// NewAdminVerifier returns a verifier for the project's tokens. It fails
// if the Admin SDK cannot be initialized.
func NewAdminVerifier(ctx context.Context, projectID string) (*AdminVerifier, error) {
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("functions: firebase app: %w", err)
	}
	c, err := app.Auth(ctx)
	if err != nil {
		return nil, fmt.Errorf("functions: firebase auth: %w", err)
	}
	return &AdminVerifier{c: c}, nil
}

// Verify implements Verifier.
func (v *AdminVerifier) Verify(ctx context.Context, idToken string) (string, error) {
	t, err := v.c.VerifyIDToken(ctx, idToken)
	if err != nil {
		return "", err
	}
	return t.UID, nil
}

// InsecureDevVerifier accepts "dev:<uid>" as the ID token of uid, with no
// proof at all. It is for the embedded development server only (gamectl
// serve --insecure-dev-auth on the in-memory store); anything deployed
// must use AdminVerifier.
type InsecureDevVerifier struct{}

// Verify implements Verifier: "dev:alice" is uid "alice"; the uid must be
// a valid id (1-128 of [A-Za-z0-9_-]).
func (InsecureDevVerifier) Verify(_ context.Context, tok string) (string, error) {
	uid, ok := strings.CutPrefix(tok, "dev:")
	if !ok || !store.ValidID(uid) {
		return "", errors.New("functions: dev token must be dev:<uid>")
	}
	return uid, nil
}
