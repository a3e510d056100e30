package commitreveal

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

type vectorFile struct {
	CommitDomain    string   `json:"commit_domain"`
	FinalSeedDomain string   `json:"final_seed_domain"`
	Algorithm       string   `json:"algorithm"`
	Vectors         []vector `json:"vectors"`
}

type vector struct {
	About      string   `json:"about"`
	ServerSeed string   `json:"server_seed_hex"`
	ClientSeed string   `json:"client_seed_hex"`
	Deck       []string `json:"deck"`
	Commit     string   `json:"commit_hex"`
	FinalSeed  string   `json:"final_seed_hex"`
	Dealt      []string `json:"dealt"`
}

func loadVectors(t *testing.T) vectorFile {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) < 5 {
		t.Fatalf("only %d vectors", len(f.Vectors))
	}
	return f
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestVectors checks every function against the values Node computed.
func TestVectors(t *testing.T) {
	f := loadVectors(t)
	if f.CommitDomain != CommitDomain || f.FinalSeedDomain != FinalSeedDomain || f.Algorithm != rng.ChaCha20Algorithm {
		t.Fatalf("vectors made for %q/%q/%q", f.CommitDomain, f.FinalSeedDomain, f.Algorithm)
	}
	for _, v := range f.Vectors {
		t.Run(v.About, func(t *testing.T) {
			server, client := unhex(t, v.ServerSeed), unhex(t, v.ClientSeed)
			c, err := Commit(server, v.Deck)
			if err != nil || c.String() != v.Commit {
				t.Fatalf("Commit = %s, %v; want %s", c, err, v.Commit)
			}
			pc, err := ParseCommitment(v.Commit)
			if err != nil || pc != c {
				t.Fatalf("ParseCommitment(%s) = %s, %v", v.Commit, pc, err)
			}
			fs, err := FinalSeed(server, client)
			if err != nil || hex.EncodeToString(fs[:]) != v.FinalSeed {
				t.Fatalf("FinalSeed = %x, %v; want %s", fs, err, v.FinalSeed)
			}
			dealt, err := ShuffleOf(fs, v.Deck)
			if err != nil || !slices.Equal(dealt, v.Dealt) {
				t.Fatalf("ShuffleOf = %v, %v; want %v", dealt, err, v.Dealt)
			}
			if _, err := VerifyShuffleOf(server, client, v.Deck, v.Dealt); err != nil {
				t.Fatalf("VerifyShuffleOf: %v", err)
			}
			if err := Verify(c, server, client, v.Deck, v.Dealt); err != nil {
				t.Fatalf("Verify: %v", err)
			}
			if slices.Equal(v.Deck, rng.NewDeck()) {
				if _, err := VerifyShuffle(server, client, v.Dealt); err != nil {
					t.Fatalf("VerifyShuffle: %v", err)
				}
				if want := rng.ShuffleDeck(fs[:]); !slices.Equal(want, v.Dealt) {
					t.Fatalf("rng.ShuffleDeck(final) = %v, want %v", want, v.Dealt)
				}
			}
			checkRound(t, server, client, v.Deck, c, v.Dealt)
		})
	}
}

// checkRound plays the vector's round on both sides and checks what each
// side ends with.
func checkRound(t *testing.T, server, client []byte, deck []string, c Commitment, dealt []string) {
	t.Helper()
	sr, err := NewServerRoundSeed(server, deck)
	if err != nil || sr.Commitment() != c {
		t.Fatalf("NewServerRoundSeed: %v, commitment %s want %s", err, sr.Commitment(), c)
	}
	cr, err := NewClientRound(sr.Commitment(), deck)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*Round{sr, cr} {
		if err := r.SetClientSeed(client); err != nil {
			t.Fatal(err)
		}
	}
	got, err := sr.Dealt()
	if err != nil || !slices.Equal(got, dealt) {
		t.Fatalf("server Dealt = %v, %v", got, err)
	}
	revealed, err := sr.Reveal()
	if err != nil {
		t.Fatal(err)
	}
	if err := cr.AcceptReveal(revealed); err != nil {
		t.Fatal(err)
	}
	if got, err := cr.Dealt(); err != nil || !slices.Equal(got, dealt) {
		t.Fatalf("client Dealt = %v, %v", got, err)
	}
	if err := cr.CheckDealt(dealt); err != nil {
		t.Fatal(err)
	}
}

// TestVectorsAmbiguity pins why the fields are length-prefixed: the two
// ambiguity vectors are one input under the ADR's plain concatenation (same
// seed, decks "1"+"0D" and "10D"), yet their commitments differ.
func TestVectorsAmbiguity(t *testing.T) {
	f := loadVectors(t)
	var amb []vector
	for _, v := range f.Vectors {
		if len(v.Deck) <= 2 && v.ClientSeed == hex.EncodeToString([]byte("0D")) {
			amb = append(amb, v)
		}
	}
	if len(amb) != 2 {
		t.Fatalf("want 2 ambiguity vectors, have %d", len(amb))
	}
	a, b := amb[0], amb[1]
	concat := func(v vector) string { return v.ServerSeed + hex.EncodeToString([]byte(strings.Join(v.Deck, ""))) }
	if concat(a) != concat(b) {
		t.Fatal("the two vectors are not the same plain concatenation")
	}
	if a.Commit == b.Commit {
		t.Fatal("commitments of different decks are equal")
	}
}
