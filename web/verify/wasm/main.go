//go:build js && wasm

// Command wasm is the verifier compiled to WebAssembly for the page
// web/verify: it defines fairboardVerify(text) in the page's global scope,
// which checks a dungeon game's export (fairboard-export/v1) or a table
// game's record (fairboard-game/v1) held in the browser's memory and
// returns {status, code, message}: status "ok" (code 0) with the one-line
// summary, "diverged" (code 1) naming the first divergence, or "invalid"
// (code 2) for input that is neither; the same verdicts as gamectl
// verify, from the same packages (judge.File: export.Judge, or
// match.CheckRecord under the registry's games). It does no I/O at all.
//
// Build it with go generate ./web/verify (see web/verify/verify.go).
package main

import (
	"syscall/js"

	"github.com/fairboard/fairboard/web/verify/judge"
)

func main() {
	js.Global().Set("fairboardVerify", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return js.ValueOf(map[string]any{"status": "invalid", "code": 2, "message": "fairboardVerify takes the file's text"})
		}
		return js.ValueOf(judge.File([]byte(args[0].String())).Map())
	}))
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("fairboard-verifier-ready"))
	select {} // keep the function alive for the page's lifetime
}
