package srabaseline

import (
	"crypto/rand"
	"fmt"
	"io"
	"math/big"
)

// Deck is a deck of card values mod p, plaintexts ([InitialDeck]) or
// ciphertexts. Functions never modify a Deck they are given; they return
// new ones.
type Deck []*big.Int

// phase is where a Player stands in the protocol.
type phase int

const (
	fresh     phase = iota // before Shuffle1
	shuffled1              // after Shuffle1, before Shuffle2
	shuffled2              // after Shuffle2: per-card keys exist
)

// Player is one participant: its random source, its common key (from
// Shuffle1) and its per-card keys (from Shuffle2). A Player takes part in
// one shuffle; make a new one for the next. It is not safe for concurrent
// use.
type Player struct {
	g        *Group
	r        io.Reader
	phase    phase
	n        int
	common   Key
	cardKeys []Key
}

// NewPlayer returns a player of group g that draws its keys and shuffles
// from r, or from crypto/rand if r is nil. Tests pass a deterministic
// reader (an rng.ChaCha20); real players must pass nil or another
// cryptographic source, since whoever knows r's output knows the player's
// keys. It returns an error wrapping [ErrGroup] if g is nil.
func NewPlayer(g *Group, r io.Reader) (*Player, error) {
	if g == nil || g.p == nil {
		return nil, fmt.Errorf("%w: nil group", ErrGroup)
	}
	if r == nil {
		r = rand.Reader
	}
	return &Player{g: g, r: r}, nil
}

// Shuffle1 is the player's turn of the first pass: it draws the player's
// common key, encrypts every card of deck with it and shuffles the result.
// deck is the previous player's output (the first player takes
// [InitialDeck]). It is allowed once per player, first. Errors: [ErrPhase]
// if already called, [ErrDeck] for an invalid deck (see [Player.CheckDeck]),
// [ErrRandom] if the reader fails; on error the player is unchanged.
func Shuffle1(p *Player, deck Deck) (Deck, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: nil player", ErrPhase)
	}
	if p.phase != fresh {
		return nil, fmt.Errorf("%w: Shuffle1 called twice", ErrPhase)
	}
	if err := p.CheckDeck(deck); err != nil {
		return nil, err
	}
	k, err := newKey(p.g, p.r)
	if err != nil {
		return nil, err
	}
	out := make(Deck, len(deck))
	for i, x := range deck {
		out[i] = k.encrypt(x)
	}
	if err := shuffle(p.r, out); err != nil {
		return nil, err
	}
	p.common, p.n, p.phase = k, len(deck), shuffled1
	return out, nil
}

// Shuffle2 is the player's turn of the second pass: it removes the
// player's common key from every card of deck and encrypts card k with a
// new per-card key k. deck is the previous player's output (the first
// player takes the last player's Shuffle1 output) and must have as many
// cards as the player's Shuffle1. Errors: [ErrPhase] unless called once
// after Shuffle1, [ErrDeck] for an invalid deck, [ErrRandom] if the reader
// fails; on error the player is unchanged.
func Shuffle2(p *Player, deck Deck) (Deck, error) {
	if p == nil {
		return nil, fmt.Errorf("%w: nil player", ErrPhase)
	}
	if p.phase != shuffled1 {
		return nil, fmt.Errorf("%w: Shuffle2 needs exactly one Shuffle1 before it", ErrPhase)
	}
	if len(deck) != p.n {
		return nil, fmt.Errorf("%w: %d cards, the player's Shuffle1 had %d", ErrDeck, len(deck), p.n)
	}
	if err := p.CheckDeck(deck); err != nil {
		return nil, err
	}
	keys := make([]Key, len(deck))
	out := make(Deck, len(deck))
	for i, c := range deck {
		k, err := newKey(p.g, p.r)
		if err != nil {
			return nil, err
		}
		keys[i], out[i] = k, k.encrypt(p.common.decrypt(c))
	}
	p.cardKeys, p.common, p.phase = keys, Key{}, shuffled2
	return out, nil
}

// RevealKey returns the player's per-card key for position k, which the
// player hands over when card k is to be seen. Errors: [ErrPhase] before
// Shuffle2, [ErrDeck] unless 0 ≤ k < the deck's size.
func RevealKey(p *Player, k int) (Key, error) {
	if p == nil || p.phase != shuffled2 {
		return Key{}, fmt.Errorf("%w: RevealKey needs Shuffle2 first", ErrPhase)
	}
	if k < 0 || k >= p.n {
		return Key{}, fmt.Errorf("%w: position %d outside 0..%d", ErrDeck, k, p.n-1)
	}
	return p.cardKeys[k], nil
}

// Open decrypts the card value c with keys (every player's per-card key
// for c's position, in any order) and decodes it: it returns the card
// number i of [Encode]. Errors: [ErrKey] if keys is empty or a key is
// invalid or of another group; [ErrDeck] if c is not a valid deck value;
// [ErrNotCard] if the result is no card, which is what happens when a key
// is missing, wrong or from another position.
func Open(c *big.Int, keys ...Key) (int, error) {
	if len(keys) == 0 {
		return 0, fmt.Errorf("%w: no keys", ErrKey)
	}
	g := keys[0].g
	for i, k := range keys {
		if k.g == nil || k.d == nil {
			return 0, fmt.Errorf("%w: key %d is the zero Key", ErrKey, i)
		}
		if k.g.p.Cmp(g.p) != 0 {
			return 0, fmt.Errorf("%w: key %d is of another group", ErrKey, i)
		}
	}
	if err := checkValue(g, c); err != nil {
		return 0, err
	}
	m := c
	for _, k := range keys {
		m = k.decrypt(m)
	}
	return Decode(m)
}

// CheckDeck reports whether deck is a deck this player can take: 1 to
// MaxCards values, each a quadratic residue mod p other than 1 (so in
// [2, p-1]), all distinct. The error wraps [ErrDeck] and names the first
// bad position.
func (p *Player) CheckDeck(deck Deck) error {
	if len(deck) < 1 || len(deck) > MaxCards {
		return fmt.Errorf("%w: %d cards, want 1..%d", ErrDeck, len(deck), MaxCards)
	}
	seen := make(map[string]int, len(deck))
	for i, x := range deck {
		if err := checkValue(p.g, x); err != nil {
			return fmt.Errorf("position %d: %w", i, err)
		}
		key := string(x.Bytes())
		if j, dup := seen[key]; dup {
			return fmt.Errorf("%w: positions %d and %d hold the same value", ErrDeck, j, i)
		}
		seen[key] = i
	}
	return nil
}

// checkValue checks one deck value: non-nil, in [2, p-1], a quadratic
// residue (Jacobi symbol 1; for prime p it is the Legendre symbol).
func checkValue(g *Group, x *big.Int) error {
	switch {
	case x == nil:
		return fmt.Errorf("%w: nil value", ErrDeck)
	case x.Cmp(big.NewInt(1)) <= 0 || x.Cmp(g.p) >= 0:
		return fmt.Errorf("%w: value outside 2..p-1", ErrDeck)
	case big.Jacobi(x, g.p) != 1:
		return fmt.Errorf("%w: value is not a quadratic residue mod p", ErrDeck)
	}
	return nil
}
