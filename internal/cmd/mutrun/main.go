// Command mutrun runs the mutants that Gremlins reports NOT COVERED but that
// the tests do execute, for `make mutation` (scripts/mutation.sh).
//
// Gremlins decides whether to run a mutant from the coverage profile, and
// Go's coverage has no block for some code that runs: the case expressions
// of a switch, constant expressions and package-level declarations. Their
// mutants are reported NOT COVERED and never tried, although the tests
// would catch them. mutrun tries each: it copies the module once, takes the
// package's coverage profile, and for every NOT COVERED mutant that lies in
// no block of the profile (a mutant inside a block no test reaches stays
// NOT COVERED), applies the one-token change Gremlins would have made (the
// same mutator table: `<` to `<=`, `==` to `!=`, `+` to `-`, ...), runs the
// package's tests and prints the outcome in Gremlins' format, marked
// "(rerun)":
//
//	go run ./internal/cmd/mutrun -log out/mutation/rng.log -pkg ./rng
//
// KILLED: the tests failed; LIVED: they passed; TIMED OUT: they ran past
// -timeout; NOT VIABLE: the mutant does not build; NOT COVERED: no test
// reaches it, so it was not run (or NOT VIABLE if it does not build).
//
// Gremlins v0.6.0 also counts a mutant that does not compile as KILLED: it
// takes go test's exit status 2 for "not viable", but go test exits 1 when
// the package does not build. The only such mutant of its default table is
// `+` turned into `-` between strings, so mutrun builds (go build, no
// tests) every KILLED ARITHMETIC_BASE mutant on a `+` and prints the ones
// that do not build as NOT VIABLE "(rerun: does not build)"; a line of its
// output replaces Gremlins' line for the same mutant. Exit status 2 for bad
// flags or a log that cannot be read, 1 if a mutant could not be applied.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/cover"
)

func main() {
	log := flag.String("log", "", "a Gremlins log (its output) to take the NOT COVERED mutants from")
	pkg := flag.String("pkg", "", "the package Gremlins ran on, as ./path from the module root")
	timeout := flag.Duration("timeout", 2*time.Minute, "how long one test run may take")
	flag.Parse()
	if *log == "" || !strings.HasPrefix(*pkg, "./") || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: mutrun -log FILE -pkg ./PATH [-timeout D]")
		os.Exit(2)
	}
	f, err := os.Open(*log)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutrun:", err)
		os.Exit(2)
	}
	mutants, killed, err := parseLog(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutrun:", err)
		os.Exit(2)
	}
	if len(mutants) == 0 && len(killed) == 0 {
		return
	}
	root, err := copyModule()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutrun:", err)
		os.Exit(2)
	}
	defer os.RemoveAll(root)
	var blocks []*cover.Profile
	if len(mutants) > 0 {
		if blocks, err = coverage(root, *pkg); err != nil {
			fmt.Fprintln(os.Stderr, "mutrun:", err)
			os.Exit(2)
		}
	}
	failed := false
	for _, m := range mutants {
		if unreached(blocks, *pkg, m) {
			// Unless it does not build: then it is no mutant at all.
			if ok, err := builds(root, *pkg, m); err == nil && !ok {
				fmt.Printf("%12s %s at %s:%d:%d (rerun: does not build)\n", "NOT VIABLE", m.Type, m.File, m.Line, m.Col)
				continue
			}
			fmt.Printf("%12s %s at %s:%d:%d (rerun: no test reaches it)\n", "NOT COVERED", m.Type, m.File, m.Line, m.Col)
			continue
		}
		status, err := run(root, *pkg, m, *timeout)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutrun: %s: %v\n", m, err)
			failed = true
			continue
		}
		fmt.Printf("%12s %s at %s:%d:%d (rerun)\n", status, m.Type, m.File, m.Line, m.Col)
	}
	for _, m := range killed {
		ok, err := builds(root, *pkg, m)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutrun: %s: %v\n", m, err)
			failed = true
			continue
		}
		if !ok {
			fmt.Printf("%12s %s at %s:%d:%d (rerun: does not build)\n", "NOT VIABLE", m.Type, m.File, m.Line, m.Col)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// mutant is one NOT COVERED line of a Gremlins log.
type mutant struct {
	Type      string
	File      string // relative to the package directory
	Line, Col int
}

func (m mutant) String() string { return fmt.Sprintf("%s at %s:%d:%d", m.Type, m.File, m.Line, m.Col) }

var logLine = regexp.MustCompile(`^\s*(NOT COVERED|KILLED) ([A-Z_]+) at (\S+):(\d+):(\d+)\s*$`)

// parseLog returns the NOT COVERED mutants of a Gremlins log and its
// KILLED ARITHMETIC_BASE mutants (the ones that may not build), in order.
func parseLog(r io.Reader) (notCovered, killed []mutant, err error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := logLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[4])
		col, _ := strconv.Atoi(m[5])
		mu := mutant{Type: m[2], File: m[3], Line: line, Col: col}
		switch {
		case m[1] == "NOT COVERED":
			notCovered = append(notCovered, mu)
		case mu.Type == "ARITHMETIC_BASE":
			killed = append(killed, mu)
		}
	}
	return notCovered, killed, sc.Err()
}

// mutations is Gremlins' table for its default mutators: the operator at
// the mutant's position and what it becomes.
var mutations = map[string]map[string]string{
	"ARITHMETIC_BASE":       {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*"},
	"CONDITIONALS_BOUNDARY": {">=": ">", ">": ">=", "<=": "<", "<": "<="},
	"CONDITIONALS_NEGATION": {"==": "!=", "!=": "==", ">=": "<", ">": "<=", "<=": ">", "<": ">="},
	"INCREMENT_DECREMENT":   {"++": "--", "--": "++"},
	"INVERT_NEGATIVES":      {"-": "+"},
}

// apply returns src with the operator at line:col (1-based, columns in
// bytes, as go/token counts them) changed as the mutant's type says.
func apply(src []byte, m mutant) ([]byte, error) {
	table, ok := mutations[m.Type]
	if !ok {
		return nil, fmt.Errorf("unknown mutator %s", m.Type)
	}
	off, err := offset(src, m)
	if err != nil {
		return nil, err
	}
	op := string(src[off])
	if off+1 < len(src) {
		if two := string(src[off : off+2]); table[two] != "" {
			op = two
		}
	}
	repl, ok := table[op]
	if !ok {
		return nil, fmt.Errorf("found %q, which %s does not change", op, m.Type)
	}
	out := make([]byte, 0, len(src)+1)
	out = append(out, src[:off]...)
	out = append(out, repl...)
	return append(out, src[off+len(op):]...), nil
}

// offset returns the byte offset in src of m's line:col (1-based).
func offset(src []byte, m mutant) (int, error) {
	off := 0
	for l := 1; l < m.Line; l++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return 0, fmt.Errorf("the file has fewer than %d lines", m.Line)
		}
		off += i + 1
	}
	off += m.Col - 1
	if m.Col < 1 || off >= len(src) {
		return 0, fmt.Errorf("column %d is past the end of line %d", m.Col, m.Line)
	}
	return off, nil
}

// run applies m in the copy of the module at root, runs the package's
// tests and puts the file back.
func run(root, pkg string, m mutant, timeout time.Duration) (string, error) {
	path := filepath.Join(root, pkg, m.File)
	orig, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	mutated, err := apply(orig, m)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		return "", err
	}
	defer os.WriteFile(path, orig, 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-failfast", "-timeout", (timeout + 5*time.Second).String(), pkg)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return "TIMED OUT", nil
	case err == nil:
		return "LIVED", nil
	case !errors.As(err, &exit):
		return "", err
	case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
		return "NOT VIABLE", nil
	}
	return "KILLED", nil
}

// builds applies m in the copy of the module at root when the operator it
// changes is a `+` (the only mutation of Gremlins' table that can fail to
// type-check: string concatenation), reports whether the package still
// builds, and puts the file back. A mutant on another operator builds.
func builds(root, pkg string, m mutant) (bool, error) {
	path := filepath.Join(root, pkg, m.File)
	orig, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	off, err := offset(orig, m)
	if err != nil {
		return false, err
	}
	if orig[off] != '+' {
		return true, nil
	}
	mutated, err := apply(orig, m)
	if err != nil {
		return false, err
	}
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		return false, err
	}
	defer os.WriteFile(path, orig, 0o644)
	cmd := exec.Command("go", "build", "-o", os.DevNull, pkg)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &exit) && len(out) > 0:
		return false, nil
	}
	return false, fmt.Errorf("go build: %v\n%s", err, out)
}

// copyModule copies the module's files (tracked, and untracked but not
// ignored) to a new temporary directory and returns it.
func copyModule() (string, error) {
	list, err := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		return "", fmt.Errorf("listing the module's files: %w", err)
	}
	root, err := os.MkdirTemp("", "mutrun-")
	if err != nil {
		return "", err
	}
	for _, name := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		info, err := os.Lstat(name)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a symlink (node_modules)
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return "", err
		}
		dst := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, b, info.Mode().Perm()); err != nil {
			return "", err
		}
	}
	return root, nil
}

// coverage runs the package's tests in the copy of the module at root and
// returns its coverage profile.
func coverage(root, pkg string) ([]*cover.Profile, error) {
	out := filepath.Join(root, "mutrun-cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-coverprofile="+out, pkg)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("the unmutated tests of %s fail: %v\n%s", pkg, err, b)
	}
	return cover.ParseProfiles(out)
}

// unreached reports whether m lies inside a block of the profile that no
// test ran. A mutant in no block at all (a case expression, a constant) is
// not unreached: the profile cannot say, so it is run.
func unreached(profiles []*cover.Profile, pkg string, m mutant) bool {
	suffix := "/" + path.Join(strings.TrimPrefix(pkg, "./"), m.File)
	for _, p := range profiles {
		if !strings.HasSuffix(p.FileName, suffix) {
			continue
		}
		for _, b := range p.Blocks {
			after := m.Line > b.StartLine || (m.Line == b.StartLine && m.Col >= b.StartCol)
			before := m.Line < b.EndLine || (m.Line == b.EndLine && m.Col < b.EndCol)
			if after && before {
				return b.Count == 0
			}
		}
	}
	return false
}
