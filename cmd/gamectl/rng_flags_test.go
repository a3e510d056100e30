package main

import (
	"strings"
	"testing"
)

// TestRNGBadFlags: every bad flag is exit 2 with a message naming it, and
// nothing on stdout.
func TestRNGBadFlags(t *testing.T) {
	sfc := []string{"--algo", "sfc32", "--seed", "x"}
	cc := []string{"--algo", "chacha20", "--seed-hex", "00"}
	hc := []string{"--algo", "hashchain", "--seed-hex", "00"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--algo", "mt"}, "--algo"},
		{[]string{"--algo", "sfc32"}, "--seed"},
		{[]string{"--algo", "chacha20"}, "--seed-hex"},
		{[]string{"--algo", "hashchain", "--session", "1"}, "--seed-hex"},
		{append(sfc, "--seed-hex", "00"), "--seed-hex"},
		{append(cc, "--seed", "x"), "--seed"},
		{append(cc, "--session", "1"), "--session"},
		{append(sfc, "--move", "1"), "--move"},
		{[]string{"--algo", "chacha20", "--seed-hex", "0g"}, "--seed-hex"},
		{[]string{"--algo", "chacha20", "--seed-hex", "abc"}, "--seed-hex"},
		{append(hc, "--move", "4294967296"), "--move"},
		{append(hc, "--session", "-1"), "session"},
		{[]string{"--algo", "sfc32", "--seed", "\xff"}, "--seed"},
		{append(sfc, "--count", "0"), "--count"},
		{append(sfc, "--count", "-5"), "--count"},
		{append(sfc, "--raw", "--count", "0"), "--count"},
		{append(sfc, "--count", "x"), "count"},
		{append(sfc, "--draw", "u16"), "--draw"},
		{append(sfc, "--draw", "u32:3"), "--draw u32"},
		{append(sfc, "--draw", "u64"), "--draw u64"},
		{append(sfc, "--draw", "byte"), "--draw byte"},
		{append(cc, "--draw", "bounded:6"), "--draw bounded"},
		{append(cc, "--draw", "draw:52:5"), "--draw draw"},
		{append(hc, "--draw", "u64"), "--draw u64"},
		{append(sfc, "--draw", "int:5:1"), "--draw int"},
		{append(sfc, "--draw", "int:1"), "--draw int"},
		{append(sfc, "--draw", "int:a:3"), "--draw int"},
		{append(sfc, "--draw", "int:0:4294967296"), "--draw int"},
		{append(sfc, "--draw", "shuffle:0"), "--draw shuffle"},
		{append(sfc, "--draw", "shuffle:1000001"), "--draw shuffle"},
		{append(sfc, "--draw", "shuffle:x"), "--draw shuffle"},
		{append(sfc, "--draw", "shuffle:5", "--count", "2"), "--count"},
		{append(sfc, "--draw", "weighted:"), "--draw weighted"},
		{append(sfc, "--draw", "weighted:1,x"), "--draw weighted"},
		{append(sfc, "--draw", "weighted:1,0"), "--draw weighted"},
		{append(sfc, "--draw", "weighted:1,-2"), "--draw weighted"},
		{append(sfc, "--draw", "weighted:1.5"), "--draw weighted"},
		{append(sfc, "--draw", "weighted:NaN"), "--draw weighted"},
		{append(sfc, "--draw", "weighted:4294967296,1"), "--draw weighted"},
		{append(hc, "--draw", "bounded:256"), "--draw bounded"},
		{append(hc, "--draw", "bounded:-1"), "--draw bounded"},
		{append(hc, "--draw", "draw:0:1"), "--draw draw"},
		{append(hc, "--draw", "draw:257:1"), "--draw draw"},
		{append(hc, "--draw", "draw:52:53"), "--draw draw"},
		{append(hc, "--draw", "draw:52:0"), "--draw draw"},
		{append(hc, "--draw", "draw:52"), "--draw draw"},
		{append(hc, "--draw", "draw:52:5", "--count", "5"), "--count"},
		{append(sfc, "--raw", "--draw", "float01"), "--raw"},
		{append(sfc, "extra"), "extra"},
		{append(sfc, "--nope"), "nope"},
	} {
		args := append([]string{"rng"}, c.args...)
		out, errs, code := rngRun(t, args...)
		if code != 2 || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("gamectl %q: exit %d, stdout %q, stderr %q; want exit 2 naming %q", args, code, out, errs, c.want)
		}
	}
}

func TestRNGHelp(t *testing.T) {
	out, errs, code := rngRun(t, "rng", "-h")
	if code != 0 || errs != "" || !strings.Contains(out, "--algo hashchain") || !strings.Contains(out, "draw:N:K") {
		t.Fatalf("help: exit %d, stdout %q, stderr %q; want the help on stdout", code, out, errs)
	}
}
