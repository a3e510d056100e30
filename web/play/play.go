// Package play serves the player's web app (/play/): a static page whose
// code (TypeScript in src/, bundled by esbuild into static/app.js) signs the
// player in with Firebase Auth, plays through the callable functions and
// reads the game live from Firestore, and a WebAssembly module
// (static/play.wasm, Go compiled from ./wasm) holding the engine's
// legal-action enumeration and the export verifier, so that the rules exist
// once, in Go. docs/play.md describes the page.
//
// The page loads its Firebase configuration from the server
// (config.json, [Config]), and every response carries a
// Content-Security-Policy built from that same configuration ([CSP]): the
// page's own scripts and WebAssembly, connections to its own origin (the
// functions), Firestore and Auth, nothing else; no inline script; Trusted
// Types required.
//
// The bundle, the WebAssembly and Go's wasm_exec.js are committed, so a
// plain go build and the Cloud Functions build need no node; they are made
// by
//
//	go generate ./web/play
//
// (esbuild from package.json, and go build for js/wasm), and
// TestBundleIsFresh and TestWasmIsFresh fail when the committed files are
// not what the sources make.
package play

//go:generate go run ./build

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net/http"

	"github.com/fairboard/fairboard/web/play/pageconfig"
)

//go:embed static
var static embed.FS

// Files returns the page's files: index.html, style.css, boards.css, app.js,
// wasm_exec.js and play.wasm.
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic("play: " + err.Error()) // cannot happen: the directory is embedded
	}
	return sub
}

// Config is the page's configuration (see package pageconfig).
type Config = pageconfig.Config

// The stores a Config names.
const (
	StoreFirestore = pageconfig.StoreFirestore
	StoreMemory    = pageconfig.StoreMemory
)

// Hosting is the configuration of a deployment on Firebase Hosting.
var Hosting = pageconfig.Hosting

// Headers are the security headers of every response but the CSP.
var Headers = pageconfig.Headers

// CSP is the page's Content-Security-Policy for c (pageconfig.CSP).
func CSP(c Config) string { return pageconfig.CSP(c) }

// Handler serves the page for c at the root of its path (mount it with
// http.StripPrefix("/play", h) at "/play/"): the static files and
// config.json, each with the page's CSP and security headers. It returns
// an error if c does not pass Check.
func Handler(c Config) (http.Handler, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	conf, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	csp := CSP(c)
	files := http.FileServerFS(Files())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		for k, v := range Headers {
			h.Set(k, v)
		}
		if r.URL.Path == "/config.json" {
			h.Set("Content-Type", "application/json")
			h.Set("Cache-Control", "no-store")
			w.Write(conf)
			return
		}
		files.ServeHTTP(w, r)
	}), nil
}
