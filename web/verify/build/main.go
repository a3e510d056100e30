// Command build makes the verifier page's WebAssembly reproducibly (run by
// go generate ./web/verify): it compiles ../wasm for GOOS=js GOARCH=wasm
// with the flags of [Args] into static/verify.wasm, and copies Go's
// wasm_exec.js (the loader that must match the compiler) next to it.
package main

import (
	"fmt"
	"os"

	"github.com/fairboard/fairboard/web/verify/wasmbuild"
)

func main() {
	if err := wasmbuild.Build("static/verify.wasm", "static/wasm_exec.js"); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}
