// Package trustless holds the public derivations of fairboard's trustless
// games, in which nobody, the server included, knows a die or a card
// before the game reaches it. They are a contract: two implementers build
// the same protocol from docs/fairness.md ("The trustless mode"), and
// anyone may recompute them from a game's public log or export, so they
// never change; a new encoding gets a new domain string.
//
// As in rng/fair, field(b) is the 4-byte big-endian length of b, then b,
// and u32be(n), u64be(n) are n as 4 or 8 bytes big-endian.
//
//	chain:       x_N = 32 random bytes (the seat's secret)
//	             x_(i-1) = SHA-256(field("fairboard/chain/v1") ‖ field(gameId) ‖ u32be(seat) ‖ u32be(i) ‖ x_i)
//	             head = x_0, public from the join; the link for index v is x_v
//	randomness:  R_v = SHA-256(field("fairboard/trustless/v1") ‖ field(gameId) ‖ u32be(v)
//	                           ‖ field(actionDigest) ‖ x_v(seat 1) ‖ … ‖ x_v(seat n))
//	stream:      ChaCha20, key = R_v, zero nonce, counter 0; a word = 4 keystream bytes big-endian
//	digest:      SHA-256(field("fairboard/action-digest/v1") ‖ field(gameId) ‖ field(canonical(action)))
//	signed:      action  field("fairboard/sign-action/v1") ‖ field(gameId) ‖ field(canonical(action))
//	             reveal  field("fairboard/sign-reveal/v1") ‖ field(gameId) ‖ u32be(v) ‖ field(digest) ‖ field(transcript)
//	transcript:  T_0 = SHA-256(field("fairboard/transcript/v1") ‖ field(gameId) ‖ field(rulesHash))
//	             action record: T = SHA-256(field("fairboard/transcript/v1") ‖ T_prev ‖ 0x01 ‖ digest ‖ field(signature))
//	             round record:  T = SHA-256(field("fairboard/transcript/v1") ‖ T_prev ‖ 0x02 ‖ u32be(v) ‖ u32be(n) ‖ x_v(seat 1) ‖ … ‖ x_v(seat n))
//
// canonical(action) is [ActionFields.AppendCanonical]; signatures are
// Ed25519 (RFC 8032, crypto/ed25519) over the signed bytes as they are.
// The seats of R_v and of a round record are every seated seat, in seat
// order. The pile draw is [DrawFromPile].
package trustless

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/fairboard/fairboard/rng"
)

// The domain strings, one per derivation.
const (
	DomainChain        = "fairboard/chain/v1"
	DomainRandomness   = "fairboard/trustless/v1"
	DomainActionDigest = "fairboard/action-digest/v1"
	DomainSignAction   = "fairboard/sign-action/v1"
	DomainSignReveal   = "fairboard/sign-reveal/v1"
	DomainTranscript   = "fairboard/transcript/v1"
)

// Sizes and bounds.
const (
	// LinkSize is the size of a chain link, a head or a secret, in bytes.
	LinkSize = 32
	// KeySize is the size of an Ed25519 public key.
	KeySize = ed25519.PublicKeySize
	// SignatureSize is the size of an Ed25519 signature.
	SignatureSize = ed25519.SignatureSize
	// DefaultChainLength is N, the number of links of a seat's chain,
	// unless the game's create says otherwise: far above what the default
	// ruleset can need (engine.Ruleset.MaxRandomActions, 8,912).
	DefaultChainLength = 1 << 16
	// MaxChainLength bounds N: building a chain costs N SHA-256 (about
	// 0.3 s at this bound), which a client must be able to afford.
	MaxChainLength = 1 << 20
)

// ErrInput is wrapped by every error about a malformed input.
var ErrInput = errors.New("trustless: invalid input")

// AppendField appends field(b) = u32be(len(b)) ‖ b to dst.
func AppendField(dst, b []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// appendFieldString is AppendField of a string's bytes.
func appendFieldString(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

// Prev returns x_(i-1), the link before x_i in the chain of seat in game
// gameID: SHA-256(field("fairboard/chain/v1") ‖ field(gameId) ‖ u32be(seat)
// ‖ u32be(i) ‖ x_i).
func Prev(gameID string, seat, i uint32, x *[32]byte) [32]byte {
	var buf [256]byte
	b := appendFieldString(buf[:0], DomainChain)
	b = appendFieldString(b, gameID)
	b = binary.BigEndian.AppendUint32(b, seat)
	b = binary.BigEndian.AppendUint32(b, i)
	b = append(b, x[:]...)
	return sha256.Sum256(b)
}

// CheckLink reports whether link is x_v of the chain whose x_(v-1) is prev:
// whether it hashes to prev (v >= 1; constant time in the comparison).
func CheckLink(gameID string, seat, v uint32, link, prev *[32]byte) bool {
	if v == 0 {
		return false
	}
	h := Prev(gameID, seat, v, link)
	return subtle.ConstantTimeCompare(h[:], prev[:]) == 1
}

// Chain is one seat's hash chain, as its client holds it: the secret x_N
// and checkpoints, so that a link costs far less than a walk of N.
//
// With K = ceil(sqrt(N)) (256 for N = 65,536) it keeps x_0, x_K, x_2K, …
// and x_N (about N/K + 1 links) and the K links of the segment last
// produced. [Chain.Link](v) walks down from the first checkpoint at or
// above v, filling that segment: at most K-1 SHA-256 for the first link of
// a segment and none for the others, so revealing v = 1, 2, 3, … in order
// costs about one SHA-256 a link. Memory: (N/K + 1 + K) × 32 bytes, about
// 16 KiB for N = 65,536 (8 KiB checkpoints, 8 KiB segment). Building it
// costs N SHA-256 (about 20 ms for N = 65,536).
//
// A Chain is not safe for concurrent use.
type Chain struct {
	gameID      string
	seat, n, k  uint32
	secret      [32]byte
	checkpoints [][32]byte // checkpoints[j] = x_(j*k), and the last one x_n
	// seg holds x_(segLo) .. x_(segLo+len(seg)-1), the segment last made.
	seg   [][32]byte
	segLo uint32
}

// NewChain builds the chain of seat in game gameID from its secret x_N
// (n links, 1 <= n <= MaxChainLength). The secret must be 32 bytes from a
// CSPRNG, kept by the player alone (GenerateChain draws one).
func NewChain(gameID string, seat, n uint32, secret [32]byte) (*Chain, error) {
	if n < 1 || n > MaxChainLength {
		return nil, fmt.Errorf("%w: a chain has 1 to %d links, not %d", ErrInput, MaxChainLength, n)
	}
	k := uint32(math.Ceil(math.Sqrt(float64(n))))
	c := &Chain{gameID: gameID, seat: seat, n: n, k: k, secret: secret}
	last := (n + k - 1) / k // the slot of x_n: n/k, or n/k+1 if k does not divide n
	c.checkpoints = make([][32]byte, last+1)
	x := secret
	c.checkpoints[last] = x
	for i := n; i >= 1; i-- {
		x = Prev(gameID, seat, i, &x)
		if (i-1)%k == 0 {
			c.checkpoints[(i-1)/k] = x
		}
	}
	return c, nil
}

// GenerateChain draws a fresh 32-byte secret from crypto/rand and builds
// its chain (see [NewChain]).
func GenerateChain(gameID string, seat, n uint32) (*Chain, error) {
	secret, err := NewSecret()
	if err != nil {
		return nil, err
	}
	return NewChain(gameID, seat, n, secret)
}

// NewSecret draws a fresh 32-byte secret from crypto/rand: a chain's
// secret, a signing key's seed, a deal's seed, for a client that keeps
// its secrets to make them again (the RNG package is where raw
// randomness enters: randlint). An error only if crypto/rand fails.
func NewSecret() ([32]byte, error) {
	var secret [32]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return secret, fmt.Errorf("trustless: drawing a secret: %w", err)
	}
	return secret, nil
}

// Head returns x_0, the chain's public head.
func (c *Chain) Head() [32]byte { return c.checkpoints[0] }

// Len returns N, the number of links.
func (c *Chain) Len() uint32 { return c.n }

// Secret returns x_N, what a client must keep (with the game id, the seat
// and N) to rebuild the chain after a restart.
func (c *Chain) Secret() [32]byte { return c.secret }

// Link returns x_v, the link for index v (0 <= v <= N; 0 is the head). It
// fails for an index past the chain's end.
func (c *Chain) Link(v uint32) ([32]byte, error) {
	if v > c.n {
		return [32]byte{}, fmt.Errorf("%w: index %d is past the chain's %d links", ErrInput, v, c.n)
	}
	if v%c.k == 0 {
		return c.checkpoints[v/c.k], nil
	}
	if v == c.n {
		return c.secret, nil
	}
	if v >= c.segLo && v < c.segLo+uint32(len(c.seg)) {
		return c.seg[v-c.segLo], nil
	}
	// Walk down from the checkpoint above v (x_top: the next multiple of
	// K, or x_N) to the one below (x_lo), keeping x_lo .. x_(top-1).
	j := v/c.k + 1
	top, lo := min(j*c.k, c.n), (j-1)*c.k
	x := c.checkpoints[j]
	if cap(c.seg) < int(c.k) {
		c.seg = make([][32]byte, c.k)
	}
	c.seg = c.seg[:top-lo]
	c.segLo = lo
	c.seg[0] = c.checkpoints[j-1]
	for i := top; i > lo+1; i-- {
		x = Prev(c.gameID, c.seat, i, &x)
		c.seg[i-1-lo] = x
	}
	return c.seg[v-lo], nil
}

// Randomness returns R_v, the randomness of the action at index v:
// SHA-256(field("fairboard/trustless/v1") ‖ field(gameId) ‖ u32be(v) ‖
// field(digest) ‖ links[0] ‖ … ‖ links[n-1]), the links x_v of every seated
// seat in seat order.
func Randomness(gameID string, v uint32, digest *[32]byte, links [][32]byte) [32]byte {
	h := sha256.New()
	var buf [512]byte
	b := appendFieldString(buf[:0], DomainRandomness)
	b = appendFieldString(b, gameID)
	b = binary.BigEndian.AppendUint32(b, v)
	b = AppendField(b, digest[:])
	h.Write(b)
	for i := range links {
		h.Write(links[i][:])
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Stream returns the stream of the action at index v (see
// [rng.NewTrustless]): ChaCha20 keyed by R_v, its seq continuing from seq.
func Stream(r [32]byte, seq uint64, opts ...rng.Option) *rng.Stream {
	return rng.NewTrustless(r, append([]rng.Option{rng.WithSeq(seq)}, opts...)...)
}

// DrawFromPile draws one card from a public pile with the action's
// stream: j = the spec's uniformInt(0, len(pile)-1) (one word or more, by
// rejection), the card at j is swapped with the last and removed. It
// returns the card and the pile without it (the same array, one shorter).
// A lazily run Fisher–Yates: no order exists before the draw, and each
// draw is uniform over the cards left, exactly as the top card of a pile
// shuffled uniformly would be (docs/fairness.md). It fails, consuming
// nothing, on an empty pile.
func DrawFromPile(s *rng.Stream, pile []string, tag rng.Tag, ctx *rng.Ctx) (string, []string, error) {
	n := len(pile)
	if n == 0 {
		return "", pile, fmt.Errorf("%w: a draw from an empty pile", ErrInput)
	}
	j, err := s.UniformInt(0, int64(n-1), tag, ctx)
	if err != nil {
		return "", pile, err
	}
	pile[j], pile[n-1] = pile[n-1], pile[j]
	return pile[n-1], pile[:n-1], nil
}
