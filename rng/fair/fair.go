// Package fair holds the public derivations of fairboard's verifiable
// games: the server seed's commitment, the game seed, the deck salts and
// the shuffle commitments. They are a contract: anyone may recompute them
// from a game's export to check it (docs/fairness.md has the protocol and a
// worked example), so they never change; a new encoding gets a new domain
// string.
//
// Every input is length-prefixed so that no two different inputs hash
// alike: field(b) is the 4-byte big-endian length of b, then b, and u32(n)
// is n as 4 bytes big-endian.
//
//	commitment = SHA-256(field("fairboard/server-seed/v1") ‖ field(serverSeed))
//	gameSeed   = SHA-256(field("fairboard/game-seed/v1") ‖ field(serverSeed) ‖ u32(n) ‖ field(c_1) ‖ … ‖ field(c_n))
//	saltKey    = SHA-256(field("fairboard/salt-key/v1") ‖ field(serverSeed))   fair mode
//	           = SHA-256(field("fairboard/salt-key/v1") ‖ field(utf8(seed)))   seeded mode
//	           = the 32 random bytes the server draws at create                crypto mode
//	salt_k     = SHA-256(field("fairboard/deck-salt/v1") ‖ field(saltKey) ‖ u32(k))
//	deck commitment = SHA-256(field("fairboard/deck/v1") ‖ field(salt) ‖ field(deckId) ‖ u32(n) ‖ field(card_1) ‖ … ‖ field(card_n))
//	contribution commitment = SHA-256(field("fairboard/fair-commit/v1") ‖ field(gameId) ‖ u32(seat) ‖ field(c))
//
// c_1..c_n are the seated players' contributions in seat order (empty when
// a player gave none); k counts the game's shuffles from 0; card_1 is the
// top of the draw pile. The functions here do not allocate for decks of
// usual size.
package fair

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
)

// The domain strings, one per derivation.
const (
	DomainServerSeed = "fairboard/server-seed/v1"
	DomainGameSeed   = "fairboard/game-seed/v1"
	DomainSaltKey    = "fairboard/salt-key/v1"
	DomainDeckSalt   = "fairboard/deck-salt/v1"
	DomainDeck       = "fairboard/deck/v1"
	// DomainContribution commits a player's contribution in a fair game
	// with openings (see ContributionCommitment).
	DomainContribution = "fairboard/fair-commit/v1"
)

// Sizes of the inputs.
const (
	// ServerSeedSize is the length of a server seed in bytes.
	ServerSeedSize = 32
	// MaxEntropy is the largest contribution a player may give, in bytes.
	MaxEntropy = 64
	// ContributionSize is the size of a contribution in a fair game with
	// openings: exactly 32 bytes from the client's CSPRNG (a short or empty
	// one could be opened by guessing).
	ContributionSize = 32
)

// ErrInput is wrapped by every error about a malformed seed or
// contribution.
var ErrInput = errors.New("fair: invalid input")

// AppendField appends field(b) = u32(len(b)) ‖ b to dst.
func AppendField(dst, b []byte) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// appendFieldString is AppendField of a string's bytes.
func appendFieldString(dst []byte, s string) []byte {
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(s)))
	return append(dst, s...)
}

// Commitment returns the commitment to a server seed, published at create.
func Commitment(serverSeed []byte) [32]byte {
	var buf [128]byte
	b := appendFieldString(buf[:0], DomainServerSeed)
	b = AppendField(b, serverSeed)
	return sha256.Sum256(b)
}

// GameSeed returns the seed of a fair game's stream from the server seed and
// the seated players' contributions in seat order (n = len(contributions);
// an empty contribution for a player who gave none).
func GameSeed(serverSeed []byte, contributions [][]byte) [32]byte {
	var buf [512]byte
	b := appendFieldString(buf[:0], DomainGameSeed)
	b = AppendField(b, serverSeed)
	b = binary.BigEndian.AppendUint32(b, uint32(len(contributions)))
	for _, c := range contributions {
		b = AppendField(b, c)
	}
	return sha256.Sum256(b)
}

// SaltKeyFair returns the salt key of a fair game: derived from the server
// seed, so that revealing the seed reveals the salts.
func SaltKeyFair(serverSeed []byte) [32]byte {
	var buf [128]byte
	b := appendFieldString(buf[:0], DomainSaltKey)
	b = AppendField(b, serverSeed)
	return sha256.Sum256(b)
}

// SaltKeySeeded returns the salt key of a seeded game: derived from the seed
// string's UTF-8 bytes, so that a seeded game needs no other input to be
// reproduced.
func SaltKeySeeded(seed string) [32]byte {
	var buf [256]byte
	b := appendFieldString(buf[:0], DomainSaltKey)
	b = appendFieldString(b, seed)
	return sha256.Sum256(b)
}

// DeckSalt returns salt_k, the salt of the game's k-th shuffle (k from 0).
// Salts never come from the game's stream, so they consume none of it.
func DeckSalt(saltKey *[32]byte, k uint32) [32]byte {
	var buf [4 + len(DomainDeckSalt) + 4 + 32 + 4]byte
	b := appendFieldString(buf[:0], DomainDeckSalt)
	b = AppendField(b, saltKey[:])
	b = binary.BigEndian.AppendUint32(b, k)
	return sha256.Sum256(b)
}

// DeckCommitment returns the commitment to a shuffled deck: its salt, its
// id and its cards, top first.
func DeckCommitment(salt *[32]byte, deckID string, cards []string) [32]byte {
	var buf [2048]byte
	b := appendFieldString(buf[:0], DomainDeck)
	b = AppendField(b, salt[:])
	b = appendFieldString(b, deckID)
	b = binary.BigEndian.AppendUint32(b, uint32(len(cards)))
	for _, c := range cards {
		b = appendFieldString(b, c)
	}
	return sha256.Sum256(b)
}

// ContributionCommitment returns the commitment a player gives at join in a
// fair game with openings, to its contribution c (32 bytes), opened before
// the start: SHA-256(field("fairboard/fair-commit/v1") ‖ field(gameId) ‖
// u32(seat) ‖ field(c)). Binding the game and the seat keeps a commitment
// from being replayed in another game or seat.
func ContributionCommitment(gameID string, seat uint32, c []byte) [32]byte {
	b := make([]byte, 0, 48+len(gameID)+len(c))
	b = appendFieldString(b, DomainContribution)
	b = appendFieldString(b, gameID)
	b = binary.BigEndian.AppendUint32(b, seat)
	b = AppendField(b, c)
	return sha256.Sum256(b)
}

// ParseContribution decodes an opened contribution: exactly 64 hex digits
// of either case (32 bytes). The error wraps [ErrInput].
func ParseContribution(s string) ([]byte, error) {
	if len(s) != 2*ContributionSize {
		return nil, fmt.Errorf("%w: a contribution is %d hex digits (%d bytes), not %d", ErrInput, 2*ContributionSize, ContributionSize, len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: a contribution is not hex: %v", ErrInput, err)
	}
	return b, nil
}

// ParseServerSeed decodes a server seed: exactly 64 lower-case hex digits
// (32 bytes). The error wraps [ErrInput] and says what is wrong.
func ParseServerSeed(s string) ([32]byte, error) {
	var seed [32]byte
	if len(s) != 2*ServerSeedSize {
		return seed, fmt.Errorf("%w: a server seed is %d hex digits, not %d", ErrInput, 2*ServerSeedSize, len(s))
	}
	if !lowerHex(s) {
		return seed, fmt.Errorf("%w: a server seed is lower-case hex digits (0-9, a-f)", ErrInput)
	}
	hex.Decode(seed[:], []byte(s))
	return seed, nil
}

// ParseEntropy decodes a player's contribution: 0 to 64 bytes as hex digits
// of either case (0 to 128 digits, an even count). The error wraps
// [ErrInput] and says what is wrong.
func ParseEntropy(s string) ([]byte, error) {
	if len(s) > 2*MaxEntropy {
		return nil, fmt.Errorf("%w: entropy is at most %d bytes (%d hex digits), not %d digits", ErrInput, MaxEntropy, 2*MaxEntropy, len(s))
	}
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("%w: entropy has an odd number of hex digits (%d)", ErrInput, len(s))
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: entropy is not hex: %v", ErrInput, err)
	}
	return b, nil
}

// NormalizeEntropy returns a valid contribution in lower-case hex, the
// form the engine keeps and reveals.
func NormalizeEntropy(s string) (string, error) {
	b, err := ParseEntropy(s)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// NewServerSeed draws a server seed from crypto/rand and returns it as 64
// lower-case hex digits, the form engine.Action's ServerSeed takes. It fails
// only if the system's random source does.
func NewServerSeed() (string, error) {
	var seed [ServerSeedSize]byte
	if _, err := rand.Read(seed[:]); err != nil {
		return "", fmt.Errorf("fair: drawing a server seed: %w", err)
	}
	return hex.EncodeToString(seed[:]), nil
}

// NewSaltKey draws the key of a crypto game's deck salts (DeckSalt): 32
// bytes from crypto/rand, secret until the game's end. It fails only if
// the system's random source does.
func NewSaltKey() ([32]byte, error) {
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return key, fmt.Errorf("fair: drawing a salt key: %w", err)
	}
	return key, nil
}

// NewContribution draws a contribution for a fair game with openings: 32
// bytes from crypto/rand, as 64 lower-case hex digits (what a client
// commits to at join and opens before the start). It fails only if the
// system's random source does.
func NewContribution() (string, error) {
	var c [ContributionSize]byte
	if _, err := rand.Read(c[:]); err != nil {
		return "", fmt.Errorf("fair: drawing a contribution: %w", err)
	}
	return hex.EncodeToString(c[:]), nil
}
