// Command build makes the play page's committed files (run by go generate
// ./web/play, in web/play): static/app.js from src/ with esbuild (after a
// type check), and static/play.wasm with Go's matching wasm_exec.js from
// ./wasm, reproducibly.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/fairboard/fairboard/web/play/bundle"
	"github.com/fairboard/fairboard/web/verify/wasmbuild"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run() error {
	if err := bundle.Typecheck(); err != nil {
		return err
	}
	out, err := filepath.Abs("static/app.js")
	if err != nil {
		return err
	}
	if err := bundle.Build(out); err != nil {
		return err
	}
	return wasmbuild.BuildPackage(bundle.WasmPackage, "static/play.wasm", "static/wasm_exec.js")
}
