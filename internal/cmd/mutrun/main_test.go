package main

import (
	"strings"
	"testing"
)

func TestParseLog(t *testing.T) {
	log := `Gathering coverage... done in 3s
      KILLED CONDITIONALS_BOUNDARY at uniform.go:53:9
 NOT COVERED CONDITIONALS_NEGATION at entry_json.go:127:15
       LIVED ARITHMETIC_BASE at pick.go:57:24
 NOT COVERED INVERT_NEGATIVES at uniform.go:27:11
Killed: 1, Lived: 1, Not covered: 2
`
	got, err := parseLog(strings.NewReader(log))
	want := []mutant{{"CONDITIONALS_NEGATION", "entry_json.go", 127, 15}, {"INVERT_NEGATIVES", "uniform.go", 27, 11}}
	if err != nil || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("parseLog = %v, %v; want %v", got, err, want)
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
