package game

// Verdict is the outcome of checking a game file, as gamectl verify and
// the browser pages report it: Status "ok" (Code 0) with a one-line
// summary, "diverged" (Code 1) naming the first thing that does not
// hold, or "invalid" (Code 2) for input that is not a game file or that
// cannot be checked at all. Code is gamectl verify's exit status.
type Verdict struct {
	Status  string `json:"status"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// The verdicts' statuses, with their codes 0, 1 and 2.
const (
	VerdictOK       = "ok"
	VerdictDiverged = "diverged"
	VerdictInvalid  = "invalid"
)

// OK, Diverged and Invalid build the three verdicts.
func OK(summary string) Verdict    { return Verdict{VerdictOK, 0, summary} }
func Diverged(what string) Verdict { return Verdict{VerdictDiverged, 1, what} }
func Invalid(why string) Verdict   { return Verdict{VerdictInvalid, 2, why} }

// Map returns the verdict as a map, the form syscall/js passes to a page.
func (v Verdict) Map() map[string]any {
	return map[string]any{"status": v.Status, "code": v.Code, "message": v.Message}
}

// ExportVerifier is implemented by a definition whose games export in a
// format of their own (the dungeon's fairboard-export/v1, which predates
// game records; an export names no game, so it is the dungeon's):
// gamectl verify and the verifier pages hand it a file that is not a game
// record. VerifyExport checks data whole: its one-line summary when it
// verifies, a divergence (the first thing that does not hold), or an
// error when data cannot be checked at all; that error is a *NotAnExport
// when data is not a readable export (bad input).
type ExportVerifier interface {
	VerifyExport(data []byte) (summary string, divergence, err error)
}

// NotAnExport is VerifyExport's error for data that is not a readable
// export; its message is Err's.
type NotAnExport struct{ Err error }

func (e *NotAnExport) Error() string { return e.Err.Error() }
func (e *NotAnExport) Unwrap() error { return e.Err }

// JudgeExport turns v's check of data into a verdict: ok with the
// summary, diverged with the divergence, invalid with the error.
func JudgeExport(v ExportVerifier, data []byte) Verdict {
	summary, d, err := v.VerifyExport(data)
	switch {
	case err != nil:
		return Invalid(err.Error())
	case d != nil:
		return Diverged(d.Error())
	}
	return OK(summary)
}
