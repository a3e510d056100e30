//go:build js && wasm

// Command wasm is the export verifier compiled to WebAssembly for the page
// web/verify: it defines fairboardVerify(text) in the page's global scope,
// which checks an export held in the browser's memory and returns
// {status, code, message}: status "ok" (code 0) with the one-line summary,
// "diverged" (code 1) naming the first divergence, or "invalid" (code 2)
// for input that is not an export; the same verdicts as gamectl verify,
// from the same package (export.Verify). It does no I/O at all.
//
// Build it with go generate ./web/verify (see web/verify/verify.go).
package main

import (
	"errors"
	"syscall/js"

	"github.com/fairboard/fairboard/export"
)

// verdict runs the verifier on text.
func verdict(text string) map[string]any {
	rep, err := export.Verify([]byte(text))
	var fe *export.FormatError
	var d *export.Divergence
	switch {
	case err == nil:
		return map[string]any{"status": "ok", "code": 0, "message": rep.Summary()}
	case errors.As(err, &d):
		return map[string]any{"status": "diverged", "code": 1, "message": d.Error()}
	case errors.As(err, &fe):
		return map[string]any{"status": "invalid", "code": 2, "message": fe.Error()}
	default:
		return map[string]any{"status": "invalid", "code": 2, "message": err.Error()}
	}
}

func main() {
	js.Global().Set("fairboardVerify", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Type() != js.TypeString {
			return js.ValueOf(map[string]any{"status": "invalid", "code": 2, "message": "fairboardVerify takes the export's text"})
		}
		return js.ValueOf(verdict(args[0].String()))
	}))
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("fairboard-verifier-ready"))
	select {} // keep the function alive for the page's lifetime
}
