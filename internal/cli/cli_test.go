package cli

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSplitList(t *testing.T) {
	require.Nil(t, SplitList(""))
	require.Nil(t, SplitList(" , ,"))
	require.Equal(t, []string{"a", "b c", "d"}, SplitList(" a,b c ,, d"))
}

func TestIsSetAndRepeated(t *testing.T) {
	fs := NewFlagSet("x", &bytes.Buffer{})
	n := fs.Int("n", 3, "")
	var r Repeated
	fs.Var(&r, "param", "")
	fs.Bool("quiet", false, "")
	require.NoError(t, ParseFlags(fs, []string{"--param", "a=1:2", "-n", "3", "--param", "b"}, false))
	require.Equal(t, 3, *n)
	require.True(t, IsSet(fs, "n"), "given with its default value is still given")
	require.True(t, IsSet(fs, "param"))
	require.False(t, IsSet(fs, "quiet"))
	require.Equal(t, Repeated{"a=1:2", "b"}, r)
	require.Equal(t, "a=1:2 b", r.String())
}

func TestPrecision(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want float64
	}{{0, 0}, {2.5, 0.025}, {99.9, 0.999}} {
		got, err := Precision(c.in)
		require.NoError(t, err)
		require.InDelta(t, c.want, got, 1e-15)
	}
	for _, bad := range []float64{-1, 100, 150, math.NaN()} {
		_, err := Precision(bad)
		var ue UsageError
		require.ErrorAs(t, err, &ue, "%v", bad)
		require.Contains(t, err.Error(), "--precision")
	}
}

// ParseFlags sorts its outcomes into the errors that choose the exit
// status, and the router sends the flag package's usage to stdout for -h
// only.
func TestParseFlagsAndTheRouter(t *testing.T) {
	parse := func(args []string, allowArgs bool) (error, string, string) {
		var out, errw bytes.Buffer
		hr := NewHelpRouter(&out, &errw)
		fs := NewFlagSet("x", hr)
		fs.Usage = func() { hr.Write([]byte("usage: gamectl x\n")) }
		fs.Int("n", 0, "")
		err := ParseFlags(fs, args, allowArgs)
		hr.Write([]byte("after\n"))
		return err, out.String(), errw.String()
	}
	err, out, errs := parse([]string{"-h"}, false)
	require.ErrorIs(t, err, flag.ErrHelp)
	require.Equal(t, "usage: gamectl x\n", out, "help goes to stdout")
	require.Equal(t, "after\n", errs)

	err, out, errs = parse([]string{"-n", "x"}, false)
	var fe FlagError
	require.ErrorAs(t, err, &fe)
	var ue UsageError
	require.ErrorAs(t, err, &ue, "a flag error is a usage error")
	require.Empty(t, out)
	require.Equal(t, "after\n", errs, "the usage printed for a bad flag is dropped")

	err, _, _ = parse([]string{"-n", "1", "extra"}, false)
	require.ErrorAs(t, err, &ue)
	require.False(t, errors.As(err, &fe), "an extra argument is not a flag error")
	require.EqualError(t, err, `unexpected argument "extra"`)
	err, _, _ = parse([]string{"-n", "1", "extra"}, true)
	require.NoError(t, err)

	var ee ExitError = ExitError{Code: 130, Err: errors.New("interrupted")}
	require.EqualError(t, ee, "interrupted")
}
