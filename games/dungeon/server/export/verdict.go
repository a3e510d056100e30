package export

import "errors"

// Verdict is the outcome of [Verify] as gamectl verify and the browser
// pages report it: Status "ok" (Code 0) with the report's one-line
// summary, "diverged" (Code 1) naming the first divergence, or "invalid"
// (Code 2) for input that is not an export.
type Verdict struct {
	Status  string `json:"status"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Judge verifies data and returns its verdict.
func Judge(data []byte) Verdict {
	rep, err := Verify(data)
	var fe *FormatError
	var d *Divergence
	switch {
	case err == nil:
		return Verdict{"ok", 0, rep.Summary()}
	case errors.As(err, &d):
		return Verdict{"diverged", 1, d.Error()}
	case errors.As(err, &fe):
		return Verdict{"invalid", 2, fe.Error()}
	default:
		return Verdict{"invalid", 2, err.Error()}
	}
}

// Map returns the verdict as a map, the form syscall/js passes to a page.
func (v Verdict) Map() map[string]any {
	return map[string]any{"status": v.Status, "code": v.Code, "message": v.Message}
}
