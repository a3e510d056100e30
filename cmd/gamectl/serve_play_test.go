package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/web/play"
)

// getPage fetches a path of serve's and returns the response and body.
func getPage(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// serve serves the play page at /play/ with the configuration of its own
// store and tokens, and its policy built from that configuration; / leads
// there.
func TestServePlayPage(t *testing.T) {
	clearServeEnv(t)
	base, stop := startServe(t, "--insecure-dev-auth")
	defer stop()
	resp, body := getPage(t, base+"/play/config.json")
	var c play.Config
	if err := json.Unmarshal(body, &c); err != nil || resp.StatusCode != 200 {
		t.Fatalf("config.json: %d %s %v", resp.StatusCode, body, err)
	}
	want := play.Config{ProjectID: emulatorProject, APIKey: "emulator-api-key", Store: play.StoreMemory, DevAuth: true}
	if c != want {
		t.Errorf("config %+v, want %+v", c, want)
	}
	resp, body = getPage(t, base+"/play/")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "app.js") || resp.Header.Get("Content-Security-Policy") != play.CSP(want) {
		t.Errorf("/play/: %d, CSP %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	if resp, _ := getPage(t, base+"/"); resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/play/" {
		t.Errorf("/: %d to %q, want a redirect to /play/", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// testAckKey is the Ed25519 key of the seed 32 bytes of 0x07, and
// testAckPublic its public half, computed by crypto/ed25519 (not by
// serve).
var (
	testAckKey    = ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	testAckPublic = hex.EncodeToString(testAckKey.Public().(ed25519.PublicKey))
)

// The page's configuration follows what serve runs on.
func TestServePageConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    serveConfig
		env  map[string]string
		want *play.Config
	}{
		{"dev sign-in", serveConfig{insecureDevAuth: true}, nil,
			&play.Config{ProjectID: emulatorProject, APIKey: "emulator-api-key", Store: play.StoreMemory, DevAuth: true}},
		{"dev sign-in, seeded games allowed", serveConfig{insecureDevAuth: true, allowSeeded: true}, nil,
			&play.Config{ProjectID: emulatorProject, APIKey: "emulator-api-key", Store: play.StoreMemory, DevAuth: true, AllowSeeded: true}},
		{"dev sign-in, acknowledgements signed", serveConfig{insecureDevAuth: true, ackKey: testAckKey}, nil,
			&play.Config{ProjectID: emulatorProject, APIKey: "emulator-api-key", Store: play.StoreMemory, DevAuth: true, AckKey: testAckPublic}},
		{"the emulators", serveConfig{project: "demo-x", firestore: true, authEmu: true, firestoreHost: "127.0.0.1:8081", authH: "127.0.0.1:9099"}, nil,
			&play.Config{ProjectID: "demo-x", APIKey: "emulator-api-key", AuthEmulator: "http://127.0.0.1:9099", FirestoreEmulator: "127.0.0.1:8081", Store: play.StoreFirestore}},
		{"memory store, Auth emulator", serveConfig{project: "demo-x", authEmu: true, authH: "127.0.0.1:9099"}, nil,
			&play.Config{ProjectID: "demo-x", APIKey: "emulator-api-key", AuthEmulator: "http://127.0.0.1:9099", Store: play.StoreMemory}},
		{"a real project without the web key", serveConfig{project: "prod", firestore: true}, nil, nil},
		{"a real project", serveConfig{project: "prod", firestore: true}, map[string]string{"FAIRBOARD_WEB_API_KEY": "AIza1", "FAIRBOARD_WEB_AUTH_DOMAIN": "prod.firebaseapp.com"},
			&play.Config{ProjectID: "prod", APIKey: "AIza1", AuthDomain: "prod.firebaseapp.com", Store: play.StoreFirestore}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("FAIRBOARD_WEB_API_KEY", tc.env["FAIRBOARD_WEB_API_KEY"])
			t.Setenv("FAIRBOARD_WEB_AUTH_DOMAIN", tc.env["FAIRBOARD_WEB_AUTH_DOMAIN"])
			got := pageConfig(&tc.c)
			switch {
			case tc.want == nil && got != nil:
				t.Errorf("got %+v, want no page", *got)
			case tc.want != nil && (got == nil || *got != *tc.want):
				t.Errorf("got %+v, want %+v", got, *tc.want)
			case got != nil && got.Check() != nil:
				t.Errorf("%+v does not pass Check: %v", *got, got.Check())
			}
		})
	}
}

// --emulators is refused where it cannot work, before anything starts.
func TestServeEmulatorsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"with dev auth", nil, []string{"--emulators", "--insecure-dev-auth"}, "--insecure-dev-auth"},
		{"beside a running emulator", map[string]string{"FIRESTORE_EMULATOR_HOST": "127.0.0.1:1"}, []string{"--emulators"}, "unset FIRESTORE_EMULATOR_HOST"},
		{"with a real project", nil, []string{"--emulators", "--project", "prod"}, "demo- project"},
		{"with a bad address", nil, []string{"--emulators", "--addr", "nonsense"}, "--addr"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearServeEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			err := serve(context.Background(), tc.args, io.Discard, io.Discard)
			var ue usageError
			want := tc.want
			if !cloudBuilt && tc.want != "--addr" {
				want = "-tags cloud"
			}
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), want) {
				t.Errorf("serve(%v) = %v; want a usage error containing %q", tc.args, err, want)
			}
		})
	}
}

// gamectl serve --emulators (the cloud build) starts both emulators, says
// where the page is once they answer, serves the page configured for them,
// and stops them when it stops.
func TestServeEmulators(t *testing.T) {
	if !cloudBuilt {
		t.Skip("--emulators needs the cloud build (go test -tags cloud ./cmd/gamectl)")
	}
	if err := emulator.CheckTools(true, true); err != nil {
		if emulator.CIRequired() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	clearServeEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := serve(ctx, []string{"--emulators", "--addr", "127.0.0.1:0"}, pw, io.Discard)
		pw.Close()
		done <- err
	}()
	rd := bufio.NewReader(pr)
	var lines []string
	for len(lines) < 2 {
		line, err := rd.ReadString('\n')
		if err != nil {
			cancel()
			t.Fatalf("serve --emulators printed %q, then %v (%v)", lines, err, <-done)
		}
		lines = append(lines, strings.TrimSpace(line))
	}
	go io.Copy(io.Discard, rd)
	base, _ := strings.CutPrefix(lines[0], "listening on ")
	if lines[1] != "play: "+base+"/play/" {
		t.Errorf("second line %q, want the page's address", lines[1])
	}
	_, body := getPage(t, base+"/play/config.json")
	var c play.Config
	if err := json.Unmarshal(body, &c); err != nil {
		t.Fatal(err)
	}
	if c.ProjectID != emulatorProject || c.Store != play.StoreFirestore || c.FirestoreEmulator == "" || c.AuthEmulator == "" {
		t.Fatalf("config %+v", c)
	}
	// Both emulators answer, at the hosts the page is given.
	for _, h := range []string{c.FirestoreEmulator, strings.TrimPrefix(c.AuthEmulator, "http://")} {
		conn, err := net.DialTimeout("tcp", h, 5*time.Second)
		if err != nil {
			t.Fatalf("emulator at %s: %v", h, err)
		}
		conn.Close()
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve returned %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("serve --emulators did not stop")
	}
	for _, h := range []string{c.FirestoreEmulator, strings.TrimPrefix(c.AuthEmulator, "http://")} {
		if conn, err := net.DialTimeout("tcp", h, time.Second); err == nil {
			conn.Close()
			t.Errorf("an emulator still listens at %s after serve stopped", h)
		}
	}
	for _, k := range []string{"FIRESTORE_EMULATOR_HOST", "FIREBASE_AUTH_EMULATOR_HOST"} {
		if v := os.Getenv(k); v != "" {
			t.Errorf("%s=%s outlives the emulators", k, v)
		}
	}
}

// The README's command that opens the play page is the one
// TestServeEmulators runs (--emulators, the cloud build).
func TestReadmePlayCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "```sh\ngo run -tags cloud ./cmd/gamectl serve --emulators\n```"
	if !strings.Contains(string(b), cmd) {
		t.Errorf("README.md lacks the block\n%s", cmd)
	}
}
