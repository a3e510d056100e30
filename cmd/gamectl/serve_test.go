package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
)

func clearServeEnv(t *testing.T) {
	for _, k := range []string{"FIRESTORE_EMULATOR_HOST", "FIREBASE_AUTH_EMULATOR_HOST", "GOOGLE_CLOUD_PROJECT", "FAIRBOARD_ACK_KEY"} {
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
		{"address without a port", nil, []string{"--insecure-dev-auth", "--addr", "nonsense"}, "--addr"},
		{"port out of range", nil, []string{"--insecure-dev-auth", "--addr", "127.0.0.1:99999"}, "--addr"},
		{"acknowledgement key not a seed", map[string]string{"FAIRBOARD_ACK_KEY": "abcd"}, []string{"--insecure-dev-auth"}, "FAIRBOARD_ACK_KEY"},
		{"negative idle limit", nil, []string{"--insecure-dev-auth", "--table-idle", "-1h"}, "--table-idle"},
		{"negative lobby idle limit", nil, []string{"--insecure-dev-auth", "--lobby-idle", "-5m"}, "--lobby-idle"},
		{"idle limit not a duration", nil, []string{"--insecure-dev-auth", "--lobby-idle", "soon"}, "lobby-idle"},
		// The Auth emulator's tokens are unsigned: never beside a real project.
		{"auth emulator beside a real project", map[string]string{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099", "GOOGLE_CLOUD_PROJECT": "fairboard-prod"}, nil, "not a demo- project"},
		{"auth emulator beside --project", map[string]string{"FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:9099"}, []string{"--project", "fairboard-prod"}, "not a demo- project"},
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
	for _, args := range [][]string{
		{"serve"},
		{"serve", "--insecure-dev-auth", "--addr", "nonsense"},
		{"serve", "--insecure-dev-auth", "--addr", ":http-nope"},
	} {
		var stderr bytes.Buffer
		if code := run(args, io.Discard, &stderr); code != 2 {
			t.Errorf("gamectl %v: exit %d, want 2 (stderr %q)", args, code, stderr.String())
		}
	}
}

// The verifier is chosen, never defaulted: without --insecure-dev-auth it
// is the Admin SDK's (cloud build) or an error (default build), never the
// development one.
func TestServeVerifierIsNeverTheDevOneByDefault(t *testing.T) {
	clearServeEnv(t)
	t.Setenv("FIREBASE_AUTH_EMULATOR_HOST", "127.0.0.1:1")
	v, err := chooseVerifier(context.Background(), &serveConfig{project: "demo-x"}, io.Discard)
	if _, dev := v.(functions.InsecureDevVerifier); dev {
		t.Fatal("chose the insecure development verifier without --insecure-dev-auth")
	}
	if cloudBuilt != (err == nil) {
		t.Errorf("chooseVerifier = %T, %v (cloud build %v)", v, err, cloudBuilt)
	}
	var warn bytes.Buffer
	v, err = chooseVerifier(context.Background(), &serveConfig{insecureDevAuth: true}, &warn)
	if _, dev := v.(functions.InsecureDevVerifier); !dev || err != nil || !strings.Contains(warn.String(), "WARNING") {
		t.Errorf("with --insecure-dev-auth: %T, %v, warning %q", v, err, warn.String())
	}
}

// serve's HTTP server cuts off a client that sends its headers too
// slowly, and closes idle connections; its write timeout leaves room for
// the slowest answer (the store timeout plus the resolution of an unknown
// commit).
func TestServeTimeouts(t *testing.T) {
	st := serverTimeouts
	if st.ReadHeader <= 0 || st.Read <= 0 || st.Idle <= 0 || st.MaxHeaderBytes <= 0 || st.Write < 25*time.Second+5*time.Second {
		t.Fatalf("serve's timeouts %+v", st)
	}
	short := timeouts{ReadHeader: 200 * time.Millisecond, Read: 400 * time.Millisecond, Write: time.Second, Idle: 300 * time.Millisecond, MaxHeaderBytes: 4 << 10}
	srv := newHTTPServer(http.NotFoundHandler(), short)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	closedWithin := func(name string, send string, within time.Duration) {
		t.Helper()
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.Write([]byte(send)); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		io.Copy(io.Discard, conn) // until the server closes it
		if took := time.Since(start); took > within {
			t.Errorf("%s: connection open for %v; want closed within %v", name, took, within)
		}
	}
	closedWithin("headers never finished", "POST /act HTTP/1.1\r\nHost: x\r\n", 2*time.Second)
	closedWithin("idle keep-alive", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 2*time.Second)
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
