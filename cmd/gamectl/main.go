// Command gamectl is the project's one command-line tool, with a subcommand
// per job (sim, play, replay, rng, tenhou, serve, games, verify, solve).
//
// "gamectl help" lists them; "gamectl help CMD" and "gamectl CMD -h" print a
// command's help, with the values each flag takes, on stdout. Exit status: 0
// on success, 1 when the job ran and found a problem (such as a replay
// divergence), 2 for bad flags or input, 130 when interrupted.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
)

// command is one subcommand: run receives the arguments after its name.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands is the table of subcommands; each file of this package adds its
// own in an init function.
var commands = map[string]command{}

// usageError marks an error caused by bad flags or input: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// flagError is a command line that did not parse: a usageError (exit
// status 2) that run follows with a pointer to the command's help.
type flagError struct{ usageError }

func (e flagError) Unwrap() error { return e.usageError }

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// exitError carries an exit status other than 0 or 2 with its message.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		printUsage(stderr)
		return 2
	case args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || (args[0] == "help" && len(args) == 1):
		printUsage(stdout)
		return 0
	case args[0] == "help":
		// "gamectl help CMD [SUB]" is "gamectl CMD [SUB] -h".
		args = append(args[1:], "-h")
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gamectl: unknown command %q\n", args[0])
		printUsage(stderr)
		return 2
	}
	out := &helpRouter{stdout: stdout, stderr: stderr}
	err := cmd.run(args[1:], stdout, out)
	out.decide(stderr)
	var ue usageError
	var fe flagError
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &fe):
		fmt.Fprintf(stderr, "gamectl %s: %v\nrun \"gamectl help %s\" for the flags and the values they take\n", args[0], err, args[0])
		return 2
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "gamectl %s: %v\n", args[0], err)
		return 2
	case errors.As(err, &ee):
		fmt.Fprintf(stderr, "gamectl %s: %v\n", args[0], err)
		return ee.code
	default:
		fmt.Fprintf(stderr, "gamectl %s: %v\n", args[0], err)
		return 1
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: gamectl COMMAND [flags]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\n\"gamectl help COMMAND\" (or \"gamectl COMMAND -h\") prints a command's flags and the values they take.")
	fmt.Fprintln(w, "Exit status: 0 done, 1 ran and found a problem, 2 bad flags or input, 130 interrupted.")
}

// newFlagSet returns a flag set that reports errors instead of exiting.
// Its output (and anything a command's Usage writes to the stderr it was
// given) goes to stdout when the user asked for help, and nowhere on a flag
// error: run prints the error itself, with a pointer to the help.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gamectl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args and turns every flag error into a usageError; extra
// positional arguments are refused unless allowArgs.
func parseFlags(fs *flag.FlagSet, args []string, allowArgs bool) error {
	err := fs.Parse(args)
	if hr, ok := fs.Output().(*helpRouter); ok {
		switch {
		case errors.Is(err, flag.ErrHelp):
			hr.decide(hr.stdout)
		case err != nil:
			hr.decide(io.Discard) // the usage the flag package printed; run prints the error
		default:
			hr.decide(hr.stderr)
		}
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return flagError{usageError{err}}
	}
	if !allowArgs && fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// helpRouter is the stderr a command receives. Until the command's flags
// are parsed it holds what is written (the usage the flag package prints
// for -h or a bad flag); parseFlags then sends that to stdout (help was
// asked for) or drops it (a flag error, which run reports), and from then
// on writes go straight to stderr.
type helpRouter struct {
	stdout, stderr io.Writer
	to             io.Writer // nil until decided
	buf            []byte
}

func (h *helpRouter) Write(p []byte) (int, error) {
	if h.to != nil {
		return h.to.Write(p)
	}
	h.buf = append(h.buf, p...)
	return len(p), nil
}

// decide sends what was held to w, once, and everything after to stderr.
func (h *helpRouter) decide(w io.Writer) {
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
func (h *helpRouter) Unwrap() io.Writer { return h.stderr }
