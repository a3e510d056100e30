package emulator

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	firebase "firebase.google.com/go/v4"
	"firebase.google.com/go/v4/auth"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

var emu = NewSuite(Config{Firestore: true, Auth: true})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

func TestFirestoreWriteRead(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	c := emu.Client(t)
	want := map[string]any{"ownerUid": "u1", "playerUids": []any{"u1", "u2"}, "turn": int64(3)}
	if _, err := c.Doc("games/g1").Set(ctx, want); err != nil {
		t.Fatal(err)
	}
	snap, err := c.Doc("games/g1").Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := snap.Data()
	if got["ownerUid"] != "u1" || got["turn"] != int64(3) || len(got["playerUids"].([]any)) != 2 {
		t.Fatalf("read back %v, want %v", got, want)
	}
}

// The client's own emulator mode (FIRESTORE_EMULATOR_HOST, exported by the
// suite) reaches the same emulator and sees the same data.
func TestFirestoreEnvClientSeesSameData(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	if got := os.Getenv("FIRESTORE_EMULATOR_HOST"); got != emu.Firestore().Host {
		t.Fatalf("FIRESTORE_EMULATOR_HOST = %q, want %q", got, emu.Firestore().Host)
	}
	ours := emu.Client(t)
	if _, err := ours.Doc("games/g2").Set(ctx, map[string]any{"n": 7}); err != nil {
		t.Fatal(err)
	}
	env, err := firestore.NewClient(ctx, emu.ProjectID())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	if !env.UsesEmulator {
		t.Fatal("client from the environment does not use the emulator")
	}
	snap, err := env.Doc("games/g2").Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := snap.DataAt("n"); n != int64(7) {
		t.Fatalf("n = %v, want 7", n)
	}
}

func TestResetDeletesDocuments(t *testing.T) {
	emu.Require(t)
	ctx := t.Context()
	c := emu.Client(t)
	if _, err := c.Doc("games/g3/log/1").Set(ctx, map[string]any{"k": "v"}); err != nil {
		t.Fatal(err)
	}
	emu.Reset(t)
	_, err := c.Doc("games/g3/log/1").Get(ctx)
	if status.Code(err) != codes.NotFound {
		t.Fatalf("after Reset, Get error = %v, want NotFound", err)
	}
}

// adminAuth is the Admin SDK's auth client in emulator mode (the suite
// exported FIREBASE_AUTH_EMULATOR_HOST), as the Cloud Functions build it.
func adminAuth(t *testing.T) *auth.Client {
	t.Helper()
	app, err := firebase.NewApp(t.Context(), &firebase.Config{ProjectID: emu.ProjectID()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := app.Auth(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestAuthTokensVerifyWithAdminSDK(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	a := emu.Auth()
	admin := adminAuth(t)
	custom, err := admin.CustomToken(ctx, "fixed-uid-7")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		signIn  func() (string, string, error)
		wantUID string // "" means: whatever the emulator chose
	}{
		{"email", func() (string, string, error) { return a.SignUp(ctx, "ada@example.com", "secret-1") }, ""},
		{"anonymous", func() (string, string, error) { return a.SignInAnonymously(ctx) }, ""},
		{"custom", func() (string, string, error) { return a.SignInWithCustomToken(ctx, custom) }, "fixed-uid-7"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			uid, idToken, err := tc.signIn()
			if err != nil {
				t.Fatal(err)
			}
			if uid == "" || (tc.wantUID != "" && uid != tc.wantUID) {
				t.Fatalf("uid = %q, want %q", uid, tc.wantUID)
			}
			tok, err := admin.VerifyIDToken(ctx, idToken)
			if err != nil {
				t.Fatalf("VerifyIDToken: %v", err)
			}
			if tok.UID != uid || tok.Audience != emu.ProjectID() {
				t.Fatalf("token uid %q aud %q, want %q %q", tok.UID, tok.Audience, uid, emu.ProjectID())
			}
		})
	}
}

func TestAuthRejectsBadSignUpAndBadToken(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	a := emu.Auth()
	if _, _, err := a.SignUp(ctx, "bob@example.com", "secret-2"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.SignUp(ctx, "bob@example.com", "secret-2"); err == nil {
		t.Error("second SignUp with the same email succeeded, want EMAIL_EXISTS")
	}
	if _, _, err := a.SignUp(ctx, "carol@example.com", "123"); err == nil {
		t.Error("SignUp with a 3-character password succeeded")
	}
	if _, err := adminAuth(t).VerifyIDToken(ctx, "not-a-jwt"); err == nil {
		t.Error("VerifyIDToken accepted garbage")
	}
}

// A Firestore emulator started on its own (gcloud forks java) leaves no
// process of its session after Stop.
func TestStopLeavesNoProcess(t *testing.T) {
	emu.Require(t) // tools present; this test runs its own instance
	f, err := StartFirestore(t.Context(), FirestoreOptions{ProjectID: "demo-stoptest"})
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.LogPath())
	pids, err := sessionMembers(f.p.sid)
	if err != nil {
		f.Stop()
		t.Skipf("no /proc: %v", err)
	}
	if len(pids) < 3 { // watchdog, its reader, gcloud, java
		f.Stop()
		t.Fatalf("emulator session has %v, want the watchdog, gcloud and java", pids)
	}
	if err := f.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, pid := range pids {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && !strings.Contains(string(b), ") Z ") {
			t.Errorf("process %d outlived Stop: %s", pid, b)
		}
	}
}

// Pause makes the emulator answer nothing (a read times out) until
// Resume, after which it answers with its data intact.
func TestFirestorePauseResume(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	c := emu.Client(t)
	if _, err := c.Doc("p/1").Set(ctx, map[string]any{"v": int64(1)}); err != nil {
		t.Fatal(err)
	}
	if err := emu.Firestore().Pause(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Firestore().Resume() })
	short, cancel := context.WithTimeout(ctx, time.Second)
	_, err := c.Doc("p/1").Get(short)
	cancel()
	if status.Code(err) != codes.DeadlineExceeded && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("read while paused: %v; want a deadline", err)
	}
	if err := emu.Firestore().Resume(); err != nil {
		t.Fatal(err)
	}
	snap, err := c.Doc("p/1").Get(ctx)
	if err != nil || snap.Data()["v"] != int64(1) {
		t.Fatalf("read after Resume: %v, %v", snap, err)
	}
}
