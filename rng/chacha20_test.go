package rng

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"

	"golang.org/x/crypto/chacha20"
)

// ccVectorFile is testdata/chacha20/vectors.json, written by gen.mjs from
// OpenSSL's ChaCha20 (checked there against RFC 8439 2.4.2 first).
type ccVectorFile struct {
	Algorithm string `json:"algorithm"`
	RFC       struct {
		KeyHex        string `json:"key_hex"`
		NonceHex      string `json:"nonce_hex"`
		Counter       uint32 `json:"counter"`
		Plaintext     string `json:"plaintext"`
		CiphertextHex string `json:"ciphertext_hex"`
	} `json:"rfc8439_2_4_2"`
	Vectors []ccVector `json:"vectors"`
}

// ccVector is one seed's values in vectors.json.
type ccVector struct {
	Name         string   `json:"name"`
	SeedHex      string   `json:"seed_hex"`
	KeyHex       string   `json:"key_hex"`
	KeystreamHex string   `json:"keystream256_hex"`
	Uint64       []string `json:"uint64"`
	Uint32       []uint32 `json:"uint32"`
	Intn         []struct {
		N      int   `json:"n"`
		Values []int `json:"values"`
	} `json:"intn"`
	Shuffle52 []int    `json:"shuffle52"`
	Deck      []string `json:"deck"`
}

func ccLoad(t *testing.T) ccVectorFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/chacha20/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f ccVectorFile
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) < 5 {
		t.Fatalf("vectors.json has %d seeds, want at least 5", len(f.Vectors))
	}
	return f
}

func ccHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func TestChaCha20AlgorithmName(t *testing.T) {
	if f := ccLoad(t); f.Algorithm != ChaCha20Algorithm || ChaCha20Algorithm != "fisher-yates-v1" {
		t.Fatalf("algorithm %q, vectors %q; want fisher-yates-v1", ChaCha20Algorithm, f.Algorithm)
	}
}

// TestChaCha20RFC8439 checks x/crypto's ChaCha20 (what ChaCha20 runs on)
// against RFC 8439 2.4.2, and the ChaCha20 type itself (zero nonce, counter
// from 0) against RFC 8439 appendix A.1 test vectors #1 and #2: the
// keystream of the all-zero key for block counters 0 and 1.
func TestChaCha20RFC8439(t *testing.T) {
	f := ccLoad(t)
	c, err := chacha20.NewUnauthenticatedCipher(ccHex(t, f.RFC.KeyHex), ccHex(t, f.RFC.NonceHex))
	if err != nil {
		t.Fatal(err)
	}
	c.SetCounter(f.RFC.Counter)
	got := make([]byte, len(f.RFC.Plaintext))
	c.XORKeyStream(got, []byte(f.RFC.Plaintext))
	if want := ccHex(t, f.RFC.CiphertextHex); !bytes.Equal(got, want) {
		t.Fatalf("RFC 8439 2.4.2 ciphertext\n got %x\nwant %x", got, want)
	}

	const a1 = "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7" +
		"da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586" + // A.1 #1, counter 0
		"9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed" +
		"29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f" // A.1 #2, counter 1
	for _, fast := range []bool{true, false} {
		ks := make([]byte, 128)
		newChaCha20Key([32]byte{}, fast).Read(ks)
		if want := ccHex(t, a1); !bytes.Equal(ks, want) {
			t.Fatalf("fast %v: RFC 8439 A.1 keystream\n got %x\nwant %x", fast, ks, want)
		}
	}
}

// TestChaCha20Vectors checks every OpenSSL vector on both ways of making
// the keystream: fast (the AEAD prefix, where this build has it) and plain
// (x/crypto's chacha20 for every block).
func TestChaCha20Vectors(t *testing.T) {
	for _, v := range ccLoad(t).Vectors {
		for _, fast := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/fast=%v", v.Name, fast), func(t *testing.T) {
				ccCheckVector(t, v, fast)
			})
		}
	}
}

// ccCheckVector checks one seed's vector on the fast or plain stream;
// ShuffleDeck and VerifyShuffle are always the package's own (fast).
func ccCheckVector(t *testing.T, v ccVector, fast bool) {
	seed := ccHex(t, v.SeedHex)
	newStream := func() *ChaCha20 { return newChaCha20Key(sha256.Sum256(seed), fast) }
	if key := sha256.Sum256(seed); hex.EncodeToString(key[:]) != v.KeyHex {
		t.Fatalf("key %x, want %s", key, v.KeyHex)
	}
	ks := make([]byte, 256)
	newStream().Read(ks)
	if got := hex.EncodeToString(ks); got != v.KeystreamHex {
		t.Fatalf("keystream\n got %s\nwant %s", got, v.KeystreamHex)
	}
	r := newStream()
	for i, s := range v.Uint64 {
		want, _ := strconv.ParseUint(s, 10, 64)
		if got := r.Uint64(); got != want {
			t.Fatalf("Uint64 #%d = %d, want %d", i, got, want)
		}
	}
	r = newStream()
	for i, want := range v.Uint32 {
		if got := r.Uint32(); got != want {
			t.Fatalf("Uint32 #%d = %d, want %d", i, got, want)
		}
	}
	for _, in := range v.Intn {
		r := newStream()
		for i, want := range in.Values {
			if got := r.Intn(in.N); got != want {
				t.Fatalf("Intn(%d) #%d = %d, want %d", in.N, i, got, want)
			}
		}
	}
	perm := make([]int, 52)
	for i := range perm {
		perm[i] = i
	}
	newStream().Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	if !slices.Equal(perm, v.Shuffle52) {
		t.Fatalf("shuffle of 0..51\n got %v\nwant %v", perm, v.Shuffle52)
	}
	if got := ShuffleDeck(seed); !slices.Equal(got, v.Deck) {
		t.Fatalf("ShuffleDeck\n got %v\nwant %v", got, v.Deck)
	}
	if actual, ok := VerifyShuffle(seed, v.Deck); !ok || !slices.Equal(actual, v.Deck) {
		t.Fatalf("VerifyShuffle of the true deck = %v, %v", actual, ok)
	}
}

// TestChaCha20MixedReads checks that Uint32, Uint64 and Read of any size,
// mixed, take consecutive keystream bytes across buffer refills.
func TestChaCha20MixedReads(t *testing.T) {
	seed := []byte("mixed")
	want := make([]byte, 5000)
	NewChaCha20(seed).Read(want)
	r := NewChaCha20(seed)
	off := 0
	for step := 0; off < 4900; step++ {
		switch step % 4 {
		case 0:
			if got, w := r.Uint32(), binary.BigEndian.Uint32(want[off:]); got != w {
				t.Fatalf("step %d: Uint32 at byte %d = %d, want %d", step, off, got, w)
			}
			off += 4
		case 1:
			if got, w := r.Uint64(), binary.BigEndian.Uint64(want[off:]); got != w {
				t.Fatalf("step %d: Uint64 at byte %d = %d, want %d", step, off, got, w)
			}
			off += 8
		case 2:
			p := make([]byte, step%67) // odd sizes leave reads straddling the buffer edge
			r.Read(p)
			if !bytes.Equal(p, want[off:off+len(p)]) {
				t.Fatalf("step %d: Read at byte %d differs", step, off)
			}
			off += len(p)
		case 3:
			const n = 1_000_003
			if got, w := r.Intn(n), int(binary.BigEndian.Uint64(want[off:])%n); got != w {
				t.Fatalf("step %d: Intn at byte %d = %d, want %d", step, off, got, w)
			}
			off += 8
		}
	}
}

func TestChaCha20IntnPanicsOnBadN(t *testing.T) {
	for _, n := range []int{0, -1} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Intn(%d) did not panic", n)
				}
			}()
			NewChaCha20(nil).Intn(n)
		}()
	}
}

func TestChaCha20IsASource(t *testing.T) {
	s := New(NewChaCha20([]byte("a")))
	r := NewChaCha20([]byte("a"))
	for i := range 10 {
		if got, want := s.Uint32("", nil), r.Uint32(); got != want {
			t.Fatalf("Stream word %d = %d, want %d", i, got, want)
		}
	}
}

func TestVerifyShuffleRejects(t *testing.T) {
	seed := make([]byte, 32)
	good := ShuffleDeck(seed)
	swapped := slices.Clone(good)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	for name, claim := range map[string][]string{
		"swapped":    swapped,
		"short":      good[:51],
		"unshuffled": NewDeck(),
		"empty":      nil,
	} {
		actual, ok := VerifyShuffle(seed, claim)
		if ok || !slices.Equal(actual, good) {
			t.Errorf("%s: VerifyShuffle = ok %v, actual matches %v", name, ok, slices.Equal(actual, good))
		}
	}
}

func TestNewDeckOrder(t *testing.T) {
	d := NewDeck()
	if len(d) != 52 || d[0] != "AS" || d[9] != "10S" || d[12] != "KS" || d[13] != "AH" ||
		d[26] != "AD" || d[39] != "AC" || d[51] != "KC" {
		t.Fatalf("deck order: %v", d)
	}
	seen := map[string]bool{}
	for _, c := range d {
		if seen[c] {
			t.Fatalf("duplicate %s", c)
		}
		seen[c] = true
	}
}

// TestChaCha20ShuffleUniformity is ADR-005's fairness test: 10,000
// fisher-yates-v1 shuffles of the 52-card deck, seeds 0..9999 as 8-byte
// big-endian numbers. For each card, its positions over the shuffles form a
// 52-cell table with expected count 10000/52 each; its chi-square statistic
// has 51 degrees of freedom.
//
// One card at the ADR's 5% level would fail 1 run in 20 by chance, and 52
// cards make some failure almost sure, so the threshold is Bonferroni-
// corrected: family-wise level 1%, per-card level 0.01/52 = 1.92e-4, whose
// chi-square(51) critical value is 94.77 (upper quantile, computed from the
// regularised incomplete gamma function). The 5% value, 68.67, is logged for
// reference: about 2.6 of 52 cards are expected to pass it. With fixed seeds
// the outcome is deterministic; the threshold says how unlucky that fixed
// outcome would have to be to fail.
func TestChaCha20ShuffleUniformity(t *testing.T) {
	const (
		trials   = 10000
		cells    = 52
		critical = 94.77 // chi-square(51) at 1 - 0.01/52
		crit5pct = 68.67 // chi-square(51) at 0.95
	)
	var counts [cells][cells]int // counts[card][position]
	deck := make([]int, cells)
	var seed [8]byte
	for s := range trials {
		binary.BigEndian.PutUint64(seed[:], uint64(s))
		for i := range deck {
			deck[i] = i
		}
		NewChaCha20(seed[:]).Shuffle(cells, func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
		for pos, card := range deck {
			counts[card][pos]++
		}
	}
	expected := float64(trials) / cells
	over5, worst := 0, 0.0
	for card := range counts {
		chi := 0.0
		for _, c := range counts[card] {
			d := float64(c) - expected
			chi += d * d / expected
		}
		if chi > critical {
			t.Errorf("card %d: chi-square %.2f > %.2f (df 51, per-card level 1.92e-4)", card, chi, critical)
		}
		if chi > crit5pct {
			over5++
		}
		worst = max(worst, chi)
	}
	t.Logf("largest chi-square %.2f; %d of 52 cards above the 5%% value %.2f", worst, over5, crit5pct)
}
