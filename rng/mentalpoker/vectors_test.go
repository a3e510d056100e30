package mentalpoker

import (
	"bufio"
	"crypto/sha512"
	"encoding/hex"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cloudflare/circl/group"
)

// TestWorkedExampleVectors pins docs/fairness.md's worked example against
// testdata/vectors.txt, which testdata/vectors.py computes with its own
// ristretto255 and hash-to-group in plain Python integers (checked there
// against RFC 9496's and RFC 9380's published vectors), not with this
// package or circl: the card points of game "fairboard-example" hand 1,
// seat 0's common key a and A = a·G, the masked cards a·C_i of its first
// pass, and its key k for position 0 with K = k·G and its pass-2 output
// (k/a)·(a·C_0) = k·C_0.
func TestWorkedExampleVectors(t *testing.T) {
	f, err := os.Open("testdata/vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), " "); ok {
			want[k] = v
		}
	}
	if len(want) != 17 {
		t.Fatalf("%d vectors in vectors.txt, want 17", len(want))
	}
	check := func(name string, got []byte) {
		t.Helper()
		if h := hex.EncodeToString(got); h != want[name] {
			t.Errorf("%s = %s, the independent script says %s", name, h, want[name])
		}
	}
	cards, err := CardPoints(want["game"], 1, 5)
	if err != nil {
		t.Fatal(err)
	}
	a, k := exampleScalar("fairboard example: seat 0 common key"), exampleScalar("fairboard example: seat 0 key for position 0")
	ab, kb := encodeScalar(a), encodeScalar(k)
	check("a", ab[:])
	check("k", kb[:])
	A := encode(g.NewElement().MulGen(a))
	check("A", A[:])
	K := encode(g.NewElement().MulGen(k))
	check("K", K[:])
	var masked []group.Element
	for i, c := range cards {
		check("card"+string(rune('0'+i)), c[:])
		x, err := decodePoint(c)
		if err != nil {
			t.Fatal(err)
		}
		masked = append(masked, g.NewElement().Mul(x, a))
		m := encode(masked[i])
		check("aCard"+string(rune('0'+i)), m[:])
	}
	ka := g.NewScalar().Mul(k, g.NewScalar().Inv(a))
	out := encode(g.NewElement().Mul(masked[0], ka))
	check("kCard0", out[:])
}

// TestDocsVectors: every value of testdata/vectors.txt appears in
// docs/fairness.md's worked example, so the page a third party reads holds
// the values the independent script computes.
func TestDocsVectors(t *testing.T) {
	doc, err := os.ReadFile("../../docs/fairness.md")
	if err != nil {
		t.Fatal(err)
	}
	vec, err := os.ReadFile("testdata/vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(vec)), "\n") {
		name, v, _ := strings.Cut(line, " ")
		if len(v) == 64 {
			n++
			if !strings.Contains(string(doc), "`"+v+"`") {
				t.Errorf("docs/fairness.md lacks %s = %s", name, v)
			}
		}
	}
	if n != 15 {
		t.Fatalf("%d hex vectors, want 15", n)
	}
}

// exampleScalar is SHA-512(label) as a little-endian integer mod ℓ, the
// example's fixed keys.
func exampleScalar(label string) group.Scalar {
	h := sha512.Sum512([]byte(label))
	slices.Reverse(h[:])
	ell, _ := new(big.Int).SetString("1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed", 16)
	return g.NewScalar().SetBigInt(new(big.Int).Mod(new(big.Int).SetBytes(h[:]), ell))
}
