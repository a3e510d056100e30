package mentalpoker

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"
)

// The domain strings, one per derivation. A new encoding gets a new name.
const (
	DomainCard       = "fairboard/mentalpoker/card/v1"
	DomainScalar     = "fairboard/mentalpoker/scalar/v1"
	DomainProof      = "fairboard/mentalpoker/dleq/v1"
	DomainPass       = "fairboard/mentalpoker/pass/v1"
	DomainKey        = "fairboard/mentalpoker/key/v1"
	DomainReveal     = "fairboard/mentalpoker/reveal/v1"
	DomainTranscript = "fairboard/mentalpoker/transcript/v1"
)

// Limits and sizes.
const (
	// MaxCards bounds a deck.
	MaxCards = 1024
	// MaxSeats bounds the seats of a deal.
	MaxSeats = 64
	// MaxGameID bounds a game id in bytes.
	MaxGameID = 128
	// PointSize is the size of an encoded ristretto255 element.
	PointSize = 32
	// ScalarSize is the size of an encoded scalar (little-endian, reduced).
	ScalarSize = 32
	// ProofSize is the size of an encoded DLEQ proof (c ‖ s).
	ProofSize = 2 * ScalarSize
)

// Errors. Every error of this package wraps exactly one of them; an error
// caused by a seat is a [*CheatError] naming it.
var (
	ErrInput      = errors.New("mentalpoker: invalid input")
	ErrTurn       = errors.New("mentalpoker: message out of turn")
	ErrContext    = errors.New("mentalpoker: message of another game, hand, pass or seat")
	ErrTranscript = errors.New("mentalpoker: message does not follow the transcript")
	ErrSignature  = errors.New("mentalpoker: bad signature")
	ErrCount      = errors.New("mentalpoker: wrong number of cards")
	ErrDuplicate  = errors.New("mentalpoker: duplicate card value")
	ErrPoint      = errors.New("mentalpoker: invalid group element")
	ErrProof      = errors.New("mentalpoker: bad re-masking proof")
	ErrKey        = errors.New("mentalpoker: key does not match its commitment")
	ErrRecompute  = errors.New("mentalpoker: pass does not recompute")
	ErrMissing    = errors.New("mentalpoker: key not yet published")
	ErrNotCard    = errors.New("mentalpoker: value opens to no card")
	ErrPhase      = errors.New("mentalpoker: call out of order")
	ErrRandom     = errors.New("mentalpoker: random source failed")
)

// CheatError is an error a seat caused: a message or key it sent that the
// protocol refuses, or a pass of its that does not recompute. Err wraps one
// of the sentinels above.
type CheatError struct {
	Seat int // 0-based seat index
	Err  error
}

func (e *CheatError) Error() string { return fmt.Sprintf("seat %d: %v", e.Seat, e.Err) }
func (e *CheatError) Unwrap() error { return e.Err }

// Culprit returns the seat an error names, if it is a [*CheatError].
func Culprit(err error) (int, bool) {
	var c *CheatError
	if errors.As(err, &c) {
		return c.Seat, true
	}
	return 0, false
}

func cheat(seat int, sentinel error, format string, a ...any) error {
	return &CheatError{Seat: seat, Err: fmt.Errorf("%w: "+format, append([]any{sentinel}, a...)...)}
}

var g = group.Ristretto255

// field appends the 4-byte big-endian length of b, then b.
func field(dst, b []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

func fieldString(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

// CardMessage returns the hash-to-group input of card i of a hand:
// field(gameId) ‖ u64be(hand) ‖ u32be(i).
func CardMessage(game string, hand uint64, i int) []byte {
	b := fieldString(make([]byte, 0, 16+len(game)), game)
	b = binary.BigEndian.AppendUint64(b, hand)
	return binary.BigEndian.AppendUint32(b, uint32(i))
}

// CardPoints returns the points of cards 0..n-1 of a hand: card i is
// hash_to_ristretto255(CardMessage(game, hand, i)) with DST [DomainCard]
// (RFC 9380 appendix B, expand_message_xmd with SHA-512, as circl's
// group.Ristretto255.HashToElement computes it), encoded as 32 bytes. They
// are what the first seat's first pass takes. Errors wrap [ErrInput]: a game
// id of 1..MaxGameID bytes, 1 ≤ n ≤ MaxCards.
func CardPoints(game string, hand uint64, n int) ([][PointSize]byte, error) {
	els, err := cardElements(game, hand, n)
	if err != nil {
		return nil, err
	}
	return encodeAll(els), nil
}

func cardElements(game string, hand uint64, n int) ([]group.Element, error) {
	if len(game) < 1 || len(game) > MaxGameID {
		return nil, fmt.Errorf("%w: game id of %d bytes, want 1..%d", ErrInput, len(game), MaxGameID)
	}
	if n < 1 || n > MaxCards {
		return nil, fmt.Errorf("%w: %d cards, want 1..%d", ErrInput, n, MaxCards)
	}
	out := make([]group.Element, n)
	for i := range out {
		out[i] = g.HashToElement(CardMessage(game, hand, i), []byte(DomainCard))
	}
	return out, nil
}

func encode(e group.Element) (out [PointSize]byte) {
	b, _ := e.MarshalBinary() // never fails for ristretto255
	copy(out[:], b)
	return out
}

func encodeAll(els []group.Element) [][PointSize]byte {
	out := make([][PointSize]byte, len(els))
	for i, e := range els {
		out[i] = encode(e)
	}
	return out
}

// decodePoint decodes a canonical encoding of an element other than the
// identity.
func decodePoint(b [PointSize]byte) (group.Element, error) {
	e := g.NewElement()
	if err := e.UnmarshalBinary(b[:]); err != nil {
		return nil, fmt.Errorf("%w: not a canonical ristretto255 encoding", ErrPoint)
	}
	if e.IsIdentity() {
		return nil, fmt.Errorf("%w: the identity", ErrPoint)
	}
	return e, nil
}

// decodeScalar decodes a canonical non-zero scalar.
func decodeScalar(b [ScalarSize]byte) (group.Scalar, error) {
	s := g.NewScalar()
	if err := s.UnmarshalBinary(b[:]); err != nil {
		return nil, fmt.Errorf("%w: not a reduced scalar", ErrKey)
	}
	if s.IsZero() {
		return nil, fmt.Errorf("%w: zero scalar", ErrKey)
	}
	return s, nil
}

func encodeScalar(s group.Scalar) (out [ScalarSize]byte) {
	b, _ := s.MarshalBinary()
	copy(out[:], b)
	return out
}

// drawScalar draws a uniform non-zero scalar: 64 bytes of r reduced by
// circl's HashToScalar (expand_message_xmd, then mod ℓ) with DST
// [DomainScalar].
func drawScalar(r io.Reader) (group.Scalar, error) {
	var buf [64]byte
	for {
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrRandom, err)
		}
		if s := g.HashToScalar(buf[:], []byte(DomainScalar)); !s.IsZero() {
			return s, nil
		}
	}
}

// randIndex returns a uniform integer in [0, n), 0 < n, from 8-byte
// big-endian words of r: a word v is accepted if v ≥ 2^64 mod n, which
// leaves a multiple of n values, and mapped to v % n.
func randIndex(r io.Reader, n int) (int, error) {
	m := uint64(n)
	threshold := -m % m // 2^64 mod m
	var b [8]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return 0, fmt.Errorf("%w: %v", ErrRandom, err)
		}
		if v := binary.BigEndian.Uint64(b[:]); v >= threshold {
			return int(v % m), nil
		}
	}
}

// permutation returns a uniform permutation of 0..n-1 by Fisher–Yates.
func permutation(r io.Reader, n int) ([]int, error) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j, err := randIndex(r, i+1)
		if err != nil {
			return nil, err
		}
		p[i], p[j] = p[j], p[i]
	}
	return p, nil
}

// proofDST returns the DLEQ domain of a pass-2 message's proof:
// DomainProof ‖ SHA-256(field(gameId) ‖ u64be(hand) ‖ u8(pass) ‖
// u32be(seat) ‖ prev ‖ u32be(n) ‖ in_0 ‖ … ‖ in_(n-1) ‖ z_0 ‖ … ‖ z_(n-1)
// ‖ out_0 ‖ … ‖ out_(n-1)). The proof's challenge (and circl's composite
// weights, through their seed) thus bind the game, hand, pass, seat,
// transcript and every position's points: no weight can be ground
// position by position.
func proofDST(game string, hand uint64, pass uint8, seat int, prev [32]byte, in, z, out [][PointSize]byte) []byte {
	h := sha256.New()
	b := fieldString(make([]byte, 0, 64+len(game)), game)
	b = binary.BigEndian.AppendUint64(b, hand)
	b = append(b, pass)
	b = binary.BigEndian.AppendUint32(b, uint32(seat))
	b = append(b, prev[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(in)))
	h.Write(b)
	for _, d := range [][][PointSize]byte{in, z, out} {
		for i := range d {
			h.Write(d[i][:])
		}
	}
	return h.Sum([]byte(DomainProof))
}

func orCrypto(r io.Reader) io.Reader {
	if r == nil {
		return rand.Reader
	}
	return r
}
