package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/cover"
)

func TestParseLog(t *testing.T) {
	log := `Gathering coverage... done in 3s
      KILLED CONDITIONALS_BOUNDARY at uniform.go:53:9
 NOT COVERED CONDITIONALS_NEGATION at entry_json.go:127:15
       LIVED ARITHMETIC_BASE at pick.go:57:24
 NOT COVERED INVERT_NEGATIVES at uniform.go:27:11
      KILLED ARITHMETIC_BASE at event_json.go:40:17
   TIMED OUT ARITHMETIC_BASE at stream.go:9:3
Killed: 2, Lived: 1, Not covered: 2
`
	got, killed, err := parseLog(strings.NewReader(log))
	want := []mutant{{"CONDITIONALS_NEGATION", "entry_json.go", 127, 15}, {"INVERT_NEGATIVES", "uniform.go", 27, 11}}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("parseLog = %v, %v; want %v", got, err, want)
	}
	// Only a KILLED ARITHMETIC_BASE may be a mutant that does not build.
	if wantK := (mutant{"ARITHMETIC_BASE", "event_json.go", 40, 17}); len(killed) != 1 || killed[0] != wantK {
		t.Fatalf("parseLog's killed = %v, want [%v]", killed, wantK)
	}
}

func TestApply(t *testing.T) {
	src := "package p\n\nfunc f(a, b int) bool {\n\tswitch {\n\tcase a <= b:\n\t\treturn a-1 == b%2\n\t}\n\treturn a >= -b\n}\n"
	for _, c := range []struct {
		m    mutant
		line string // the changed line
	}{
		{mutant{"CONDITIONALS_BOUNDARY", "f.go", 5, 9}, "\tcase a < b:"},
		{mutant{"CONDITIONALS_NEGATION", "f.go", 5, 9}, "\tcase a > b:"},
		{mutant{"ARITHMETIC_BASE", "f.go", 6, 11}, "\t\treturn a+1 == b%2"},
		{mutant{"INVERT_NEGATIVES", "f.go", 6, 11}, "\t\treturn a+1 == b%2"},
		{mutant{"CONDITIONALS_NEGATION", "f.go", 6, 14}, "\t\treturn a-1 != b%2"},
		{mutant{"ARITHMETIC_BASE", "f.go", 6, 18}, "\t\treturn a-1 == b*2"},
		{mutant{"CONDITIONALS_BOUNDARY", "f.go", 8, 11}, "\treturn a > -b"},
		{mutant{"CONDITIONALS_NEGATION", "f.go", 8, 11}, "\treturn a < -b"},
		{mutant{"INVERT_NEGATIVES", "f.go", 8, 14}, "\treturn a >= +b"},
	} {
		out, err := apply([]byte(src), c.m)
		if err != nil {
			t.Errorf("%v: %v", c.m, err)
			continue
		}
		lines := strings.Split(string(out), "\n")
		if lines[c.m.Line-1] != c.line || len(out) < len(src)-1 {
			t.Errorf("%v: line %q, want %q", c.m, lines[c.m.Line-1], c.line)
		}
		for i, l := range strings.Split(src, "\n") {
			if i != c.m.Line-1 && lines[i] != l {
				t.Errorf("%v: line %d changed too", c.m, i+1)
			}
		}
	}
	for _, m := range []mutant{
		{"CONDITIONALS_BOUNDARY", "f.go", 6, 14}, // == has no boundary mutant
		{"ARITHMETIC_BASE", "f.go", 1, 1},        // "p" is no operator
		{"INVERT_LOOPCTRL", "f.go", 5, 9},        // not a default mutator
		{"ARITHMETIC_BASE", "f.go", 40, 1},       // no such line
		{"ARITHMETIC_BASE", "f.go", 9, 5},        // past the end
	} {
		if _, err := apply([]byte(src), m); err == nil {
			t.Errorf("%v: applied", m)
		}
	}
}

func TestUnreached(t *testing.T) {
	profiles := []*cover.Profile{{
		FileName: "github.com/fairboard/fairboard/rng/pick.go",
		Blocks: []cover.ProfileBlock{
			{StartLine: 10, StartCol: 20, EndLine: 12, EndCol: 3, Count: 4},
			{StartLine: 12, StartCol: 3, EndLine: 15, EndCol: 2, Count: 0},
		},
	}}
	for _, c := range []struct {
		m    mutant
		want bool
	}{
		{mutant{"X", "pick.go", 11, 1}, false},  // in a block the tests ran
		{mutant{"X", "pick.go", 13, 9}, true},   // in a block no test ran
		{mutant{"X", "pick.go", 12, 3}, true},   // the second block starts here
		{mutant{"X", "pick.go", 12, 2}, false},  // the first one ends just after
		{mutant{"X", "pick.go", 9, 15}, false},  // in no block: a case expression
		{mutant{"X", "pick.go", 15, 2}, false},  // just past the last block
		{mutant{"X", "other.go", 13, 9}, false}, // another file: no block
	} {
		if got := unreached(profiles, "./rng", c.m); got != c.want {
			t.Errorf("%v: unreached = %v, want %v", c.m, got, c.want)
		}
	}
	if unreached(profiles, "./engine", mutant{"X", "pick.go", 13, 9}) {
		t.Error("a file of another package matched")
	}
}

// A `+` between strings turned into `-` does not build; one between numbers
// does, and so does a mutant on another operator (never built).
func TestBuilds(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) {
		if err := os.MkdirAll(filepath.Join(root, "p"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module m\n\ngo 1.22\n")
	src := "package p\n\nfunc S(a string) string { return a + \"x\" }\n\nfunc N(a int) int { return a + 1 - a*2 }\n"
	write("p/p.go", src)
	for _, c := range []struct {
		m    mutant
		want bool
	}{
		{mutant{"ARITHMETIC_BASE", "p.go", 3, 36}, false}, // a + "x" -> a - "x"
		{mutant{"ARITHMETIC_BASE", "p.go", 5, 30}, true},  // a + 1 -> a - 1
		{mutant{"ARITHMETIC_BASE", "p.go", 5, 34}, true},  // the -: not built
	} {
		got, err := builds(root, "./p", c.m)
		if err != nil || got != c.want {
			t.Errorf("%v: builds = %v, %v; want %v", c.m, got, err, c.want)
		}
		if b, _ := os.ReadFile(filepath.Join(root, "p", "p.go")); string(b) != src {
			t.Errorf("%v: the file was not put back", c.m)
		}
	}
}
