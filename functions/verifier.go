package functions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/table"
)

// InsecureDevVerifier accepts "dev:<uid>" as the ID token of uid, with no
// proof at all. It is for the embedded development server only (gamectl
// serve --insecure-dev-auth on the in-memory store); anything deployed
// must use deploy.AdminVerifier.
type InsecureDevVerifier struct{}

var _ callable.TokenVerifier = InsecureDevVerifier{}

// VerifyIDToken implements callable.TokenVerifier: "dev:alice" is uid
// "alice"; the uid must be 1-128 of [A-Za-z0-9_-].
func (InsecureDevVerifier) VerifyIDToken(_ context.Context, tok string) (*callable.Token, error) {
	uid, ok := strings.CutPrefix(tok, "dev:")
	if !ok || !validUID(uid) {
		return nil, errors.New("functions: dev token must be dev:<uid>")
	}
	return &callable.Token{UID: uid}, nil
}

// validUID reports whether uid is a dev token's: 1-128 of
// [A-Za-z0-9_-], and not __NAME__ (a name Firestore keeps for itself).
func validUID(uid string) bool {
	return table.ValidID(uid) && !(len(uid) >= 4 && uid[:2] == "__" && uid[len(uid)-2:] == "__")
}

// EnvAuthEmulator is the variable that points the Firebase Admin SDK at
// the Auth emulator.
const EnvAuthEmulator = "FIREBASE_AUTH_EMULATOR_HOST"

// CheckAuthEmulator refuses an Auth emulator (authEmulatorHost, the value
// of FIREBASE_AUTH_EMULATOR_HOST) beside a project that is not a demo-
// project. The emulator issues unsigned tokens and the Admin SDK accepts
// them once the variable is set, so a server with a real project and that
// variable would let anyone act as anyone. Emulators get a demo-* project
// id (which never reaches real services).
func CheckAuthEmulator(project, authEmulatorHost string) error {
	if authEmulatorHost == "" || strings.HasPrefix(project, "demo-") {
		return nil
	}
	return fmt.Errorf("%s=%s is set beside project %q, which is not a demo- project: "+
		"the Auth emulator's tokens are unsigned, so anyone could act as anyone; "+
		"unset %s for a real project, or use a demo-* project id with the emulators",
		EnvAuthEmulator, authEmulatorHost, project, EnvAuthEmulator)
}
