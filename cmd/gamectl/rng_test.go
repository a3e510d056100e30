package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// rngRun runs gamectl with args and returns stdout, stderr and the status.
func rngRun(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

// rngOK runs gamectl, requires exit 0 and no stderr, and returns the lines.
func rngOK(t *testing.T, args ...string) []string {
	t.Helper()
	out, errs, code := rngRun(t, args...)
	if code != 0 || errs != "" {
		t.Fatalf("gamectl %v: exit %d, stderr %q", args, code, errs)
	}
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("gamectl %v: output does not end in a newline: %q", args, out)
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

func rngLoadJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatal(err)
	}
}

// joinNums formats numbers as the CLI does: one per line or space-separated.
func joinNums[T any](xs []T, sep string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, sep)
}

// TestRNGSFC32Vectors checks every line kind of --algo sfc32 against the
// spec's JavaScript numbers in rng/testdata/sfc32/vectors.json.
func TestRNGSFC32Vectors(t *testing.T) {
	var f struct {
		Seeds []struct {
			Seed       string   `json:"seed"`
			U32        []uint32 `json:"u32"`
			UniformInt []struct {
				Min, Max int64
				Values   []int64 `json:"values"`
			} `json:"uniformInt"`
			Float01 struct {
				Values []float64 `json:"values"`
			} `json:"float01"`
			Shuffle []struct {
				N      int   `json:"n"`
				Result []int `json:"result"`
			} `json:"shuffle"`
			WeightedPick []struct {
				Weights []float64 `json:"weights"`
				R       []int64   `json:"r"`
				Index   []int     `json:"index"`
			} `json:"weightedPick"`
		} `json:"seeds"`
	}
	rngLoadJSON(t, "../../rng/testdata/sfc32/vectors.json", &f)
	if len(f.Seeds) == 0 {
		t.Fatal("no sfc32 vectors")
	}
	for _, s := range f.Seeds[:min(3, len(f.Seeds))] {
		base := []string{"rng", "--algo", "sfc32", "--seed", s.Seed}
		n := strconv.Itoa(len(s.U32))
		if got := rngOK(t, append(base, "--count", n)...); strings.Join(got, "\n") != joinNums(s.U32, "\n") {
			t.Errorf("seed %q u32:\n%v\nwant %v", s.Seed, got, s.U32)
		}
		for _, u := range s.UniformInt {
			kind := fmt.Sprintf("int:%d:%d", u.Min, u.Max)
			got := rngOK(t, append(base, "--draw", kind, "--count", strconv.Itoa(len(u.Values)))...)
			if strings.Join(got, "\n") != joinNums(u.Values, "\n") {
				t.Errorf("seed %q %s:\n%v\nwant %v", s.Seed, kind, got, u.Values)
			}
		}
		got := rngOK(t, append(base, "--draw", "float01", "--count", strconv.Itoa(len(s.Float01.Values)))...)
		for i, line := range got {
			if v, err := strconv.ParseFloat(line, 64); err != nil || v != s.Float01.Values[i] {
				t.Errorf("seed %q float01 #%d = %s, want %v", s.Seed, i, line, s.Float01.Values[i])
			}
		}
		for _, sh := range s.Shuffle {
			if sh.N < 1 {
				continue
			}
			got := rngOK(t, append(base, "--draw", "shuffle:"+strconv.Itoa(sh.N))...)
			if len(got) != 1 || got[0] != joinNums(sh.Result, " ") {
				t.Errorf("seed %q shuffle:%d = %v", s.Seed, sh.N, got)
			}
		}
		for _, w := range s.WeightedPick {
			kind := "weighted:" + joinNums(w.Weights, ",")
			got := rngOK(t, append(base, "--draw", kind, "--count", strconv.Itoa(len(w.R)))...)
			for i, line := range got {
				if want := fmt.Sprintf("%d %d", w.Index[i], w.R[i]); line != want {
					t.Fatalf("seed %q %s pick %d = %q, want %q", s.Seed, kind, i, line, want)
				}
			}
		}
	}
}

// TestRNGChaCha20Vectors checks --algo chacha20 against the OpenSSL-made
// vectors (u32, u64) and the spec kinds against rng.New over the source.
func TestRNGChaCha20Vectors(t *testing.T) {
	var f struct {
		Vectors []struct {
			SeedHex   string   `json:"seed_hex"`
			Uint64    []string `json:"uint64"`
			Uint32    []uint32 `json:"uint32"`
			Shuffle52 []int    `json:"shuffle52"`
		} `json:"vectors"`
	}
	rngLoadJSON(t, "../../rng/testdata/chacha20/vectors.json", &f)
	for _, v := range f.Vectors {
		base := []string{"rng", "--algo", "chacha20", "--seed-hex", v.SeedHex}
		if got := rngOK(t, append(base, "--count", strconv.Itoa(len(v.Uint32)))...); strings.Join(got, "\n") != joinNums(v.Uint32, "\n") {
			t.Errorf("seed %s u32 = %v", v.SeedHex, got)
		}
		if got := rngOK(t, append(base, "--draw", "u64", "--count", strconv.Itoa(len(v.Uint64)))...); strings.Join(got, "\n") != strings.Join(v.Uint64, "\n") {
			t.Errorf("seed %s u64 = %v", v.SeedHex, got)
		}
		// shuffle:N is ADR-005's fisher-yates-v1, as OpenSSL's ChaCha20 makes it.
		if got := rngOK(t, append(base, "--draw", "shuffle:52")...); len(got) != 1 || got[0] != joinNums(v.Shuffle52, " ") {
			t.Errorf("seed %s shuffle:52 = %v, want %v", v.SeedHex, got, v.Shuffle52)
		}
		seed, _ := hex.DecodeString(v.SeedHex)
		rngCheckSpecKinds(t, base, func() rng.Source { return rng.NewChaCha20(seed) })
	}
	zero := rngOK(t, "rng", "--algo", "chacha20", "--seed-hex", strings.Repeat("00", 32), "--draw", "shuffle:52")
	if !strings.HasPrefix(zero[0], "4 17 35 ") {
		t.Errorf("zero seed fisher-yates-v1 starts %q, want 4 17 35", zero[0])
	}
	spec := rngOK(t, "rng", "--algo", "chacha20", "--seed-hex", strings.Repeat("00", 32), "--draw", "spec-shuffle:52")
	if !strings.HasPrefix(spec[0], "3 30 33 ") {
		t.Errorf("zero seed chacha20-spec-v1 starts %q, want 3 30 33", spec[0])
	}
}

// rngCheckSpecKinds checks int, float01, shuffle and weighted of an
// algorithm against the library's Stream over a fresh source.
func rngCheckSpecKinds(t *testing.T, base []string, src func() rng.Source) {
	t.Helper()
	s := rng.New(src())
	var want []string
	for range 10 {
		v, _ := s.UniformInt(-3, 1000, "", nil)
		want = append(want, strconv.FormatInt(v, 10))
	}
	if got := rngOK(t, append(base, "--draw", "int:-3:1000")...); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%v int:-3:1000 = %v, want %v", base, got, want)
	}
	s, want = rng.New(src()), nil
	for range 10 {
		want = append(want, strconv.FormatFloat(s.Float01("", nil), 'g', -1, 64))
	}
	if got := rngOK(t, append(base, "--draw", "float01")...); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%v float01 = %v, want %v", base, got, want)
	}
	perm := make([]int, 52)
	for i := range perm {
		perm[i] = i
	}
	rng.Shuffle(rng.New(src()), perm, "", nil)
	if got := rngOK(t, append(base, "--draw", "spec-shuffle:52")...); len(got) != 1 || got[0] != joinNums(perm, " ") {
		t.Errorf("%v spec-shuffle:52 = %v, want %v", base, got, perm)
	}
	s, want = rng.New(src()), nil
	items := []rng.Weighted[int]{{Item: 0, Weight: 5}, {Item: 1, Weight: 1}, {Item: 2, Weight: 94}}
	for range 3 {
		p, _ := rng.WeightedPick(s, items, "", nil)
		want = append(want, fmt.Sprintf("%d %d", p.Index, p.R))
	}
	if got := rngOK(t, append(base, "--draw", "weighted:5,1,94", "--count", "3")...); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%v weighted = %v, want %v", base, got, want)
	}
}

// TestRNGHashChainVectors checks --algo hashchain's native kinds against
// the JavaScript vectors and its spec kinds against rng.New over it.
func TestRNGHashChainVectors(t *testing.T) {
	var f struct {
		Vectors []struct {
			SeedHex string `json:"seed_hex"`
			Session string `json:"session"`
			Move    uint32 `json:"move"`
			Bytes   []int  `json:"bytes"`
			U32     struct {
				Values []uint32 `json:"values"`
			} `json:"u32"`
			Bounded []struct {
				Max    int   `json:"max"`
				Values []int `json:"values"`
			} `json:"bounded"`
			Draw52x10 struct {
				Values []int `json:"values"`
			} `json:"draw52x10"`
			Draw256x5 struct {
				Values []int `json:"values"`
			} `json:"draw256x5"`
			Shuffle52 struct {
				Values []int `json:"values"`
			} `json:"shuffle52"`
		} `json:"vectors"`
	}
	rngLoadJSON(t, "../../rng/testdata/hashchain/vectors.json", &f)
	for _, v := range f.Vectors {
		base := []string{"rng", "--algo", "hashchain", "--seed-hex", v.SeedHex,
			"--session", v.Session, "--move", strconv.FormatUint(uint64(v.Move), 10)}
		check := func(kind string, count int, want string) {
			t.Helper()
			args := append(base, "--draw", kind)
			if count > 0 {
				args = append(args, "--count", strconv.Itoa(count))
			}
			if got := strings.Join(rngOK(t, args...), "\n"); got != want {
				t.Errorf("%v:\n got %s\nwant %s", args, got, want)
			}
		}
		check("byte", len(v.Bytes), joinNums(v.Bytes, "\n"))
		check("u32", len(v.U32.Values), joinNums(v.U32.Values, "\n"))
		for _, b := range v.Bounded {
			check("bounded:"+strconv.Itoa(b.Max), len(b.Values), joinNums(b.Values, "\n"))
		}
		check("draw:52:10", 0, joinNums(v.Draw52x10.Values, "\n"))
		check("draw:256:5", 0, joinNums(v.Draw256x5.Values, "\n"))
		check("shuffle:52", 0, joinNums(v.Shuffle52.Values, " "))

		seed, _ := hex.DecodeString(v.SeedHex)
		session, _ := strconv.ParseUint(v.Session, 10, 64)
		rngCheckSpecKinds(t, base, func() rng.Source { return rng.NewHashChain(seed, session, v.Move) })
	}
}

// TestRNGDefaults: u32, 10 lines, sfc32 unless told.
func TestRNGDefaults(t *testing.T) {
	got := rngOK(t, "rng", "--seed", "abc")
	s, _ := rng.NewSeeded("abc")
	if len(got) != 10 || got[0] != strconv.FormatUint(uint64(s.Uint32("", nil)), 10) {
		t.Fatalf("defaults: %v", got)
	}
	if h := rngOK(t, "rng", "--algo", "hashchain", "--seed-hex", "00"); len(h) != 10 {
		t.Fatalf("hashchain defaults to session 0, move 0 and 10 lines: %v", h)
	}
}

// TestRNGRaw checks --raw: little-endian words of the u32 stream.
func TestRNGRaw(t *testing.T) {
	for _, args := range [][]string{
		{"--algo", "sfc32", "--seed", "abc"},
		{"--algo", "chacha20", "--seed-hex", "ff"},
		{"--algo", "hashchain", "--seed-hex", "ff", "--session", "3"},
	} {
		out, errs, code := rngRun(t, append([]string{"rng", "--raw", "--count", "1000"}, args...)...)
		lines := rngOK(t, append([]string{"rng", "--count", "1000"}, args...)...)
		if code != 0 || errs != "" || len(out) != 4000 {
			t.Fatalf("%v --raw: exit %d, %q, %d bytes", args, code, errs, len(out))
		}
		for i, line := range lines {
			if got := binary.LittleEndian.Uint32([]byte(out[4*i:])); strconv.FormatUint(uint64(got), 10) != line {
				t.Fatalf("%v --raw word %d = %d, want %s", args, i, got, line)
			}
		}
	}
}

// pipeWriter accepts limit bytes, then fails as a closed pipe does.
type pipeWriter struct {
	n, limit int
	err      error
}

func (w *pipeWriter) Write(p []byte) (int, error) {
	if w.n+len(p) > w.limit {
		return 0, w.err
	}
	w.n += len(p)
	return len(p), nil
}

// TestRNGRawEndlessStopsQuietly: without --count, --raw writes until the
// reader goes away, then exits 0 without a message.
func TestRNGRawEndlessStopsQuietly(t *testing.T) {
	for _, e := range []error{syscall.EPIPE, os.ErrClosed} {
		w := &pipeWriter{limit: 1 << 20, err: &os.PathError{Op: "write", Path: "/dev/stdout", Err: e}}
		var errb bytes.Buffer
		if code := run([]string{"rng", "--seed", "x", "--raw"}, w, &errb); code != 0 || errb.Len() != 0 {
			t.Fatalf("%v: exit %d, stderr %q", e, code, errb.String())
		}
		if w.n < 1<<19 {
			t.Fatalf("%v: only %d bytes written", e, w.n)
		}
	}
}
