package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/fairboard/fairboard/functions/functest"
)

func clearServeEnv(t *testing.T) {
	for _, k := range []string{"FIRESTORE_EMULATOR_HOST", "FIREBASE_AUTH_EMULATOR_HOST", "GOOGLE_CLOUD_PROJECT"} {
		t.Setenv(k, "")
	}
}

// startServe runs serve with args and returns its base URL and a stop
// function that returns serve's error.
func startServe(t *testing.T, args ...string) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := serve(ctx, append([]string{"--addr", "127.0.0.1:0"}, args...), pw, io.Discard)
		pw.CloseWithError(io.EOF)
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		cancel()
		t.Fatalf("serve did not start: %v (%v)", err, <-done)
	}
	go io.Copy(io.Discard, pr)
	base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening on ")
	if !ok {
		t.Fatalf("unexpected first line %q", line)
	}
	return base, func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			return errors.New("serve did not stop")
		}
	}
}

func TestServeInMemoryDevAuth(t *testing.T) {
	clearServeEnv(t)
	base, stop := startServe(t, "--insecure-dev-auth", "--allow-seeded")
	c := &functest.Client{Base: base}
	ctx := context.Background()
	var r functest.Result
	if err := c.Call(ctx, "createGame", "dev:alice", map[string]any{"gameId": "demo", "actionId": "c1", "mode": "seeded", "seed": "demo-seed"}, &r); err != nil {
		t.Fatal(err)
	}
	if r.Version != 1 || len(r.Events) != 1 || r.Events[0].UID != "alice" {
		t.Errorf("createGame result %+v", r)
	}
	err := c.Call(ctx, "joinGame", "", map[string]any{"gameId": "demo", "seat": 0, "class": "warrior"}, nil)
	if functest.Status(err) != "UNAUTHENTICATED" {
		t.Errorf("join without a token: %v", err)
	}
	if err := stop(); err != nil {
		t.Errorf("serve returned %v after its context ended", err)
	}
}

func TestServeRefusesUnsafeConfigs(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"dev auth on the Firestore emulator", map[string]string{"FIRESTORE_EMULATOR_HOST": "127.0.0.1:1"}, []string{"--insecure-dev-auth"}, "only for the in-memory"},
		{"dev auth with a project", nil, []string{"--insecure-dev-auth", "--project", "p"}, "only for the in-memory"},
		{"no token verification", nil, nil, "no way to verify ID tokens"},
		{"bad flag", nil, []string{"--nope"}, "not defined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clearServeEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var stderr bytes.Buffer
			err := serve(context.Background(), tc.args, io.Discard, &stderr)
			var ue usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("serve(%v) = %v; want a usage error containing %q", tc.args, err, tc.want)
			}
		})
	}
}

func TestServeExitStatus(t *testing.T) {
	clearServeEnv(t)
	var stderr bytes.Buffer
	if code := run([]string{"serve"}, io.Discard, &stderr); code != 2 {
		t.Errorf("gamectl serve with no auth: exit %d, want 2 (stderr %q)", code, stderr.String())
	}
}

// TestServeWithoutCloudBuild: the default build (no cloud tag) has no
// Firestore or Admin SDK; asking it for either is a usage error that says
// how to build one that has them. A cloud build gets past that check.
func TestServeWithoutCloudBuild(t *testing.T) {
	for _, env := range []map[string]string{
		{"FIRESTORE_EMULATOR_HOST": "127.0.0.1:1"},
		{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:1"},
		{"GOOGLE_CLOUD_PROJECT": "demo-x"},
	} {
		clearServeEnv(t)
		for k, v := range env {
			t.Setenv(k, v)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // a cloud build would start and stop at once
		err := serve(ctx, []string{"--addr", "127.0.0.1:0"}, io.Discard, io.Discard)
		refused := err != nil && strings.Contains(err.Error(), "-tags cloud")
		if refused == cloudBuilt {
			t.Errorf("%v: serve = %v; cloud build %v", env, err, cloudBuilt)
		}
		var ue usageError
		if !cloudBuilt && !errors.As(err, &ue) {
			t.Errorf("%v: %v is not a usage error (exit 2)", env, err)
		}
	}
}
