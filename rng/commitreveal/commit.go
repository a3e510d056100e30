package commitreveal

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
)

// Sizes and limits of the protocol's inputs.
const (
	SeedSize      = 32   // bytes of a server seed, exactly
	MaxClientSeed = 256  // bytes of a client seed, at most (at least 1)
	MaxCards      = 1024 // cards of a deck, at most (at least 1)
	MaxCardName   = 64   // bytes of one card name, at most (at least 1)
)

// Domain strings, the first field of each hash (see the package doc).
const (
	CommitDomain    = "fairboard/commit/v1"
	FinalSeedDomain = "fairboard/final-seed/v1"
)

// Errors. Every error of this package wraps exactly one of them.
var (
	// ErrInput: a seed, deck or commitment has the wrong size or shape.
	ErrInput = errors.New("commitreveal: invalid input")
	// ErrCommitMismatch: the revealed server seed and deck do not hash to
	// the commitment.
	ErrCommitMismatch = errors.New("commitreveal: reveal does not match the commitment")
	// ErrShuffleMismatch: a claimed deck is not the shuffle the seeds give.
	ErrShuffleMismatch = errors.New("commitreveal: claimed deck is not the fisher-yates-v1 shuffle of the seeds")
	// ErrPhase: a Round method was called out of order or by the wrong side.
	ErrPhase = errors.New("commitreveal: call out of order")
)

// Commitment is SHA-256 of the commit encoding (see [Commit]).
type Commitment [sha256.Size]byte

// String returns the commitment as 64 lower-case hex digits.
func (c Commitment) String() string { return hex.EncodeToString(c[:]) }

// ParseCommitment decodes 64 hex digits (either case). It returns an error
// wrapping [ErrInput] for any other text.
func ParseCommitment(s string) (Commitment, error) {
	var c Commitment
	if len(s) != 2*len(c) {
		return c, fmt.Errorf("%w: commitment is %d characters, want %d hex digits", ErrInput, len(s), 2*len(c))
	}
	if _, err := hex.Decode(c[:], []byte(s)); err != nil {
		return Commitment{}, fmt.Errorf("%w: commitment is not hex: %v", ErrInput, err)
	}
	return c, nil
}

// NewServerSeed returns SeedSize bytes from crypto/rand. (crypto/rand does
// not fail on supported platforms; Go crashes the program if it ever does.)
func NewServerSeed() []byte {
	s := make([]byte, SeedSize)
	rand.Read(s)
	return s
}

// Commit returns SHA-256 of
//
//	field(CommitDomain) || field(serverSeed) || u32(len(deck)) || field(deck[0]) || ... || field(deck[n-1])
//
// where u32(x) is x as 4 big-endian bytes and field(b) = u32(len(b)) || b.
// It returns an error wrapping [ErrInput] if serverSeed is not SeedSize
// bytes or deck is not 1..MaxCards names of 1..MaxCardName bytes each.
func Commit(serverSeed []byte, deck []string) (Commitment, error) {
	if err := checkServerSeed(serverSeed); err != nil {
		return Commitment{}, err
	}
	if err := checkDeck(deck); err != nil {
		return Commitment{}, err
	}
	h := sha256.New()
	writeField(h, []byte(CommitDomain))
	writeField(h, serverSeed)
	writeU32(h, len(deck))
	for _, card := range deck {
		writeField(h, []byte(card))
	}
	var c Commitment
	h.Sum(c[:0])
	return c, nil
}

// FinalSeed returns SHA-256 of
//
//	field(FinalSeedDomain) || field(serverSeed) || field(clientSeed)
//
// (field as in [Commit]): the seed of the round's shuffle. It returns an
// error wrapping [ErrInput] if serverSeed is not SeedSize bytes or
// clientSeed is not 1..MaxClientSeed bytes.
func FinalSeed(serverSeed, clientSeed []byte) ([sha256.Size]byte, error) {
	var out [sha256.Size]byte
	if err := checkServerSeed(serverSeed); err != nil {
		return out, err
	}
	if err := checkClientSeed(clientSeed); err != nil {
		return out, err
	}
	h := sha256.New()
	writeField(h, []byte(FinalSeedDomain))
	writeField(h, serverSeed)
	writeField(h, clientSeed)
	h.Sum(out[:0])
	return out, nil
}

func writeU32(h hash.Hash, n int) {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], uint32(n)) // n is checked to fit
	h.Write(b[:])
}

func writeField(h hash.Hash, b []byte) {
	writeU32(h, len(b))
	h.Write(b)
}

func checkServerSeed(s []byte) error {
	if len(s) != SeedSize {
		return fmt.Errorf("%w: server seed is %d bytes, want %d", ErrInput, len(s), SeedSize)
	}
	return nil
}

func checkClientSeed(s []byte) error {
	if len(s) < 1 || len(s) > MaxClientSeed {
		return fmt.Errorf("%w: client seed is %d bytes, want 1..%d", ErrInput, len(s), MaxClientSeed)
	}
	return nil
}

func checkDeck(deck []string) error {
	if len(deck) < 1 || len(deck) > MaxCards {
		return fmt.Errorf("%w: deck has %d cards, want 1..%d", ErrInput, len(deck), MaxCards)
	}
	for i, card := range deck {
		if len(card) < 1 || len(card) > MaxCardName {
			return fmt.Errorf("%w: card %d is %d bytes, want 1..%d", ErrInput, i, len(card), MaxCardName)
		}
	}
	return nil
}
