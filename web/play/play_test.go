package play_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/web/play"
	"github.com/fairboard/fairboard/web/play/bundle"
	"github.com/fairboard/fairboard/web/verify/wasmbuild"
)

// runNodeTest bundles test/NAME_test.ts for Node and runs it: it must
// print "ok" and nothing else (a failed check throws, naming it).
func runNodeTest(t *testing.T, name string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), name+"_test.mjs")
	nodeTools(t, bundle.Esbuild("test/"+name+"_test.ts", "--bundle", "--platform=node", "--format=esm", "--outfile="+out))
	b, err := exec.Command("node", out).CombinedOutput()
	require.NoError(t, err, "%s", b)
	require.Equal(t, "ok\n", string(b))
}

// nodeTools skips (or, under CI, fails) a test that needs node_modules.
func nodeTools(t *testing.T, err error) {
	t.Helper()
	if errors.Is(err, bundle.ErrNoNode) {
		if emulator.CIRequired() {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	require.NoError(t, err)
}

// The committed bundle is exactly what esbuild makes from src/ (and the
// sources type-check): a change to the page's code without go generate
// ./web/play fails here.
func TestBundleIsFresh(t *testing.T) {
	nodeTools(t, bundle.Typecheck())
	out := filepath.Join(t.TempDir(), "app.js")
	nodeTools(t, bundle.Build(out))
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile("static/app.js")
	require.NoError(t, err)
	if !bytes.Equal(got, want) {
		t.Fatalf("web/play/static/app.js is stale (%d bytes committed, %d built): run go generate ./web/play and commit it", len(want), len(got))
	}
}

// The committed WebAssembly and its loader are exactly what go generate
// makes from the current code (engine, export, ./wasm).
func TestWasmIsFresh(t *testing.T) {
	dir := t.TempDir()
	wasm, exec := filepath.Join(dir, "play.wasm"), filepath.Join(dir, "wasm_exec.js")
	require.NoError(t, wasmbuild.BuildPackage(bundle.WasmPackage, wasm, exec))
	for _, f := range []struct{ built, committed string }{{wasm, "static/play.wasm"}, {exec, "static/wasm_exec.js"}} {
		got, err := os.ReadFile(f.built)
		require.NoError(t, err)
		want, err := os.ReadFile(f.committed)
		require.NoError(t, err)
		if !bytes.Equal(got, want) {
			t.Fatalf("web/play/%s is stale (%d bytes committed, %d built): run go generate ./web/play and commit it", f.committed, len(want), len(got))
		}
	}
}

var emulators = play.Config{ProjectID: "demo-fairboard", APIKey: "k", AuthEmulator: "http://127.0.0.1:9099",
	FirestoreEmulator: "127.0.0.1:8081", Store: play.StoreFirestore}

// The policy allows exactly the page's own scripts, styles and
// WebAssembly, and connections to its origin, the functions, Auth and
// Firestore that the configuration names.
func TestCSP(t *testing.T) {
	const probe = "'self' data: https://www.google.com/images/cleardot.gif"
	for _, tc := range []struct {
		name         string
		c            play.Config
		connect, img string
	}{
		{"emulators", emulators, "'self' http://127.0.0.1:9099 http://127.0.0.1:8081", probe},
		{"functions elsewhere", play.Config{ProjectID: "p", APIKey: "k", FunctionsURL: "http://127.0.0.1:7000", AuthEmulator: "http://localhost:9099",
			FirestoreEmulator: "localhost:8081", Store: play.StoreFirestore}, "'self' http://127.0.0.1:7000 http://localhost:9099 http://localhost:8081", probe},
		{"memory, dev sign-in", play.Config{ProjectID: "p", APIKey: "k", Store: play.StoreMemory, DevAuth: true}, "'self'", "'self' data:"},
		{"a pinned acknowledgement key", play.Config{ProjectID: "p", APIKey: "k", Store: play.StoreMemory, DevAuth: true, AckKey: strings.Repeat("0f", 32)}, "'self'", "'self' data:"},
		{"memory, auth emulator", play.Config{ProjectID: "p", APIKey: "k", Store: play.StoreMemory, AuthEmulator: "http://127.0.0.1:9099"}, "'self' http://127.0.0.1:9099", "'self' data:"},
		{"hosting", play.Hosting, "'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com https://firestore.googleapis.com", probe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.c.Check())
			csp := play.CSP(tc.c)
			directives := map[string]string{}
			for _, d := range strings.Split(csp, "; ") {
				name, value, _ := strings.Cut(d, " ")
				directives[name] = value
			}
			require.Equal(t, map[string]string{
				"default-src": "'none'", "script-src": "'self' 'wasm-unsafe-eval'", "style-src": "'self'", "img-src": tc.img,
				"connect-src": tc.connect, "base-uri": "'none'", "form-action": "'none'", "frame-ancestors": "'none'",
				"frame-src": "'none'", "object-src": "'none'", "require-trusted-types-for": "'script'", "trusted-types": "'none'",
			}, directives)
		})
	}
}

// A configuration that would put something unexpected into the header,
// or that contradicts itself, is refused naming the field.
func TestConfigCheck(t *testing.T) {
	for name, tc := range map[string]struct {
		mut  func(*play.Config)
		want string
	}{
		"no project":                 {func(c *play.Config) { c.ProjectID = "" }, "projectId"},
		"project with a space":       {func(c *play.Config) { c.ProjectID = "a b" }, "projectId"},
		"no key":                     {func(c *play.Config) { c.APIKey = "" }, "apiKey"},
		"key with a semicolon":       {func(c *play.Config) { c.APIKey = "k;script-src *" }, "apiKey"},
		"auth emulator with a path":  {func(c *play.Config) { c.AuthEmulator = "http://127.0.0.1:9099/x" }, "authEmulator"},
		"auth emulator not http":     {func(c *play.Config) { c.AuthEmulator = "javascript:1" }, "authEmulator"},
		"functions with a query":     {func(c *play.Config) { c.FunctionsURL = "http://h?x=1" }, "functionsUrl"},
		"functions host injection":   {func(c *play.Config) { c.FunctionsURL = "http://a;b" }, "functionsUrl"},
		"firestore emulator no port": {func(c *play.Config) { c.FirestoreEmulator = "127.0.0.1:x" }, "firestoreEmulator"},
		"unknown store":              {func(c *play.Config) { c.Store = "sql" }, "store"},
		"dev sign-in on firestore":   {func(c *play.Config) { c.DevAuth = true }, "devAuth"},
		"memory with firestore host": {func(c *play.Config) { c.Store = play.StoreMemory }, "firestoreEmulator"},
		"auth domain with a slash":   {func(c *play.Config) { c.AuthDomain = "a/b" }, "authDomain"},
		"ack key too short":          {func(c *play.Config) { c.AckKey = strings.Repeat("ab", 31) }, "ackKey"},
		"ack key not hex":            {func(c *play.Config) { c.AckKey = strings.Repeat("zz", 32) }, "ackKey"},
		"ack key upper case":         {func(c *play.Config) { c.AckKey = strings.Repeat("AB", 32) }, "ackKey"},
	} {
		t.Run(name, func(t *testing.T) {
			c := emulators
			tc.mut(&c)
			err := c.Check()
			require.ErrorContains(t, err, tc.want)
			_, err = play.Handler(c)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// The handler serves the page, its files and its configuration, each with
// the policy built from that configuration, and nothing but GET and HEAD.
func TestHandler(t *testing.T) {
	h, err := play.Handler(emulators)
	require.NoError(t, err)
	srv := httptest.NewServer(http.StripPrefix("/play", h))
	t.Cleanup(srv.Close)
	get := func(path string) (*http.Response, []byte) {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, b
	}
	r, body := get("/play/")
	require.Equal(t, http.StatusOK, r.StatusCode)
	require.Contains(t, string(body), `<script type="module" src="app.js">`)
	require.NotContains(t, string(body), "<script>", "no inline script")
	require.Equal(t, play.CSP(emulators), r.Header.Get("Content-Security-Policy"))
	for k, v := range play.Headers {
		require.Equal(t, v, r.Header.Get(k), k)
	}
	r, body = get("/play/config.json")
	require.Equal(t, "application/json", r.Header.Get("Content-Type"))
	require.Equal(t, "no-store", r.Header.Get("Cache-Control"))
	require.Equal(t, play.CSP(emulators), r.Header.Get("Content-Security-Policy"))
	var c play.Config
	require.NoError(t, json.Unmarshal(body, &c))
	require.Equal(t, emulators, c)
	r, _ = get("/play/play.wasm")
	require.Equal(t, "application/wasm", r.Header.Get("Content-Type"))
	for _, f := range []string{"app.js", "style.css", "boards.css", "wasm_exec.js"} {
		r, _ = get("/play/" + f)
		require.Equal(t, http.StatusOK, r.StatusCode, f)
	}
	r, _ = get("/play/nope")
	require.Equal(t, http.StatusNotFound, r.StatusCode)
	resp, err := http.Post(srv.URL+"/play/", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
}

// The page's log reader and its words for events, run by Node: the log's
// two layouts mixed in one game give every event once, in order
// (test/log_test.ts).
func TestLogReaderInNode(t *testing.T) {
	runNodeTest(t, "log")
}

// The generic board's words (event words, move labels, the public
// state's rows, the outcome), run by Node (test/tablewords_test.ts).
func TestTableWordsInNode(t *testing.T) {
	runNodeTest(t, "tablewords")
}

// The board registry (a game without its own board plays on the generic
// one) and what Pig's, Kuhn's and Leduc's boards read from a view, run by
// Node (test/boards_test.ts).
func TestBoardsInNode(t *testing.T) {
	runNodeTest(t, "boards")
}

// firebase.json (the Hosting deployment, docs/play.md) sends the policy
// built from the Hosting configuration and the same security headers as
// gamectl serve, serves the committed page, and routes the page's
// config.json and every function to the functions on the page's origin.
func TestFirebaseJSON(t *testing.T) {
	root, err := bundle.Root()
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(root, "firebase.json"))
	require.NoError(t, err)
	var conf struct {
		Firestore struct{ Rules string }
		Hosting   struct {
			Public   string
			Rewrites []struct {
				Source   string
				Function struct{ FunctionID, Region string }
			}
			Headers []struct {
				Source  string
				Headers []struct{ Key, Value string }
			}
		}
	}
	require.NoError(t, json.Unmarshal(b, &conf))
	require.Equal(t, "firestore.rules", conf.Firestore.Rules)
	require.Equal(t, "web/play/static", conf.Hosting.Public)
	routes := map[string]string{}
	for _, r := range conf.Hosting.Rewrites {
		routes[r.Source] = r.Function.FunctionID
	}
	want := map[string]string{"/config.json": deploy.PlayConfigName}
	for _, n := range functions.Names {
		want["/"+n] = n
	}
	require.Equal(t, want, routes)
	require.Len(t, conf.Hosting.Headers, 1)
	require.Equal(t, "**", conf.Hosting.Headers[0].Source)
	got := map[string]string{}
	for _, h := range conf.Hosting.Headers[0].Headers {
		got[h.Key] = h.Value
	}
	wantH := map[string]string{"Content-Security-Policy": play.CSP(play.Hosting)}
	for k, v := range play.Headers {
		wantH[k] = v
	}
	require.Equal(t, wantH, got)
}
