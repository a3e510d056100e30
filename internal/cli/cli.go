// Package cli holds gamectl's command-line conventions, shared by the
// command and by the tools a game brings with it (game.Tools): the errors
// that choose the exit status, flag sets whose help goes to stdout, and
// output files that appear only once the work is done (PendingFile).
//
// Exit status: 0 on success (and for -h), 1 when the job ran and found a
// problem, 2 for bad flags or input (UsageError, FlagError), and an
// ExitError's own code otherwise (130 when interrupted).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// UsageError marks an error caused by bad flags or input: exit status 2.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// FlagError is a command line that did not parse: a UsageError (exit
// status 2) that gamectl follows with a pointer to the command's help.
type FlagError struct{ UsageError }

func (e FlagError) Unwrap() error { return e.UsageError }

// Usagef returns a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return UsageError{fmt.Errorf(format, args...)}
}

// ExitError carries an exit status other than 0 or 2 with its message.
type ExitError struct {
	Code int
	Err  error
}

func (e ExitError) Error() string { return e.Err.Error() }

// NewFlagSet returns a flag set named "gamectl NAME" that reports errors
// instead of exiting. Its output (and anything a command's Usage writes to
// the stderr it was given) goes to stdout when the user asked for help, and
// nowhere on a flag error, when stderr is the HelpRouter gamectl hands its
// commands: gamectl prints the error itself, with a pointer to the help.
func NewFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gamectl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// ParseFlags parses args and turns every flag error into a FlagError; extra
// positional arguments are refused (a UsageError) unless allowArgs. -h gives
// flag.ErrHelp.
func ParseFlags(fs *flag.FlagSet, args []string, allowArgs bool) error {
	err := fs.Parse(args)
	if hr, ok := fs.Output().(*HelpRouter); ok {
		switch {
		case errors.Is(err, flag.ErrHelp):
			hr.Decide(hr.stdout)
		case err != nil:
			hr.Decide(io.Discard) // the usage the flag package printed; gamectl prints the error
		default:
			hr.Decide(hr.stderr)
		}
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return FlagError{UsageError{err}}
	}
	if !allowArgs && fs.NArg() > 0 {
		return Usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// HelpRouter is the stderr a command receives. Until the command's flags
// are parsed it holds what is written (the usage the flag package prints
// for -h or a bad flag); ParseFlags then sends that to stdout (help was
// asked for) or drops it (a flag error, which gamectl reports), and from
// then on writes go straight to stderr.
type HelpRouter struct {
	stdout, stderr io.Writer
	to             io.Writer // nil until decided
	buf            []byte
}

// NewHelpRouter returns the router for a command writing to stdout and stderr.
func NewHelpRouter(stdout, stderr io.Writer) *HelpRouter {
	return &HelpRouter{stdout: stdout, stderr: stderr}
}

func (h *HelpRouter) Write(p []byte) (int, error) {
	if h.to != nil {
		return h.to.Write(p)
	}
	h.buf = append(h.buf, p...)
	return len(p), nil
}

// Decide sends what was held to w, once, and everything after to stderr.
func (h *HelpRouter) Decide(w io.Writer) {
	if h.to != nil {
		return
	}
	h.to = h.stderr
	if len(h.buf) > 0 {
		w.Write(h.buf)
		h.buf = nil
	}
}

// Unwrap returns the real stderr (for a terminal check).
func (h *HelpRouter) Unwrap() io.Writer { return h.stderr }
