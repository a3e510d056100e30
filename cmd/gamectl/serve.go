package main

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/registry/server"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/tablestore"
)

func init() {
	commands["serve"] = command{"run the game's functions locally (in-memory store, or Firestore)", runServe}
}

// emulatorProject is the project used with the emulators when none is
// given: a demo- project never reaches real services.
const emulatorProject = "demo-fairboard"

func runServe(args []string, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, stdout, stderr)
}

// serveConfig is what the flags and environment select.
type serveConfig struct {
	addr, project        string
	allowSeeded, audit   bool
	insecureDevAuth      bool
	emulators            bool
	sweepEvery           time.Duration
	tableIdle, lobbyIdle time.Duration
	firestore, authEmu   bool
	firestoreHost, authH string
	// ackKey signs the acknowledgements of reveals and deal messages
	// (FAIRBOARD_ACK_KEY, as a deployment reads it); nil: unsigned.
	ackKey ed25519.PrivateKey
}

// ackKeyEnv is the environment variable of the acknowledgement key's
// seed, the deployment's (deploy.EnvAckKey).
const ackKeyEnv = "FAIRBOARD_ACK_KEY"

// readAckKey reads ackKeyEnv's value: "" none (nil), else a 32-byte seed
// in hex.
func readAckKey(v string) (ed25519.PrivateKey, error) {
	if v == "" {
		return nil, nil
	}
	seed, err := hex.DecodeString(v)
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, usagef("%s: want %d bytes in hex (an Ed25519 seed)", ackKeyEnv, ed25519.SeedSize)
	}
	return ed25519.NewKeyFromSeed(seed), nil
}

// serve runs the functions at http://ADDR/NAME, the play page at /play/
// and the verifier page at /verify/ until ctx ends. It prints "listening on
// http://HOST:PORT" on stdout once it accepts requests, then the play
// page's URL. With --emulators it first starts the Firestore and Auth
// emulators (and stops them when it stops).
func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stderr)
	var c serveConfig
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.StringVar(&c.project, "project", "", "Google Cloud project: store games in its Firestore (default $GOOGLE_CLOUD_PROJECT)")
	fs.BoolVar(&c.allowSeeded, "allow-seeded", false, "allow creating seeded (replayable) games: development only")
	fs.BoolVar(&c.audit, "audit", false, "turn the RNG audit ring on for every new game")
	fs.BoolVar(&c.insecureDevAuth, "insecure-dev-auth", false,
		"DEVELOPMENT ONLY, in-memory store only: accept \"Authorization: Bearer dev:<uid>\" as uid, with no proof")
	fs.BoolVar(&c.emulators, "emulators", false,
		"start the Firestore and Auth emulators (project "+emulatorProject+", firestore.rules) and serve on them; needs the cloud build, gcloud's Firestore emulator, Java and npm ci")
	fs.DurationVar(&c.sweepEvery, "sweep-every", 10*time.Second,
		"settle the games past their deadlines (trustless rounds, stale fair games) this often, in process, as Cloud Scheduler's sweep does in a deployment (0: never)")
	fs.DurationVar(&c.tableIdle, "table-idle", functions.DefaultTableIdle,
		"the sweep ends a table in play with no action for this long, as idle (0: never)")
	fs.DurationVar(&c.lobbyIdle, "lobby-idle", functions.DefaultLobbyIdle,
		"the sweep closes a table still in its lobby with no action for this long, as idle (0: never)")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	var err error
	if err := c.checkIdleFlags(); err != nil {
		return err
	}
	if _, err := net.ResolveTCPAddr("tcp", c.addr); err != nil {
		return usagef("--addr %q: %v (want HOST:PORT, e.g. 127.0.0.1:8080)", c.addr, err)
	}
	if c.ackKey, err = readAckKey(os.Getenv(ackKeyEnv)); err != nil {
		return err
	}
	if c.sweepEvery < 0 {
		return usagef("--sweep-every %v: want a duration of 0 or more", c.sweepEvery)
	}
	if c.emulators {
		if err := c.checkEmulatorFlags(); err != nil {
			return err
		}
	}
	// The address next: a port already taken is said at once, before
	// anything (the emulators take seconds to start) is started for nothing.
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (another server there? choose another address with --addr)", c.addr, err)
	}
	serving := false
	defer func() {
		if !serving {
			ln.Close()
		}
	}()
	if c.emulators {
		stop, err := c.startEmulators(ctx, stderr)
		if err != nil {
			return err
		}
		defer stop()
	}
	if c.project == "" {
		c.project = os.Getenv("GOOGLE_CLOUD_PROJECT")
	}
	c.firestoreHost, c.authH = os.Getenv("FIRESTORE_EMULATOR_HOST"), os.Getenv("FIREBASE_AUTH_EMULATOR_HOST")
	c.firestore, c.authEmu = c.firestoreHost != "" || c.project != "", c.authH != ""
	if c.project == "" && (c.firestore || c.authEmu) {
		c.project = emulatorProject
	}
	if c.insecureDevAuth && c.firestore {
		return usagef("--insecure-dev-auth is refused with Firestore: it is only for the in-memory development store")
	}
	if err := functions.CheckAuthEmulator(c.project, c.authH); err != nil {
		return usagef("%v", err)
	}
	if !c.insecureDevAuth && !c.firestore && !c.authEmu {
		return usagef("no way to verify ID tokens: set FIREBASE_AUTH_EMULATOR_HOST, use --project, or pass --insecure-dev-auth for local development")
	}
	if (c.firestore || c.authEmu) && !cloudBuilt {
		return usagef("%s", errNoCloud)
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	dungeon, tables, ns, ls, what, err := openStore(ctx, &c,
		server.Config{AllowSeeded: c.allowSeeded, ForceAudit: c.audit, Logger: log, AckKey: c.ackKey})
	if err != nil {
		return err
	}
	defer dungeon.Close()
	v, err := chooseVerifier(ctx, &c, stderr)
	if err != nil {
		return err
	}
	api := functions.New(dungeon, v, log).WithTables(tables).WithNames(ns).WithLobby(ls).WithAckKey(c.ackKey).WithTableIdle(c.idleLimits())
	if c.firestore {
		api.OneIDSpace() // fsstore and fstables on one database
	}
	mux := mountVerifyPage(api.Mux())
	pc := pageConfig(&c)
	if err := mountPlayPage(mux, pc); err != nil {
		return err
	}
	srv := newHTTPServer(mux, serverTimeouts)
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	fmt.Fprintf(stdout, "play: http://%s/play/\n", ln.Addr())
	auth := "Firebase Auth (project " + c.project + ")"
	if c.authEmu {
		auth = "the Auth emulator at " + c.authH
	} else if c.insecureDevAuth {
		auth = "INSECURE dev tokens"
	}
	fmt.Fprintf(stderr, "gamectl serve: %s on %s, tokens from %s, seeded games %s; functions: /%s\n",
		what, ln.Addr(), auth, map[bool]string{true: "allowed", false: "refused"}[c.allowSeeded], strings.Join(functions.Names, ", /"))
	errc := make(chan error, 1)
	serving = true // Serve closes ln
	go func() { errc <- srv.Serve(ln) }()
	if c.sweepEvery > 0 {
		go sweepLoop(ctx, dungeon, api, c.sweepEvery, log)
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// sweepLoop runs the dungeon's sweep, then the tables' (API.SweepTables:
// trustless tables past their round's deadline aborted), every d until
// ctx ends: locally there is no Cloud Scheduler to call the sweep
// function (which serve refuses, having no OIDC authorizer).
func sweepLoop(ctx context.Context, dungeon functions.Dungeon, api *functions.API, d time.Duration, log *slog.Logger) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		res, err := dungeon.Sweep(ctx)
		if err != nil && ctx.Err() == nil {
			log.Error("sweep", "err", err)
		} else if res != nil && res.Due > 0 {
			log.Info("sweep", "closed", res.Closed, "aborted", res.Aborted, "abandoned", res.Abandoned)
		}
		tres, err := api.SweepTables(ctx)
		if err != nil && ctx.Err() == nil {
			log.Error("sweep of the tables", "err", err)
		} else if tres != nil && tres.Due > 0 {
			log.Info("sweep of the tables", "aborted", tres.Aborted, "idle", tres.Idle, "failed", tres.Failed)
		}
	}
}

// openStore opens the dungeon's server (games/registry/server, with cfg)
// on the configured store, and the store of the tables of the registry's
// other games beside it, and says which it is.
func openStore(ctx context.Context, c *serveConfig, cfg server.Config) (*server.Server, tablestore.Store, names.Store, lobby.Store, string, error) {
	if !c.firestore {
		return server.Memory(cfg), tablestore.NewMemory(lookupGame), names.NewMemory(), lobby.NewMemory(), "in-memory store (games vanish on exit)", nil
	}
	st, tables, ns, ls, err := openFirestore(ctx, c.project, cfg)
	if err != nil {
		return nil, nil, nil, nil, "", err
	}
	what := "Firestore of project " + c.project
	if c.firestoreHost != "" {
		what = "the Firestore emulator at " + c.firestoreHost
	}
	return st, tables, ns, ls, what, nil
}

// chooseVerifier returns the token verifier the configuration asks for:
// the insecure development one only with --insecure-dev-auth (and a
// warning), else the Admin SDK's. There is no default to fall back to: a
// failure is an error, never a more permissive verifier.
func chooseVerifier(ctx context.Context, c *serveConfig, stderr io.Writer) (callable.TokenVerifier, error) {
	if c.insecureDevAuth {
		fmt.Fprintln(stderr, "WARNING: --insecure-dev-auth: any caller can act as any uid with \"Bearer dev:<uid>\". Never expose this server.")
		return functions.InsecureDevVerifier{}, nil
	}
	return cloudVerifier(ctx, c.project)
}

// timeouts bounds a connection's phases (http.Server's fields of the
// same names). WriteTimeout is above the longest a function may take: the
// service's store timeout (15 s) plus the store's resolution of an
// unknown commit (10 s).
type timeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
	MaxHeaderBytes                int
}

// serverTimeouts are serve's: a client that sends its headers or body
// slowly, or keeps an idle connection, is cut off.
var serverTimeouts = timeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second,
	Write: 60 * time.Second, Idle: 120 * time.Second, MaxHeaderBytes: 64 << 10}

func newHTTPServer(h http.Handler, t timeouts) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read,
		WriteTimeout: t.Write, IdleTimeout: t.Idle, MaxHeaderBytes: t.MaxHeaderBytes}
}
