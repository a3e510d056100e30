// Package wasmbuild builds the pages' WebAssembly (the verifier page's and
// the play page's), the one way both go generate and the freshness tests
// use, so that the committed files are exactly what the build makes.
package wasmbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Package is the import path of the WebAssembly's main package.
const Package = "github.com/fairboard/fairboard/web/verify/wasm"

// Args are the go build arguments: -trimpath (no local paths),
// -buildvcs=false (no commit stamp, which would change the file at every
// commit), and -s -w (no symbol table or DWARF: a smaller download).
var Args = []string{"build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w"}

// Build compiles the verifier's WebAssembly to wasmOut and copies the
// toolchain's wasm_exec.js to execOut.
func Build(wasmOut, execOut string) error { return BuildPackage(Package, wasmOut, execOut) }

// BuildPackage compiles the main package pkg for js/wasm to wasmOut and
// copies the toolchain's wasm_exec.js (the loader that must match the
// compiler) to execOut.
func BuildPackage(pkg, wasmOut, execOut string) error {
	args := append(append([]string{}, Args...), "-o", wasmOut, pkg)
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %v", err)
	}
	js, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	return os.WriteFile(execOut, js, 0o644)
}
