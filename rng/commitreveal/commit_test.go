package commitreveal

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/rng"
)

func testSeed(b byte) []byte { return bytes.Repeat([]byte{b}, SeedSize) }

func TestNewServerSeed(t *testing.T) {
	a, b := NewServerSeed(), NewServerSeed()
	if len(a) != SeedSize || len(b) != SeedSize {
		t.Fatalf("lengths %d, %d", len(a), len(b))
	}
	if bytes.Equal(a, b) {
		t.Fatal("two server seeds are equal")
	}
}

// TestRoundTrip: what an honest server publishes verifies, with the
// standard deck and a custom one.
func TestRoundTrip(t *testing.T) {
	server, client := NewServerSeed(), []byte("client entropy")
	for _, deck := range [][]string{rng.NewDeck(), {"x", "y", "z"}} {
		c, err := Commit(server, deck)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyReveal(c, server, deck); err != nil {
			t.Fatal(err)
		}
		fs, err := FinalSeed(server, client)
		if err != nil {
			t.Fatal(err)
		}
		dealt, err := ShuffleOf(fs, deck)
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(c, server, client, deck, dealt); err != nil {
			t.Fatal(err)
		}
		sorted := slices.Sorted(slices.Values(dealt))
		if !slices.Equal(sorted, slices.Sorted(slices.Values(deck))) {
			t.Fatalf("dealt %v is not a permutation of %v", dealt, deck)
		}
	}
}

// TestTamperDetected changes each field in turn; every change is caught
// with the right error.
func TestTamperDetected(t *testing.T) {
	server, client, deck := testSeed(1), []byte("c"), rng.NewDeck()
	c, _ := Commit(server, deck)
	fs, _ := FinalSeed(server, client)
	dealt, _ := ShuffleOf(fs, deck)
	if err := Verify(c, server, client, deck, dealt); err != nil {
		t.Fatal(err)
	}
	flip := func(b []byte, i int) []byte { b = slices.Clone(b); b[i] ^= 1; return b }
	swap := func(d []string, i, j int) []string { d = slices.Clone(d); d[i], d[j] = d[j], d[i]; return d }
	badC := c
	badC[31] ^= 0x80
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"commitment", Verify(badC, server, client, deck, dealt), ErrCommitMismatch},
		{"server seed first byte", Verify(c, flip(server, 0), client, deck, dealt), ErrCommitMismatch},
		{"server seed last byte", Verify(c, flip(server, SeedSize-1), client, deck, dealt), ErrCommitMismatch},
		{"committed deck order", Verify(c, server, client, swap(deck, 0, 51), dealt), ErrCommitMismatch},
		{"committed deck card", Verify(c, server, client, append(slices.Clone(deck[:51]), "KC "), dealt), ErrCommitMismatch},
		{"committed deck short", Verify(c, server, client, deck[:51], dealt), ErrCommitMismatch},
		{"client seed", Verify(c, server, []byte("d"), deck, dealt), ErrShuffleMismatch},
		{"client seed longer", Verify(c, server, []byte("c\x00"), deck, dealt), ErrShuffleMismatch},
		{"dealt order", Verify(c, server, client, deck, swap(dealt, 10, 11)), ErrShuffleMismatch},
		{"dealt short", Verify(c, server, client, deck, dealt[1:]), ErrShuffleMismatch},
		{"dealt nil", Verify(c, server, client, deck, nil), ErrShuffleMismatch},
	}
	for _, tc := range cases {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

// TestServerCannotReseed: a server that, having seen the client's seed,
// grinds for a server seed that deals itself a better first card is caught
// at the reveal, whatever seed it picks.
func TestServerCannotReseed(t *testing.T) {
	deck := rng.NewDeck()
	honest := testSeed(7)
	srv, err := NewServerRoundSeed(honest, deck)
	if err != nil {
		t.Fatal(err)
	}
	cli, err := NewClientRound(srv.Commitment(), deck)
	if err != nil {
		t.Fatal(err)
	}
	client := []byte("the client's seed")
	if err := srv.SetClientSeed(client); err != nil {
		t.Fatal(err)
	}
	if err := cli.SetClientSeed(client); err != nil {
		t.Fatal(err)
	}
	// The cheat: search server seeds until the first dealt card is "AS".
	var cheat []byte
	for i := 0; i < 10000 && cheat == nil; i++ {
		s := testSeed(byte(i))
		s[0], s[1] = byte(i>>8), 0xee
		fs, _ := FinalSeed(s, client)
		if d, _ := ShuffleOf(fs, deck); d[0] == "AS" {
			cheat = s
		}
	}
	if cheat == nil {
		t.Fatal("no cheating seed found")
	}
	err = cli.AcceptReveal(cheat)
	if !errors.Is(err, ErrCommitMismatch) {
		t.Fatalf("cheating reveal: %v, want ErrCommitMismatch", err)
	}
	if cli.Phase() != PhaseFailed || !errors.Is(cli.Failure(), ErrCommitMismatch) {
		t.Fatalf("phase %s, failure %v", cli.Phase(), cli.Failure())
	}
	// The round stays void: even the honest seed is refused now.
	if err := cli.AcceptReveal(honest); !errors.Is(err, ErrPhase) {
		t.Fatalf("reveal after failure: %v", err)
	}
	if _, err := cli.Dealt(); !errors.Is(err, ErrPhase) {
		t.Fatalf("Dealt after failure: %v", err)
	}
}

// TestClientSeedMatters: the same server seed with different client seeds
// deals different orders, so a server that fixes its seed cannot fix the
// deal.
func TestClientSeedMatters(t *testing.T) {
	server := testSeed(3)
	seen := map[string]bool{}
	for _, cs := range []string{"a", "b", "aa", "\x00", "\x00\x00"} {
		fs, _ := FinalSeed(server, []byte(cs))
		d, _ := ShuffleOf(fs, rng.NewDeck())
		key := strings.Join(d, ",")
		if seen[key] {
			t.Fatalf("client seed %q repeats a deal", cs)
		}
		seen[key] = true
	}
}

func TestInputErrors(t *testing.T) {
	good := testSeed(0)
	long := strings.Repeat("x", MaxCardName+1)
	bigDeck := make([]string, MaxCards+1)
	for i := range bigDeck {
		bigDeck[i] = "c"
	}
	for name, err := range map[string]error{
		"short seed":        second(Commit(good[:31], []string{"a"})),
		"long seed":         second(Commit(append(good, 0), []string{"a"})),
		"nil seed":          second(Commit(nil, []string{"a"})),
		"empty deck":        second(Commit(good, nil)),
		"empty card":        second(Commit(good, []string{"a", ""})),
		"long card":         second(Commit(good, []string{long})),
		"big deck":          second(Commit(good, bigDeck)),
		"empty client":      second(FinalSeed(good, nil)),
		"long client":       second(FinalSeed(good, make([]byte, MaxClientSeed+1))),
		"final short seed":  second(FinalSeed(good[:1], []byte("a"))),
		"reveal short seed": VerifyReveal(Commitment{}, good[:5], []string{"a"}),
		"shuffle empty":     second(ShuffleOf([32]byte{}, nil)),
		"verify bad client": second(VerifyShuffle(good, nil, rng.NewDeck())),
		"parse short":       second(ParseCommitment("abcd")),
		"parse not hex":     second(ParseCommitment(strings.Repeat("zz", 32))),
		"new round":         second(NewServerRoundSeed(good[:3], rng.NewDeck())),
		"new client round":  second(NewClientRound(Commitment{}, nil)),
	} {
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
	// Boundaries that are allowed.
	if _, err := FinalSeed(good, make([]byte, MaxClientSeed)); err != nil {
		t.Error(err)
	}
	if _, err := Commit(good, append(bigDeck[:MaxCards:MaxCards], long[:MaxCardName])[1:]); err != nil {
		t.Error(err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestParseCommitmentCase(t *testing.T) {
	c, _ := Commit(testSeed(9), []string{"a"})
	up, err := ParseCommitment(strings.ToUpper(c.String()))
	if err != nil || up != c {
		t.Fatalf("upper-case: %s, %v", up, err)
	}
}
