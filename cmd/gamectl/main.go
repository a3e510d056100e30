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

	"github.com/fairboard/fairboard/internal/cli"
)

// command is one subcommand: run receives the arguments after its name.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands is the table of subcommands; each file of this package adds its
// own in an init function.
var commands = map[string]command{}

// The exit-status errors and flag sets of gamectl's commands, shared with the
// tools games bring (internal/cli).
type (
	usageError = cli.UsageError
	flagError  = cli.FlagError
	exitError  = cli.ExitError
)

// usagef returns a usageError with a formatted message.
func usagef(format string, args ...any) error { return cli.Usagef(format, args...) }

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
	out := cli.NewHelpRouter(stdout, stderr)
	err := cmd.run(args[1:], stdout, out)
	out.Decide(stderr)
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
		return ee.Code
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

// newFlagSet returns a flag set that reports errors instead of exiting
// (cli.NewFlagSet).
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet { return cli.NewFlagSet(name, stderr) }

// parseFlags parses args and turns every flag error into a usageError; extra
// positional arguments are refused unless allowArgs (cli.ParseFlags).
func parseFlags(fs *flag.FlagSet, args []string, allowArgs bool) error {
	return cli.ParseFlags(fs, args, allowArgs)
}
