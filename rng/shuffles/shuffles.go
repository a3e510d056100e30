// Package shuffles is the registry of every shuffle algorithm the project
// reproduces: one name per algorithm, each turning a seed and a deck into
// the shuffled deck exactly as its original does. gamectl rng and the
// verifyShuffle callable both go through it, so that a name always means
// the same arithmetic. It sits above rng and rng/tenhou (rng must not
// import tenhou).
//
// The algorithms (docs/sources.md has each one's exact arithmetic and its
// independent test vectors):
//
//	fisher-yates-v1    ADR-005: ChaCha20 (key SHA-256(seed), zero nonce), for i = n-1..1: j = BE u64 % (i+1)
//	chacha20-spec-v1   the spec's Fisher–Yates (rejection sampling over 32-bit words) over the same ChaCha20
//	                   words (BE u32): a fair game's shuffles, whose stream is the game seed's
//	sfc32-spec-v1      the spec's Fisher–Yates over sfc32 seeded by cyrb128 of a text seed: a seeded game's
//	hashchain-v1       nullspace's SHA-256 hash-chain GameRng's own shuffle (next_bounded)
//	tenhou-mt19937-v1  Tenhou's mahjong wall: MT19937 + SHA-512, swap(i, i + rnd[i] % (n-i))
package shuffles

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/tenhou"
)

// MaxSize is the largest deck the registry shuffles (Tenhou's are fixed).
const MaxSize = 1_000_000

// ErrInput is wrapped by every error about an unknown algorithm, a bad seed
// or a bad deck size; each also wraps the one of ErrAlgorithm, ErrSeed or
// ErrDeck that names the input at fault.
var ErrInput = errors.New("shuffles: invalid input")

// The input at fault (each wraps ErrInput).
var (
	ErrAlgorithm = fmt.Errorf("%w: algorithm", ErrInput)
	ErrSeed      = fmt.Errorf("%w: seed", ErrInput)
	ErrDeck      = fmt.Errorf("%w: deck", ErrInput)
)

// Algorithm is one registered shuffle.
type Algorithm struct {
	// Name is the versioned name ("fisher-yates-v1").
	Name string
	// Seed says what the seed text is.
	Seed string
	// Sizes says which deck sizes it takes.
	Sizes string
	// About says where it comes from.
	About string
	// shuffle permutes deck in place for the seed text.
	shuffle func(seed string, deck []string) error
	// named is the algorithm's own named deck, if it has one (ADR-005's
	// 52 cards).
	named []string
	// canonical returns the deck of size n a claimed deck is a shuffle of,
	// when it is not the named deck: "0".."n-1" unless set.
	canonical func(n int) []string
}

var registry = []*Algorithm{
	{
		Name: rng.ChaCha20Algorithm, Seed: "bytes, as hex (any length)", Sizes: "1 to 1000000",
		About: "ADR-005: ChaCha20 (key = SHA-256(seed), zero nonce, counter 0); for i = n-1 down to 1, j = next 8 bytes big-endian % (i+1), swap",
		shuffle: func(seed string, deck []string) error {
			b, err := hexSeed(seed)
			if err != nil {
				return err
			}
			rng.NewChaCha20(b).Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			return nil
		},
		named: rng.NewDeck(),
	},
	{
		Name: "chacha20-spec-v1", Seed: "bytes, as hex (any length); a fair game's seed", Sizes: "1 to 1000000",
		About: "the spec's Fisher-Yates (j = uniformInt(0, i) by rejection over 32-bit words) over ChaCha20 words (next 4 bytes big-endian) of key SHA-256(seed): a fair game's stream, so its first shuffle",
		shuffle: func(seed string, deck []string) error {
			b, err := hexSeed(seed)
			if err != nil {
				return err
			}
			rng.Shuffle(rng.NewFair(b), deck, "", nil)
			return nil
		},
	},
	{
		Name: "sfc32-spec-v1", Seed: "text (UTF-8); a seeded game's seed", Sizes: "1 to 1000000",
		About: "the spec's Fisher-Yates over sfc32 seeded by cyrb128(seed): a seeded game's stream, so its first shuffle",
		shuffle: func(seed string, deck []string) error {
			s, err := rng.NewSeeded(seed)
			if err != nil {
				return fmt.Errorf("%w: %v", ErrSeed, err)
			}
			rng.Shuffle(s, deck, "", nil)
			return nil
		},
	},
	{
		Name: "hashchain-v1", Seed: "HEX or HEX:SESSION:MOVE (the encoded seed in hex; session u64 and move u32 in decimal, default 0)", Sizes: "1 to 1000000",
		About: "nullspace's GameRng: state = SHA-256(seed ‖ session BE u64 ‖ move BE u32); for i = n-1 down to 1, j = next_bounded(i+1) (n <= 255) or next_bounded_usize(i+1), swap",
		shuffle: func(seed string, deck []string) error {
			h, err := hashChainSeed(seed)
			if err != nil {
				return err
			}
			h.Shuffle(len(deck), func(i, j int) { deck[i], deck[j] = deck[j], deck[i] })
			return nil
		},
	},
	{
		Name: "tenhou-mt19937-v1", Seed: "Tenhou's SHUFFLE seed (base64 of 624 words, with or without its prefix), then optionally @K for round K (default 1)", Sizes: "136 (the wall) or 108 (3 players)",
		About: "Tenhou: MT19937 init_by_array(seed); round K's rnd = SHA-512 of each 32-word chunk of the K-th 288 words; for i = 0..n-2, swap(i, i + rnd[i] % (n-i))",
		shuffle: func(seed string, deck []string) error {
			if len(deck) != tenhou.Tiles4 && len(deck) != tenhou.Tiles3 {
				return fmt.Errorf("%w: a Tenhou wall has 136 or 108 tiles, not %d", ErrDeck, len(deck))
			}
			text, k := seed, 1
			if at := strings.LastIndexByte(seed, '@'); at >= 0 {
				n, err := strconv.Atoi(seed[at+1:])
				if err != nil || n < 1 {
					return fmt.Errorf("%w: round %q is not a number >= 1", ErrSeed, seed[at+1:])
				}
				text, k = seed[:at], n
			}
			words, err := tenhou.ParseSeed(text)
			if err != nil {
				return fmt.Errorf("%w: %v", ErrSeed, err)
			}
			r, err := tenhou.RoundOf(words, k)
			if err != nil {
				return fmt.Errorf("%w: %v", ErrSeed, err)
			}
			tenhou.ShuffleWithRnd(deck, &r.Rnd)
			return nil
		},
		canonical: func(n int) []string {
			if n == tenhou.Tiles3 {
				return itoa(tenhou.ThreePlayerTiles())
			}
			return numbers(n)
		},
	},
}

// Algorithms returns the registered algorithms, in a fixed order.
func Algorithms() []*Algorithm { return slices.Clone(registry) }

// Names returns the registered names, in the same order.
func Names() []string {
	out := make([]string, len(registry))
	for i, a := range registry {
		out[i] = a.Name
	}
	return out
}

// Lookup returns the algorithm of the name, or an error wrapping ErrInput
// that lists the known names.
func Lookup(name string) (*Algorithm, error) {
	for _, a := range registry {
		if a.Name == name {
			return a, nil
		}
	}
	return nil, fmt.Errorf("%w: unknown algorithm %q (known: %s)", ErrAlgorithm, name, strings.Join(Names(), ", "))
}

// Shuffle returns deck (unchanged) shuffled by the algorithm for the seed,
// or an error wrapping ErrInput naming a bad name, seed or size.
func Shuffle(name, seed string, deck []string) ([]string, error) {
	a, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if len(deck) < 1 || len(deck) > MaxSize {
		return nil, fmt.Errorf("%w: a deck of %d cards (1 to %d)", ErrDeck, len(deck), MaxSize)
	}
	out := slices.Clone(deck)
	if err := a.shuffle(seed, out); err != nil {
		return nil, err
	}
	return out, nil
}

// Permutation returns the shuffle of 0..n-1: p[i] is the index, in the
// unshuffled deck, of the card the shuffle puts at position i.
func Permutation(name, seed string, n int) ([]int, error) {
	if n < 1 || n > MaxSize {
		return nil, fmt.Errorf("%w: a deck of %d cards (1 to %d)", ErrDeck, n, MaxSize)
	}
	d, err := Shuffle(name, seed, numbers(n))
	if err != nil {
		return nil, err
	}
	p := make([]int, n)
	for i, s := range d {
		p[i], _ = strconv.Atoi(s)
	}
	return p, nil
}

// Result is the verdict on a claimed deck.
type Result struct {
	// Valid says that the claimed deck is a shuffle of the algorithm's
	// canonical deck of its size (every card once).
	Valid bool `json:"valid"`
	// Actual is the deck the algorithm makes for the seed.
	Actual []string `json:"actual_deck"`
	// Matches says that the claimed deck is exactly Actual.
	Matches bool `json:"matches"`
}

// Verify recomputes the deck for the seed and compares the claimed deck
// with it: ADR-005's verify-shuffle, for every algorithm. The unshuffled
// deck is the algorithm's canonical deck of the claimed deck's size: for
// fisher-yates-v1, when the claim names 52 cards of ADR-005's deck, that
// deck ("AS" ... "KC", rng.NewDeck); for tenhou-mt19937-v1 of 108 tiles,
// the 3-player tiles; otherwise the numbers "0" to "n-1". It returns an
// error wrapping ErrInput for an unknown algorithm, a bad seed or size.
func Verify(name, seed string, claimed []string) (*Result, error) {
	a, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	deck := a.Canonical(claimed)
	actual, err := Shuffle(name, seed, deck)
	if err != nil {
		return nil, err
	}
	return &Result{Valid: samePieces(deck, claimed), Actual: actual, Matches: slices.Equal(actual, claimed)}, nil
}

// Canonical returns the unshuffled deck a claimed deck is a shuffle of (see
// [Verify]).
func (a *Algorithm) Canonical(claimed []string) []string {
	n := len(claimed)
	if len(a.named) == n && n > 0 && slices.Contains(a.named, claimed[0]) {
		return slices.Clone(a.named)
	}
	if a.canonical != nil {
		return a.canonical(n)
	}
	return numbers(n)
}

// samePieces reports whether b is a rearrangement of a.
func samePieces(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	count := make(map[string]int, len(a))
	for _, s := range a {
		count[s]++
	}
	for _, s := range b {
		if count[s]--; count[s] < 0 {
			return false
		}
	}
	return true
}

func numbers(n int) []string {
	out := make([]string, max(n, 0))
	for i := range out {
		out[i] = strconv.Itoa(i)
	}
	return out
}

func itoa(v []int) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = strconv.Itoa(x)
	}
	return out
}

func hexSeed(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: not hexadecimal: %v", ErrSeed, err)
	}
	return b, nil
}

// hashChainSeed parses "HEX" or "HEX:SESSION:MOVE".
func hashChainSeed(s string) (*rng.HashChain, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 1 && len(parts) != 3 {
		return nil, fmt.Errorf("%w: want HEX or HEX:SESSION:MOVE, not %q", ErrSeed, s)
	}
	b, err := hexSeed(parts[0])
	if err != nil {
		return nil, err
	}
	var session uint64
	var move uint64
	if len(parts) == 3 {
		if session, err = strconv.ParseUint(parts[1], 10, 64); err != nil {
			return nil, fmt.Errorf("%w: session %q is not a u64", ErrSeed, parts[1])
		}
		if move, err = strconv.ParseUint(parts[2], 10, 32); err != nil {
			return nil, fmt.Errorf("%w: move %q is not a u32", ErrSeed, parts[2])
		}
	}
	return rng.NewHashChain(b, session, uint32(move)), nil
}
