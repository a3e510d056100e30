package srabaseline

import (
	"math/big"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// The baseline must be the shuffle that worked: 3 players shuffle 6 cards
// at 2048 bits, and every position opens, with every player's key, to a
// card number; together they are 0..5, each once. The expected numbers
// are the deck's definition, not the code's output. Positive control: a
// position opened with one key missing decodes to no card.
func TestBaselineShuffleOpensToAPermutation(t *testing.T) {
	const n, players = 6, 3
	g := MODP2048()
	if g.Bits() != 2048 {
		t.Fatalf("%d bits, want 2048", g.Bits())
	}
	ps := make([]*Player, players)
	for i := range ps {
		var err error
		if ps[i], err = NewPlayer(g, rng.NewChaCha20([]byte{'s', byte(i)})); err != nil {
			t.Fatal(err)
		}
	}
	d, err := InitialDeck(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, pass := range []func(*Player, Deck) (Deck, error){Shuffle1, Shuffle2} {
		for _, p := range ps {
			if d, err = pass(p, d); err != nil {
				t.Fatal(err)
			}
		}
	}
	var got []int
	for k, c := range d {
		keys := make([]Key, players)
		for i, p := range ps {
			if keys[i], err = RevealKey(p, k); err != nil {
				t.Fatal(err)
			}
		}
		card, err := Open(c, keys...)
		if err != nil {
			t.Fatalf("position %d: %v", k, err)
		}
		got = append(got, card)
		if _, err := Open(c, keys[1:]...); err == nil {
			t.Fatalf("position %d opened without player 0's key", k)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, []int{0, 1, 2, 3, 4, 5}) {
		t.Fatalf("opened %v, want 0..5 once each", got)
	}
	// The RFC 3526 group 14 prime begins and ends with 64 one bits (RFC
	// 3526 section 3).
	ones := new(big.Int).SetUint64(^uint64(0))
	if p := g.P(); new(big.Int).And(p, ones).Cmp(ones) != 0 || new(big.Int).Rsh(p, 2048-64).Cmp(ones) != 0 {
		t.Fatal("not the RFC 3526 prime")
	}
}

// Only test files of rng/mentalpoker import the baseline: no package's
// non-test code does (the Go internal rule keeps everything outside
// rng/mentalpoker out already).
func TestOnlyTheBenchmarkImports(t *testing.T) {
	const self = "github.com/fairboard/fairboard/rng/mentalpoker/internal/srabaseline"
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}|{{join .Imports " "}}|{{join .TestImports " "}} {{join .XTestImports " "}}`,
		"github.com/fairboard/fairboard/rng/mentalpoker/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	tested := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list line %q", line)
		}
		if slices.Contains(strings.Fields(f[1]), self) {
			t.Errorf("%s imports the baseline outside its tests", f[0])
		}
		if f[0] == "github.com/fairboard/fairboard/rng/mentalpoker" && slices.Contains(strings.Fields(f[2]), self) {
			tested = true
		}
	}
	// Positive control of the parse: the benchmark's own import is seen.
	if !tested {
		t.Error("rng/mentalpoker's tests do not import the baseline: the go list parse is wrong")
	}
}
