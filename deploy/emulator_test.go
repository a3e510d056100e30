package deploy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/emulator"
)

var emu = emulator.NewSuite(emulator.Config{Auth: true})

func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }

// A token from the real Auth emulator, checked by AdminVerifier (the Admin SDK),
// reaches the function with its uid; a token the emulator did not issue is
// UNAUTHENTICATED.
func TestHandlerWithAuthEmulatorToken(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	uid, idToken, err := emu.Auth().SignUp(ctx, "player@example.com", "secret-9")
	if err != nil {
		t.Fatal(err)
	}
	verifier, err := AdminVerifier(ctx, emu.ProjectID())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(callable.Handler(verifier, echo))
	defer srv.Close()

	post := func(token string) (int, []byte) {
		req, err := http.NewRequestWithContext(ctx, "POST", srv.URL, bytes.NewReader([]byte(`{"data":{"gameId":"g1"}}`)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var buf bytes.Buffer
		buf.ReadFrom(resp.Body)
		return resp.StatusCode, buf.Bytes()
	}

	code, body := post(idToken)
	var got struct {
		Result struct {
			UID  string          `json:"uid"`
			Data json.RawMessage `json:"data"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &got); err != nil || code != 200 {
		t.Fatalf("valid token: %d %s (%v)", code, body, err)
	}
	if got.Result.UID != uid || string(got.Result.Data) != `{"gameId":"g1"}` {
		t.Fatalf("result %s, want uid %s", body, uid)
	}

	code, body = post("eyJhbGciOiJub25lIn0.e30.")
	if code != http.StatusUnauthorized || !bytes.Contains(body, []byte(`"UNAUTHENTICATED"`)) {
		t.Fatalf("forged token: %d %s, want 401 UNAUTHENTICATED", code, body)
	}
}

// echo answers the caller's uid and data.
func echo(_ context.Context, req callable.Request) (any, error) {
	return map[string]any{"uid": req.UID, "data": req.Data}, nil
}

// The default name comes from the token the Admin SDK verified: an
// anonymous account of the real Auth emulator is a guest ("Guest XXXX"),
// an email account a player ("Player XXXX"), XXXX the first two bytes of
// SHA-256(uid) in capital hex.
func TestDefaultNameFromAuthEmulatorToken(t *testing.T) {
	emu.Require(t)
	emu.Reset(t)
	ctx := t.Context()
	verifier, err := AdminVerifier(ctx, emu.ProjectID())
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: engine.NewReference(engine.DefaultRules())})
	srv := httptest.NewServer(functions.New(dungeonfn.New(svc), verifier, nil).Mux())
	defer srv.Close()
	guest, guestTok, err := emu.Auth().SignInAnonymously(ctx)
	if err != nil {
		t.Fatal(err)
	}
	player, playerTok, err := emu.Auth().SignUp(ctx, "named@example.com", "secret-9")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ uid, token, kind string }{{guest, guestTok, "Guest"}, {player, playerTok, "Player"}} {
		req, err := http.NewRequestWithContext(ctx, "POST", srv.URL+"/getName", bytes.NewReader([]byte(`{"data":{}}`)))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Result functions.NameResult `json:"result"`
		}
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		sum := sha256.Sum256([]byte(c.uid))
		want := c.kind + " " + strings.ToUpper(hex.EncodeToString(sum[:2]))
		if err != nil || got.Result.Name != want || got.Result.Chosen {
			t.Fatalf("%s: %+v (%v), want the default %q", c.kind, got.Result, err, want)
		}
	}
}
