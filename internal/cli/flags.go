package cli

import (
	"flag"
	"strings"
)

// SplitList splits a comma-separated flag value, trimming spaces and
// dropping empty items ("a, ,b" is [a b]; "" is nil).
func SplitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// IsSet reports whether the flag called name was given on the command line.
func IsSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// Precision turns --precision P (a half-width in percentage points, above 0
// and below 100; 0 means none) into a fraction; anything else (negative,
// NaN, 100 or more) is a UsageError.
func Precision(p float64) (float64, error) {
	if p < 0 || p != p || p >= 100 {
		return 0, Usagef("--precision %v: want a half-width in percentage points, above 0 and below 100", p)
	}
	return p / 100, nil
}

// Repeated is a flag that may be given several times (--param A --param B),
// its values in order.
type Repeated []string

func (p *Repeated) String() string     { return strings.Join(*p, " ") }
func (p *Repeated) Set(v string) error { *p = append(*p, v); return nil }
