package deploy

import (
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	firebase "firebase.google.com/go/v4"
	"firebase.google.com/go/v4/auth"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/internal/emulator"
)

// adminAuth is the Admin SDK's auth client on the suite's Auth emulator.
func adminAuth(t testing.TB) *auth.Client {
	t.Helper()
	app, err := firebase.NewApp(context.Background(), &firebase.Config{ProjectID: emu.ProjectID()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := app.Auth(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAuthEmulatorBesideRealProjectRefused (issue 10, item 7): the Auth
// emulator's tokens are unsigned, so FIREBASE_AUTH_EMULATOR_HOST beside a
// project that is not a demo- project is refused at start, by the
// verifier and so by a deployment; with a demo- project it is fine.
func TestAuthEmulatorBesideRealProjectRefused(t *testing.T) {
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", "127.0.0.1:9099")
	ctx := context.Background()
	if _, err := AdminVerifier(ctx, "fairboard-prod"); err == nil || !strings.Contains(err.Error(), "not a demo- project") {
		t.Errorf("AdminVerifier(real project) with the Auth emulator = %v; want a refusal", err)
	}
	t.Setenv("GOOGLE_CLOUD_PROJECT", "fairboard-prod")
	if _, err := FromEnv(ctx); err == nil || !strings.Contains(err.Error(), "not a demo- project") {
		t.Errorf("FromEnv(real project) with the Auth emulator = %v; want a refusal", err)
	}
	if _, err := AdminVerifier(ctx, "demo-fairboard"); err != nil {
		t.Errorf("AdminVerifier(demo- project) with the Auth emulator: %v", err)
	}
	if err := functions.CheckAuthEmulator("fairboard-prod", ""); err != nil {
		t.Errorf("a real project without the emulator: %v", err)
	}
}

// TestRevokedAndDisabledAccounts (issue 10, item 7): with CheckRevoked, a
// disabled account's token and a revoked session's token are refused, by
// the real Auth emulator's account lookup; a cached check looks the
// account up again once its TTL has passed. (On the emulator the Admin
// SDK looks the account up even for a plain VerifyIDToken, so the plain
// verifier's and the cache's behaviour within the TTL are pinned by
// TestRevocationCache instead.)
func TestRevokedAndDisabledAccounts(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := context.Background()
	admin := adminAuth(t)
	checked, err := AdminVerifier(ctx, emu.ProjectID(), CheckRevoked(0))
	if err != nil {
		t.Fatal(err)
	}
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	cachedV, err := AdminVerifier(ctx, emu.ProjectID(), CheckRevoked(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	cachedV.(*adminVerifier).now = func() time.Time { return time.Unix(0, clock.Load()) }

	toks := map[string]string{}
	uids := map[string]string{}
	for _, name := range []string{"disabled", "revoked", "live"} {
		uid, tok, err := emu.Auth().SignUp(ctx, name+"@example.com", "secret-9")
		if err != nil {
			t.Fatal(err)
		}
		uids[name], toks[name] = uid, tok
		for _, v := range []callable.TokenVerifier{checked, cachedV} {
			if got, err := v.VerifyIDToken(ctx, tok); err != nil || got.UID != uid {
				t.Fatalf("a live account's token: %+v, %v", got, err)
			}
		}
	}
	if _, err := admin.UpdateUser(ctx, uids["disabled"], (&auth.UserToUpdate{}).Disabled(true)); err != nil {
		t.Fatal(err)
	}
	// Revocation compares the token's auth_time (seconds) with the time of
	// the revocation: wait until the second in which the tokens were made
	// has passed.
	for made := time.Now().Unix(); time.Now().Unix() <= made; {
		time.Sleep(10 * time.Millisecond)
	}
	if err := admin.RevokeRefreshTokens(ctx, uids["revoked"]); err != nil {
		t.Fatal(err)
	}
	clock.Add(int64(time.Minute + time.Second))
	for _, name := range []string{"disabled", "revoked"} {
		for vname, v := range map[string]callable.TokenVerifier{"CheckRevoked(0)": checked, "CheckRevoked(1m) after 1m": cachedV} {
			_, err := v.VerifyIDToken(ctx, toks[name])
			if err == nil {
				t.Errorf("%s account's token accepted by %s", name, vname)
			} else if !auth.IsUserDisabled(err) && !auth.IsIDTokenRevoked(err) {
				t.Errorf("%s by %s: %v; want user disabled or token revoked", name, vname, err)
			}
		}
	}
	if _, err := checked.VerifyIDToken(ctx, toks["live"]); err != nil {
		t.Errorf("the live account's token: %v", err)
	}
}

// fakeChecker counts the Admin SDK calls; revoked makes the lookup fail.
type fakeChecker struct {
	plain, lookups atomic.Int64
	revoked        atomic.Bool
	expires        int64
}

func (f *fakeChecker) VerifyIDToken(context.Context, string) (*auth.Token, error) {
	f.plain.Add(1)
	return &auth.Token{UID: "u", Expires: f.expires}, nil
}

func (f *fakeChecker) VerifyIDTokenAndCheckRevoked(context.Context, string) (*auth.Token, error) {
	f.lookups.Add(1)
	if f.revoked.Load() {
		return nil, errors.New("ID token has been revoked")
	}
	return &auth.Token{UID: "u", Expires: f.expires}, nil
}

// TestRevocationCache: a token that passed the lookup is trusted for the
// TTL (signature and expiry still checked: the plain call), looked up
// again after it, never trusted past its own expiry; TTL 0 looks up every
// time; without CheckRevoked there is no lookup.
func TestRevocationCache(t *testing.T) {
	t0 := time.Unix(1_760_000_000, 0)
	now := t0
	f := &fakeChecker{expires: t0.Add(90 * time.Second).Unix()}
	v := &adminVerifier{c: f, now: func() time.Time { return now }}
	CheckRevoked(time.Minute)(v)
	ctx := context.Background()
	call := func(wantErr bool) {
		t.Helper()
		_, err := v.VerifyIDToken(ctx, "tok")
		if (err != nil) != wantErr {
			t.Fatalf("at +%v: %v; want error %v", now.Sub(t0), err, wantErr)
		}
	}
	call(false) // looked up
	now = t0.Add(30 * time.Second)
	f.revoked.Store(true)
	call(false) // trusted: within the minute
	if f.lookups.Load() != 1 || f.plain.Load() != 1 {
		t.Fatalf("lookups %d plain %d; want 1 and 1", f.lookups.Load(), f.plain.Load())
	}
	now = t0.Add(61 * time.Second)
	call(true) // the minute has passed: looked up, revoked
	f.revoked.Store(false)
	call(false) // looked up again (a refusal is not cached), trusted until the token's expiry at +90 s
	now = t0.Add(89 * time.Second)
	call(false)
	if f.lookups.Load() != 3 {
		t.Fatalf("lookups %d; want 3", f.lookups.Load())
	}
	now = t0.Add(91 * time.Second)
	call(false) // past the token's expiry: looked up (the real SDK would refuse it then)
	if f.lookups.Load() != 4 {
		t.Errorf("lookups %d; want 4 (no trust past the token's expiry)", f.lookups.Load())
	}

	every := &adminVerifier{c: f, now: time.Now}
	CheckRevoked(0)(every)
	before := f.lookups.Load()
	for range 3 {
		every.VerifyIDToken(ctx, "tok")
	}
	if f.lookups.Load() != before+3 {
		t.Errorf("TTL 0: %d lookups for 3 calls", f.lookups.Load()-before)
	}
	off := &adminVerifier{c: f, now: time.Now}
	before = f.lookups.Load()
	off.VerifyIDToken(ctx, "tok")
	if f.lookups.Load() != before {
		t.Error("without CheckRevoked, a lookup was made")
	}
}

// BenchmarkVerify measures what checking revoked and disabled accounts
// costs per call, against the Auth emulator on this machine: the plain
// VerifyIDToken, VerifyIDTokenAndCheckRevoked (CheckRevoked(0)), the
// deployment's one-minute cache, and the account lookup alone (GetUser,
// the call the check adds). On the emulator the SDK looks the account up
// even for the plain call (auth.go: "if c.isEmulator ||
// checkRevokedOrDisabled"), so there plain = checked, and the lookup's
// cost is what GetUser shows; in production the plain call is local (an
// RS256 signature check with cached keys, BenchmarkRS256Verify) and the
// lookup a call to Google. Run on request:
//
//	go test -run '^$' -bench Verify -benchtime 2000x ./deploy/
func BenchmarkVerify(b *testing.B) {
	if err := emulator.CheckTools(false, true); err != nil {
		b.Skip(err)
	}
	emu.Require(b)
	ctx := context.Background()
	_, tok, err := emu.Auth().SignUp(ctx, fmt.Sprintf("bench-%d@example.com", time.Now().UnixNano()), "secret-9")
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		opts []VerifierOption
	}{
		{"plain", nil},
		{"checkRevoked", []VerifierOption{CheckRevoked(0)}},
		{"checkRevokedCached1m", []VerifierOption{CheckRevoked(time.Minute)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			v, err := AdminVerifier(ctx, emu.ProjectID(), bc.opts...)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.VerifyIDToken(ctx, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAccountLookup is the account lookup that the revocation check
// adds to each call (the Admin SDK's GetUser), against the Auth emulator.
func BenchmarkAccountLookup(b *testing.B) {
	if err := emulator.CheckTools(false, true); err != nil {
		b.Skip(err)
	}
	emu.Require(b)
	ctx := context.Background()
	uid, _, err := emu.Auth().SignUp(ctx, fmt.Sprintf("lookup-%d@example.com", time.Now().UnixNano()), "secret-9")
	if err != nil {
		b.Fatal(err)
	}
	admin := adminAuth(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := admin.GetUser(ctx, uid); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRS256Verify is the local work of a production VerifyIDToken
// that the emulator skips: one RS256 (RSA-2048, SHA-256) signature check,
// as on a Firebase ID token.
func BenchmarkRS256Verify(b *testing.B) {
	key, err := rsa.GenerateKey(nil, 2048) // Go 1.26: the source is the system's, whatever is passed
	if err != nil {
		b.Fatal(err)
	}
	msg := sha256.Sum256([]byte(strings.Repeat("header.payload", 40)))
	sig, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, msg[:]) // deterministic, takes no randomness
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		h := sha256.Sum256([]byte(strings.Repeat("header.payload", 40)))
		if err := rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, h[:], sig); err != nil {
			b.Fatal(err)
		}
	}
}
