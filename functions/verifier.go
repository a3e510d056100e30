package functions

import (
	"context"
	"errors"
	"strings"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/store"
)

// InsecureDevVerifier accepts "dev:<uid>" as the ID token of uid, with no
// proof at all. It is for the embedded development server only (gamectl
// serve --insecure-dev-auth on the in-memory store); anything deployed
// must use functions/deploy.AdminVerifier.
type InsecureDevVerifier struct{}

var _ callable.TokenVerifier = InsecureDevVerifier{}

// VerifyIDToken implements callable.TokenVerifier: "dev:alice" is uid
// "alice"; the uid must be 1-128 of [A-Za-z0-9_-].
func (InsecureDevVerifier) VerifyIDToken(_ context.Context, tok string) (*callable.Token, error) {
	uid, ok := strings.CutPrefix(tok, "dev:")
	if !ok || !store.ValidID(uid) {
		return nil, errors.New("functions: dev token must be dev:<uid>")
	}
	return &callable.Token{UID: uid}, nil
}
