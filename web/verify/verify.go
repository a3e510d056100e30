// Package verify serves the export verifier page (/verify/): a static page
// and the verifier compiled to WebAssembly. A player drops a game's export
// on the page; the verdict is computed in their own browser by the same code
// as gamectl verify (package export), and the file never leaves it: the
// page makes no request but loading its own three files, and its Content
// Security Policy forbids any other.
//
// The WebAssembly (static/verify.wasm) and Go's loader for it
// (static/wasm_exec.js) are committed, built reproducibly by
//
//	go generate ./web/verify
//
// and TestWasmIsFresh rebuilds them and fails if the committed files
// differ, so they cannot go stale silently: any change to the engine, the
// reducers, rng, session or export needs a go generate. docs/fairness.md
// says how to host the page on Firebase Hosting.
package verify

//go:generate go run ./build

import (
	"embed"
	"io/fs"
	"net/http"
)

//go:embed static
var static embed.FS

// Files returns the page's files: index.html, verify.js, style.css,
// wasm_exec.js and verify.wasm.
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic("verify: " + err.Error()) // cannot happen: the directory is embedded
	}
	return sub
}

// CSP is the page's Content Security Policy: its own scripts, styles and
// WebAssembly, and no connection but to its own origin (to load
// verify.wasm); no form posts, no frames, no other origin.
const CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the page's files at the root of its path (mount it with
// http.StripPrefix("/verify", Handler()) at "/verify/"), with the page's
// security headers.
func Handler() http.Handler {
	files := http.FileServerFS(Files())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
