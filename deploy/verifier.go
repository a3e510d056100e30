package deploy

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"sync"
	"time"

	firebase "firebase.google.com/go/v4"
	"firebase.google.com/go/v4/auth"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
)

// DefaultRevocationTTL is how long a deployment trusts a token that passed
// the revocation check before it looks the account up again: a disabled
// account or a revoked session is refused at most this long after the
// change, instead of at the token's expiry (up to an hour), for one Auth
// lookup per token per minute instead of one per call (docs/functions.md
// has the measured cost).
const DefaultRevocationTTL = time.Minute

// VerifierOption configures AdminVerifier.
type VerifierOption func(*adminVerifier)

// CheckRevoked makes the verifier refuse, besides forged and expired
// tokens, the tokens of disabled accounts and revoked sessions: the Admin
// SDK's VerifyIDTokenAndCheckRevoked, which looks the account up (one
// call to Firebase Auth). A token that passed is trusted for ttl without a
// new lookup (never past its expiry); ttl 0 looks up on every call.
func CheckRevoked(ttl time.Duration) VerifierOption {
	return func(v *adminVerifier) { v.checkRevoked, v.ttl = true, max(0, ttl) }
}

// AdminVerifier returns a callable.TokenVerifier backed by the Firebase
// Admin SDK's auth client for the project: it verifies ID tokens against
// Google's keys or, when FIREBASE_AUTH_EMULATOR_HOST is set, the Auth
// emulator's unsigned tokens (the SDK reads that variable). It refuses to
// start when that variable is set beside a project that is not a demo-
// project (functions.CheckAuthEmulator), and fails if the SDK cannot be
// initialized.
func AdminVerifier(ctx context.Context, projectID string, opts ...VerifierOption) (callable.TokenVerifier, error) {
	if err := functions.CheckAuthEmulator(projectID, os.Getenv(functions.EnvAuthEmulator)); err != nil {
		return nil, fmt.Errorf("deploy: %w", err)
	}
	app, err := firebase.NewApp(ctx, &firebase.Config{ProjectID: projectID})
	if err != nil {
		return nil, fmt.Errorf("deploy: firebase app: %w", err)
	}
	c, err := app.Auth(ctx)
	if err != nil {
		return nil, fmt.Errorf("deploy: firebase auth: %w", err)
	}
	v := &adminVerifier{c: c, now: time.Now}
	for _, o := range opts {
		o(v)
	}
	return v, nil
}

// tokenChecker is what adminVerifier uses of the Admin SDK's *auth.Client.
type tokenChecker interface {
	VerifyIDToken(ctx context.Context, idToken string) (*auth.Token, error)
	VerifyIDTokenAndCheckRevoked(ctx context.Context, idToken string) (*auth.Token, error)
}

// adminVerifier adapts the Admin SDK's *auth.Client to callable.TokenVerifier.
type adminVerifier struct {
	c            tokenChecker
	checkRevoked bool
	ttl          time.Duration
	now          func() time.Time

	mu     sync.Mutex
	passed map[[32]byte]time.Time // SHA-256 of a token -> trusted until
}

// maxPassed bounds the cache of checked tokens; past it, expired entries
// go, and if that is not enough, all of them.
const maxPassed = 100_000

// VerifyIDToken implements callable.TokenVerifier.
func (v *adminVerifier) VerifyIDToken(ctx context.Context, idToken string) (*callable.Token, error) {
	if !v.checkRevoked {
		t, err := v.c.VerifyIDToken(ctx, idToken)
		if err != nil {
			return nil, err
		}
		return &callable.Token{UID: t.UID, Claims: t.Claims}, nil
	}
	key := sha256.Sum256([]byte(idToken))
	now := v.now()
	if v.ttl > 0 {
		v.mu.Lock()
		until, ok := v.passed[key]
		v.mu.Unlock()
		if ok && now.Before(until) {
			// Checked recently: the signature and expiry are still
			// checked (locally, no lookup).
			t, err := v.c.VerifyIDToken(ctx, idToken)
			if err != nil {
				return nil, err
			}
			return &callable.Token{UID: t.UID, Claims: t.Claims}, nil
		}
	}
	t, err := v.c.VerifyIDTokenAndCheckRevoked(ctx, idToken)
	if err != nil {
		return nil, err
	}
	if v.ttl > 0 {
		until := min(now.Add(v.ttl).UnixNano(), time.Unix(t.Expires, 0).UnixNano())
		v.remember(key, now, time.Unix(0, until))
	}
	return &callable.Token{UID: t.UID, Claims: t.Claims}, nil
}

// remember trusts the token key until then.
func (v *adminVerifier) remember(key [32]byte, now, until time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.passed == nil {
		v.passed = map[[32]byte]time.Time{}
	}
	if len(v.passed) >= maxPassed {
		for k, u := range v.passed {
			if !now.Before(u) {
				delete(v.passed, k)
			}
		}
		if len(v.passed) >= maxPassed {
			clear(v.passed)
		}
	}
	v.passed[key] = until
}
