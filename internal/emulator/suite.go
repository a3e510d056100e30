package emulator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"

	"cloud.google.com/go/firestore"
	vkit "cloud.google.com/go/firestore/apiv1"
	"google.golang.org/grpc"
)

// Config says which emulators a [Suite] runs.
type Config struct {
	// Firestore starts the Firestore emulator.
	Firestore bool
	// Rules is the Firestore security rules file (see FirestoreOptions.Rules).
	Rules string
	// Auth starts the Auth emulator.
	Auth bool
	// ProjectID is shared by both emulators, so the Firestore emulator
	// accepts the Auth emulator's tokens; "" means DefaultProjectID.
	ProjectID string
}

// Suite shares one set of emulators among a package's tests. Declare it at
// package level, hand TestMain to [Suite.Run], and call [Suite.Require] at
// the top of every test that needs the emulators:
//
//	var emu = emulator.NewSuite(emulator.Config{Firestore: true, Auth: true})
//	func TestMain(m *testing.M) { os.Exit(emu.Run(m)) }
//	func TestX(t *testing.T) { emu.Require(t); ... emu.Firestore().Host ... }
//
// The emulators start on the first Require (so a -run filter that selects no
// such test starts nothing) and stop when Run returns.
type Suite struct {
	cfg     Config
	once    sync.Once
	missing error // tools missing: skip, or fail under CI=true
	err     error // start failure
	fs      *Firestore
	auth    *Auth

	mu   sync.Mutex
	weak int // the weakened projects made (Weakened)
}

// NewSuite returns a Suite for cfg; nothing starts yet.
func NewSuite(cfg Config) *Suite {
	if cfg.ProjectID == "" {
		cfg.ProjectID = DefaultProjectID
	}
	return &Suite{cfg: cfg}
}

// CIRequired reports whether a missing emulator must fail the tests rather
// than skip them: true when the environment variable CI is "true".
func CIRequired() bool { return os.Getenv("CI") == "true" }

// Run runs the tests, then stops whatever emulators they started, and
// returns the exit code for os.Exit. The code is non-zero if a test failed or
// a process of an emulator outlived Stop. If a test panics or the binary is
// killed, Run never returns, but the watchdogs still end the emulators. When
// tests failed, the emulators' log files are kept and their paths printed;
// otherwise they are removed.
func (s *Suite) Run(m *testing.M) int {
	code := m.Run()
	var logs []string
	stop := func(name string, stopFn func() error, log string) {
		logs = append(logs, log)
		if err := stopFn(); err != nil {
			fmt.Fprintf(os.Stderr, "emulator: stopping %s: %v\n", name, err)
			code = 1
		}
	}
	if s.fs != nil {
		stop("firestore", s.fs.Stop, s.fs.LogPath())
	}
	if s.auth != nil {
		stop("auth", s.auth.Stop, s.auth.LogPath())
	}
	for _, l := range logs {
		if code != 0 {
			fmt.Fprintf(os.Stderr, "emulator: log kept at %s\n", l)
		} else {
			os.Remove(l)
		}
	}
	return code
}

// Require makes sure the suite's emulators run, starting them on first use.
// If a tool is missing it skips the test with the reason, or fails it when
// [CIRequired]; if an emulator fails to start it fails the test with the
// emulator's log.
func (s *Suite) Require(t testing.TB) {
	t.Helper()
	s.once.Do(s.start)
	switch {
	case s.missing != nil && CIRequired():
		t.Fatalf("CI=true and the emulators cannot run: %v", s.missing)
	case s.missing != nil:
		t.Skipf("skipping emulator test: %v (set CI=true to make this a failure)", s.missing)
	case s.err != nil:
		t.Fatalf("emulators failed to start: %v", s.err)
	}
}

// start checks the tools and starts the configured emulators side by side.
// It exports FIRESTORE_EMULATOR_HOST and FIREBASE_AUTH_EMULATOR_HOST for the
// clients (the Firebase Admin SDK reads the latter only from the
// environment); a package with a Suite must not run other emulators.
func (s *Suite) start() {
	if err := CheckTools(s.cfg.Firestore, s.cfg.Auth); err != nil {
		s.missing = err
		return
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	var fsErr, authErr error
	if s.cfg.Firestore {
		wg.Go(func() {
			s.fs, fsErr = StartFirestore(ctx, FirestoreOptions{ProjectID: s.cfg.ProjectID, Rules: s.cfg.Rules})
		})
	}
	if s.cfg.Auth {
		wg.Go(func() {
			s.auth, authErr = StartAuth(ctx, AuthOptions{ProjectID: s.cfg.ProjectID})
		})
	}
	wg.Wait()
	if s.err = errors.Join(fsErr, authErr); s.err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", s.err)
		return
	}
	if s.fs != nil {
		os.Setenv("FIRESTORE_EMULATOR_HOST", s.fs.Host)
	}
	if s.auth != nil {
		os.Setenv("FIREBASE_AUTH_EMULATOR_HOST", s.auth.Host)
	}
}

// Firestore is the running Firestore emulator; nil before a successful
// Require or when the suite has none.
func (s *Suite) Firestore() *Firestore { return s.fs }

// Auth is the running Auth emulator; nil before a successful Require or when
// the suite has none.
func (s *Suite) Auth() *Auth { return s.auth }

// Client returns an owner's Go client of the running Firestore emulator
// ([Firestore.Client] with opts), closed when the test ends; it fails the
// test if the client cannot be made. Call it after Require.
func (s *Suite) Client(t testing.TB, opts ...grpc.DialOption) *firestore.Client {
	t.Helper()
	c, err := s.fs.Client(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// RPC returns an owner's raw Firestore client of the running emulator
// ([Firestore.RPC] with opts), closed when the test ends; it fails the
// test if the client cannot be made. Call it after Require.
func (s *Suite) RPC(t testing.TB, opts ...grpc.DialOption) *vkit.Client {
	t.Helper()
	c, err := s.fs.RPC(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// ProjectID is the project both emulators use.
func (s *Suite) ProjectID() string { return s.cfg.ProjectID }

// Reset clears the data of the running emulators (documents and accounts),
// failing the test if that fails. Call it after Require.
func (s *Suite) Reset(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	if s.fs != nil {
		if err := s.fs.Reset(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if s.auth != nil {
		if err := s.auth.Reset(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// FreshFirestore starts a Firestore emulator of its own for one test or
// benchmark, with the suite's rules and project, and stops it when tb
// ends; the suite's shared emulators (Auth among them) are left as they
// are, and FIRESTORE_EMULATOR_HOST still names the shared one. A
// benchmark measures the code on it, not what earlier benchmarks left in
// the shared emulator (a query over a collection slows as documents
// accumulate there, and a Reset does not undo it). It skips or fails as
// Require does, and fails tb if the emulator does not start.
func (s *Suite) FreshFirestore(tb testing.TB) *Firestore {
	tb.Helper()
	s.Require(tb)
	if !s.cfg.Firestore {
		tb.Fatal("emulator: FreshFirestore on a suite without Firestore")
	}
	f, err := StartFirestore(context.Background(), FirestoreOptions{ProjectID: s.cfg.ProjectID, Rules: s.cfg.Rules})
	if err != nil {
		tb.Fatalf("fresh firestore emulator: %v", err)
	}
	tb.Cleanup(func() {
		if err := f.Stop(); err != nil {
			tb.Errorf("stopping the fresh firestore emulator: %v", err)
		}
		if tb.Failed() {
			tb.Logf("emulator: log kept at %s", f.LogPath())
		} else {
			os.Remove(f.LogPath())
		}
	})
	return f
}
