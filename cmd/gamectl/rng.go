package main

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/shuffles"
)

func init() {
	commands["rng"] = command{"reproduce any draw of an RNG algorithm", runRNG}
}

const rngUsage = `usage:
  gamectl rng --algo sfc32 --seed STRING [--draw KIND] [--count N] [--raw]
  gamectl rng --algo chacha20 --seed-hex HEX [--draw KIND] [--count N] [--raw]
  gamectl rng --algo hashchain --seed-hex HEX [--session N] [--move N] [--draw KIND] [--count N] [--raw]

Every run draws from a fresh stream. KIND (default u32):
  u32                 raw 32-bit words, one per line
  int:MIN:MAX         the spec's uniformInt(MIN, MAX), one per line
  float01             the spec's float01 (word / 2^32), one per line
  shuffle:N           one line: the algorithm's own shuffle of 0..N-1 (1 <= N <= 1000000):
                      sfc32 sfc32-spec-v1, chacha20 ADR-005's fisher-yates-v1,
                      hashchain GameRng's shuffle (hashchain-v1)
  spec-shuffle:N      one line: the spec's shuffle of 0..N-1 over the source's
                      words (for chacha20 this is chacha20-spec-v1, a fair game's)
  weighted:W1,W2,...  the spec's weightedPick, one "INDEX R" line per pick
  u64                 chacha20 only: raw big-endian uint64s, one per line
  byte                hashchain only: next_byte, one per line
  bounded:MAX         hashchain only: next_bounded(MAX), 0 <= MAX <= 255
  draw:N:K            hashchain only: K draw_card calls on 0..N-1 (1 <= K <= N <= 256)
For chacha20 and hashchain, u32/int/float01/spec-shuffle/weighted use the
spec's arithmetic over that source's Uint32 (rng.New(src)); shuffle, u64 and
the hashchain kinds are the original algorithm's own (rng/shuffles names).
For sfc32, shuffle and spec-shuffle are the same.
--count N: lines (or picks) to print, default 10; not for shuffle and draw.
--raw: the u32 stream as little-endian binary, endless unless --count
(for dieharder or PractRand).

flags:
`

// Limits of the CLI's kinds.
const (
	maxShuffle = 1_000_000
	maxDeck    = 256 // draw_card decks hold u8 cards
)

// rngArgs are the parsed flags of "gamectl rng".
type rngArgs struct {
	algo, seed, seedHex, draw string
	session                   uint64
	move                      uint
	count                     int
	raw                       bool
	set                       map[string]bool // flags given on the command line
}

// drawKind is a parsed --draw: its name and numeric arguments.
type drawKind struct {
	name    string
	a, b    int64
	weights []rng.Weighted[int]
}

func runRNG(args []string, stdout, stderr io.Writer) error {
	var a rngArgs
	fs := newFlagSet("rng", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, rngUsage); fs.PrintDefaults() }
	fs.StringVar(&a.algo, "algo", "sfc32", "algorithm: sfc32, chacha20 or hashchain")
	fs.StringVar(&a.seed, "seed", "", "sfc32 seed string (cyrb128-hashed)")
	fs.StringVar(&a.seedHex, "seed-hex", "", "chacha20/hashchain seed bytes in hex (hashchain: the encoded seed)")
	fs.Uint64Var(&a.session, "session", 0, "hashchain session id (u64)")
	fs.UintVar(&a.move, "move", 0, "hashchain move number (u32)")
	fs.StringVar(&a.draw, "draw", "u32", "what to draw (see above)")
	fs.IntVar(&a.count, "count", 10, "how many lines or picks (--raw: words; endless if not set)")
	fs.BoolVar(&a.raw, "raw", false, "write the u32 stream as little-endian binary")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	a.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { a.set[f.Name] = true })

	stream, native, err := openStream(&a)
	if err != nil {
		return err
	}
	k, err := parseKind(a.draw, a.algo)
	if err != nil {
		return err
	}
	if err := checkCount(&a, k); err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdout, 64<<10)
	if a.raw {
		signal.Ignore(syscall.SIGPIPE) // a closed pipe is the reader's way to stop us
		err = writeRaw(w, stream, a.count, a.set["count"])
	} else {
		err = writeDraws(w, stream, native, k, &a)
	}
	if err == nil {
		err = w.Flush()
	}
	if isClosedPipe(err) {
		return nil
	}
	return err
}

// openStream checks the seed flags of the algorithm and returns the stream
// and the source itself (for the native kinds).
func openStream(a *rngArgs) (*rng.Stream, rng.Source, error) {
	allowed := map[string][]string{
		"sfc32":     {"seed"},
		"chacha20":  {"seed-hex"},
		"hashchain": {"seed-hex", "session", "move"},
	}
	own, ok := allowed[a.algo]
	if !ok {
		return nil, nil, usagef("--algo: unknown algorithm %q (want sfc32, chacha20 or hashchain)", a.algo)
	}
	for _, f := range []string{"seed", "seed-hex", "session", "move"} {
		if a.set[f] && !contains(own, f) {
			return nil, nil, usagef("--%s does not apply to --algo %s", f, a.algo)
		}
	}
	if !a.set[own[0]] {
		return nil, nil, usagef("--algo %s needs --%s", a.algo, own[0])
	}
	switch a.algo {
	case "sfc32":
		s, err := rng.NewSeeded(a.seed)
		if err != nil {
			return nil, nil, usagef("--seed: %v", err)
		}
		return s, nil, nil
	}
	seed, err := hex.DecodeString(a.seedHex)
	if err != nil {
		return nil, nil, usagef("--seed-hex: not hexadecimal: %v", err)
	}
	if a.algo == "chacha20" {
		src := rng.NewChaCha20(seed)
		return rng.New(src), src, nil
	}
	if a.move > 1<<32-1 {
		return nil, nil, usagef("--move: %d does not fit in a u32", a.move)
	}
	src := rng.NewHashChain(seed, a.session, uint32(a.move))
	return rng.New(src), src, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// parseKind parses --draw for the algorithm.
func parseKind(s, algo string) (drawKind, error) {
	name, rest, _ := strings.Cut(s, ":")
	k := drawKind{name: name}
	only := map[string]string{"u64": "chacha20", "byte": "hashchain", "bounded": "hashchain", "draw": "hashchain"}
	if want, ok := only[name]; ok && want != algo {
		return k, usagef("--draw %s is only for --algo %s", name, want)
	}
	noArgs := func() error {
		if rest != "" || strings.Contains(s, ":") {
			return usagef("--draw %s takes no argument", name)
		}
		return nil
	}
	var err error
	switch name {
	case "u32", "float01", "u64", "byte":
		return k, noArgs()
	case "int":
		lo, hi, ok := strings.Cut(rest, ":")
		if k.a, err = strconv.ParseInt(lo, 10, 64); err != nil || !ok {
			return k, usagef("--draw int:MIN:MAX: bad MIN in %q", s)
		}
		if k.b, err = strconv.ParseInt(hi, 10, 64); err != nil {
			return k, usagef("--draw int:MIN:MAX: bad MAX in %q", s)
		}
		if k.a > k.b || uint64(k.b-k.a) >= rng.MaxSpan {
			return k, usagef("--draw %s: need MIN <= MAX and at most 2^32 values", s)
		}
	case "shuffle", "spec-shuffle":
		if k.a, err = strconv.ParseInt(rest, 10, 64); err != nil || k.a < 1 || k.a > maxShuffle {
			return k, usagef("--draw %s:N: N must be 1..%d, not %q", name, maxShuffle, rest)
		}
	case "bounded":
		if k.a, err = strconv.ParseInt(rest, 10, 64); err != nil || k.a < 0 || k.a > 255 {
			return k, usagef("--draw bounded:MAX: MAX must be 0..255, not %q", rest)
		}
	case "draw":
		ns, ks, ok := strings.Cut(rest, ":")
		k.a, err = strconv.ParseInt(ns, 10, 64)
		if err != nil || !ok || k.a < 1 || k.a > maxDeck {
			return k, usagef("--draw draw:N:K: N must be 1..%d in %q", maxDeck, s)
		}
		if k.b, err = strconv.ParseInt(ks, 10, 64); err != nil || k.b < 1 || k.b > k.a {
			return k, usagef("--draw draw:N:K: K must be 1..N in %q", s)
		}
	case "weighted":
		for i, f := range strings.Split(rest, ",") {
			w, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return k, usagef("--draw weighted: weight %d (%q) is not a number", i, f)
			}
			k.weights = append(k.weights, rng.Weighted[int]{Item: i, Weight: w})
		}
		if _, err := rng.WeightedPick(rng.New(fixedSource{}), k.weights, "", nil); err != nil {
			return k, usagef("--draw weighted: %v", err)
		}
	default:
		return k, usagef("--draw: unknown kind %q (see gamectl rng -h)", s)
	}
	return k, nil
}

// fixedSource is a constant source, used only to validate weights.
type fixedSource struct{}

func (fixedSource) Uint32() uint32 { return 0 }

// checkCount applies the --count rules.
func checkCount(a *rngArgs, k drawKind) error {
	if a.raw && k.name != "u32" {
		return usagef("--raw writes the u32 stream; it does not apply to --draw %s", a.draw)
	}
	if (k.name == "shuffle" || k.name == "spec-shuffle" || k.name == "draw") && a.set["count"] {
		return usagef("--count does not apply to --draw %s (its size is in the kind)", a.draw)
	}
	if a.count <= 0 && (a.set["count"] || !a.raw) {
		return usagef("--count must be > 0, not %d", a.count)
	}
	return nil
}

// writeRaw writes little-endian words: count of them if bounded, else
// until the writer fails.
func writeRaw(w *bufio.Writer, s *rng.Stream, count int, bounded bool) error {
	var b [4]byte
	for i := 0; !bounded || i < count; i++ {
		binary.LittleEndian.PutUint32(b[:], s.Uint32("", nil))
		if _, err := w.Write(b[:]); err != nil {
			return err
		}
	}
	return nil
}

// shuffleAlgorithm is the registry's name of each --algo's own shuffle, and
// its seed text from the flags.
func shuffleAlgorithm(a *rngArgs) (name, seed string) {
	switch a.algo {
	case "chacha20":
		return rng.ChaCha20Algorithm, a.seedHex
	case "hashchain":
		return "hashchain-v1", fmt.Sprintf("%s:%d:%d", a.seedHex, a.session, a.move)
	}
	return "sfc32-spec-v1", a.seed
}

// writeDraws prints the kind's lines.
func writeDraws(w *bufio.Writer, s *rng.Stream, native rng.Source, k drawKind, a *rngArgs) error {
	count := a.count
	var buf []byte
	line := func() error {
		buf = append(buf, '\n')
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	switch k.name {
	case "shuffle", "spec-shuffle":
		var perm []int
		if k.name == "shuffle" {
			name, seed := shuffleAlgorithm(a)
			var err error
			if perm, err = shuffles.Permutation(name, seed, int(k.a)); err != nil {
				return usagef("--draw shuffle: %v", err)
			}
		} else {
			perm = make([]int, k.a)
			for i := range perm {
				perm[i] = i
			}
			rng.Shuffle(s, perm, "", nil)
		}
		for i, v := range perm {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(v), 10)
		}
		return line()
	case "draw":
		h := native.(*rng.HashChain)
		deck := make([]byte, k.a)
		for i := range deck {
			deck[i] = byte(i)
		}
		for range k.b {
			var card byte
			card, deck, _ = h.DrawCard(deck)
			buf = strconv.AppendUint(buf, uint64(card), 10)
			if err := line(); err != nil {
				return err
			}
		}
		return nil
	}
	for range count {
		switch k.name {
		case "u32":
			buf = strconv.AppendUint(buf, uint64(s.Uint32("", nil)), 10)
		case "int":
			v, err := s.UniformInt(k.a, k.b, "", nil)
			if err != nil {
				return usagef("--draw int: %v", err)
			}
			buf = strconv.AppendInt(buf, v, 10)
		case "float01":
			buf = strconv.AppendFloat(buf, s.Float01("", nil), 'g', -1, 64)
		case "weighted":
			p, err := rng.WeightedPick(s, k.weights, "", nil)
			if err != nil {
				return usagef("--draw weighted: %v", err)
			}
			buf = strconv.AppendInt(buf, int64(p.Index), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, p.R, 10)
		case "u64":
			buf = strconv.AppendUint(buf, native.(*rng.ChaCha20).Uint64(), 10)
		case "byte":
			buf = strconv.AppendUint(buf, uint64(native.(*rng.HashChain).NextByte()), 10)
		case "bounded":
			buf = strconv.AppendUint(buf, uint64(native.(*rng.HashChain).NextBounded(uint8(k.a))), 10)
		}
		if err := line(); err != nil {
			return err
		}
	}
	return nil
}

// isClosedPipe reports whether err means the reader went away: a broken
// pipe or a closed stdout. Such an end is not an error for a generator.
func isClosedPipe(err error) bool {
	return err != nil && (errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed))
}
