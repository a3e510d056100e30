package deploy

import (
	"context"
	"fmt"

	firebase "firebase.google.com/go/v4"
	"firebase.google.com/go/v4/auth"

	"github.com/fairboard/fairboard/functions/callable"
)

// AdminVerifier returns a callable.TokenVerifier backed by the Firebase
// Admin SDK's auth client for the project: it verifies ID tokens against
// Google's keys or, when FIREBASE_AUTH_EMULATOR_HOST is set, the Auth
// emulator's unsigned tokens (the SDK reads that variable). It fails if
// the SDK cannot be initialized.
func AdminVerifier(ctx context.Context, projectID string) (callable.TokenVerifier, error) {
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("deploy: firebase app: %w", err)
	}
	c, err := app.Auth(ctx)
	if err != nil {
		return nil, fmt.Errorf("deploy: firebase auth: %w", err)
	}
	return adminVerifier{c}, nil
}

// adminVerifier adapts the Admin SDK's *auth.Client to callable.TokenVerifier.
type adminVerifier struct{ c *auth.Client }

// VerifyIDToken implements callable.TokenVerifier.
func (v adminVerifier) VerifyIDToken(ctx context.Context, idToken string) (*callable.Token, error) {
	t, err := v.c.VerifyIDToken(ctx, idToken)
	if err != nil {
		return nil, err
	}
	return &callable.Token{UID: t.UID, Claims: t.Claims}, nil
}
