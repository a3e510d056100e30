// Package bundle builds the play page's JavaScript, the one way both go
// generate (web/play/build) and the freshness test use: esbuild and
// TypeScript from the repository's node_modules (package.json pins them),
// so the committed static/app.js is exactly what the build makes.
package bundle

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/fairboard/fairboard/internal/repo"
)

// Args are esbuild's arguments, run in web/play: one ES module, every
// import bundled (the Firebase SDK included), minified, with the
// dependencies' licence comments gathered at its end. SEAT_GUARD keeps a
// trustless seat from sending again a reveal the markers show or its
// record holds as acknowledged (src/trustgame.ts), and LOOK_AGAIN has a
// live page read the game itself after a silence of its listeners
// (src/gameview.ts, lookAgain): both always on; only a test's broken
// variant, the positive control of the two tabs' test or of the silent
// listeners' test, is built with --define:SEAT_GUARD=false or
// --define:LOOK_AGAIN=false after these.
var Args = []string{"src/main.ts", "--bundle", "--format=esm", "--target=es2022", "--minify",
	"--legal-comments=eof", "--charset=utf8", "--log-level=warning", "--define:SEAT_GUARD=true", "--define:LOOK_AGAIN=true"}

// WasmPackage is the play page's WebAssembly (static/play.wasm).
const WasmPackage = "github.com/fairboard/fairboard/web/play/wasm"

// Root returns the repository root (internal/repo).
func Root() (string, error) { return repo.Root() }

// ErrNoNode is wrapped by the errors of Build and Typecheck when
// node_modules lacks the tool (run npm ci).
var ErrNoNode = errors.New("bundle: node_modules has no esbuild or tsc (run: npm ci --ignore-scripts --no-audit --no-fund)")

func tool(root, name string) (string, error) {
	p := filepath.Join(root, "node_modules", ".bin", name)
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%w: %s", ErrNoNode, p)
	}
	return p, nil
}

// Build bundles the page's code into out; extra arguments go to esbuild
// (a metafile, say).
func Build(out string, extra ...string) error {
	return Esbuild(append(append(append([]string{}, Args...), "--outfile="+out), extra...)...)
}

// Esbuild runs esbuild with args in web/play.
func Esbuild(args ...string) error {
	root, err := Root()
	if err != nil {
		return err
	}
	esbuild, err := tool(root, "esbuild")
	if err != nil {
		return err
	}
	cmd := exec.Command(esbuild, args...)
	cmd.Dir = filepath.Join(root, "web", "play")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("esbuild %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return nil
}

// Typecheck runs the TypeScript compiler over the page's code (no output:
// types only, web/play/tsconfig.json).
func Typecheck() error {
	root, err := Root()
	if err != nil {
		return err
	}
	tsc, err := tool(root, "tsc")
	if err != nil {
		return err
	}
	cmd := exec.Command(tsc, "-p", filepath.Join(root, "web", "play"))
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("tsc: %v\n%s", err, b)
	}
	return nil
}
