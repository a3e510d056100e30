package verify_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/web/verify"
	"github.com/fairboard/fairboard/web/verify/wasmbuild"
)

// The committed WebAssembly and its loader are exactly what go generate
// makes from the current code: a change to the verifier (export, engine,
// reducers, rng, session) without go generate ./web/verify fails here.
func TestWasmIsFresh(t *testing.T) {
	dir := t.TempDir()
	wasm, exec := filepath.Join(dir, "verify.wasm"), filepath.Join(dir, "wasm_exec.js")
	require.NoError(t, wasmbuild.Build(wasm, exec))
	for _, f := range []struct{ built, committed string }{{wasm, "static/verify.wasm"}, {exec, "static/wasm_exec.js"}} {
		got, err := os.ReadFile(f.built)
		require.NoError(t, err)
		want, err := os.ReadFile(f.committed)
		require.NoError(t, err)
		if !bytes.Equal(got, want) {
			t.Fatalf("web/verify/%s is stale (%d bytes committed, %d built): run go generate ./web/verify and commit it", f.committed, len(want), len(got))
		}
	}
}

func TestHandler(t *testing.T) {
	srv := httptest.NewServer(http.StripPrefix("/verify", verify.Handler()))
	t.Cleanup(srv.Close) // after the bodies' cleanups, which run first
	get := func(path string) *http.Response {
		resp, err := http.Get(srv.URL + path)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	r := get("/verify/")
	require.Equal(t, http.StatusOK, r.StatusCode)
	body, _ := io.ReadAll(r.Body)
	require.Contains(t, string(body), "Verify a game")
	require.Equal(t, verify.CSP, r.Header.Get("Content-Security-Policy"))
	require.Equal(t, "nosniff", r.Header.Get("X-Content-Type-Options"))

	r = get("/verify/verify.wasm")
	require.Equal(t, http.StatusOK, r.StatusCode)
	require.Equal(t, "application/wasm", r.Header.Get("Content-Type"), "WebAssembly.instantiateStreaming needs it")
	for _, f := range []string{"wasm_exec.js", "verify.js", "style.css"} {
		require.Equal(t, http.StatusOK, get("/verify/"+f).StatusCode, f)
	}
	require.Equal(t, http.StatusNotFound, get("/verify/nope").StatusCode)

	resp, err := http.Post(srv.URL+"/verify/", "application/json", bytes.NewReader([]byte("{}")))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "the page takes no upload")
}
