package match

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// Named decks' commitments (docs/fairness.md, "A table game's record").
//
// A match that keeps a record notes every shuffle of a named deck (a
// game.Rand.Shuffle with ctx.DeckID not empty: game.Deal in seeded, fair
// and crypto modes) with its deck id, tag and the order it made. A
// table commits to each such order when it is shuffled, with the
// rng/fair construction the dungeon's shuffles use, over the cards as
// DeckCards writes them:
//
//	salt_k     = SHA-256(field("fairboard/deck-salt/v1") ‖ field(saltKey) ‖ u32(k))
//	commitment = SHA-256(field("fairboard/deck/v1") ‖ field(salt_k) ‖ field(deckId) ‖ u32(n) ‖ field(card_1) ‖ … ‖ field(card_n))
//
// field(b) is u32(len(b)) ‖ b, u32 four bytes big-endian; k counts the
// table's named-deck shuffles from 0; card_i is the decimal ASCII of the
// i-th value of the shuffled slice (card_1 its index 0). The salt key is
// the table's secret until its end: fair.SaltKeySeeded of a seeded
// table's seed, fair.SaltKeyFair of a fair table's server seed, 32
// bytes from crypto/rand for a crypto table. The record's Decks reveal
// the key, each salt and each order; CheckRecord checks them against
// the replay.

// DeckShuffle is one shuffle of a named deck: its id, the shuffle's tag
// and the order it made (the shuffled slice, index 0 first).
type DeckShuffle struct {
	DeckID string
	Tag    rng.Tag
	Order  []int
}

// MaxDeckCards bounds the cards of one shuffle a record may carry.
const MaxDeckCards = 4096

// DeckShuffles returns the shuffles of named decks the game made through
// the match, in order: since Setup, or for a match restored from a
// snapshot (FromSnapshot) since the restore; none for a lean match. The
// slice is the match's own: do not change it.
func (m *Match) DeckShuffles() []DeckShuffle {
	if m.rec == nil {
		return nil
	}
	return m.rec.decks
}

// DeckCards returns order's cards as a commitment covers them: each
// value in decimal ASCII ("0", "12", "-1").
func DeckCards(order []int) []string {
	cs := make([]string, len(order))
	for i, c := range order {
		cs[i] = strconv.Itoa(c)
	}
	return cs
}

// DeckCommitmentHex returns salt_k under saltKey (fair.DeckSalt, k ≥ 0)
// and the commitment to the shuffle of deckID that made order
// (fair.DeckCommitment over DeckCards), each 64 lower-case hex digits.
func DeckCommitmentHex(saltKey *[32]byte, k int, deckID string, order []int) (saltHex, commitmentHex string) {
	salt := fair.DeckSalt(saltKey, uint32(k))
	c := fair.DeckCommitment(&salt, deckID, DeckCards(order))
	return hex.EncodeToString(salt[:]), hex.EncodeToString(c[:])
}

// DeckSaltKey returns the salt key of a seeded or fair table's named
// decks, derived from what the table reveals at its end:
// fair.SaltKeySeeded(seed) in seeded mode, fair.SaltKeyFair of the
// server seed (64 lower-case hex digits) in fair mode; ok is false in
// any other mode (a crypto table's key is 32 random bytes). Errors: a
// fair mode's malformed server seed.
func DeckSaltKey(mode rng.Mode, seed, serverSeedHex string) (key [32]byte, ok bool, err error) {
	switch mode {
	case rng.ModeSeeded:
		return fair.SaltKeySeeded(seed), true, nil
	case rng.ModeFair:
		s, err := fair.ParseServerSeed(serverSeedHex)
		if err != nil {
			return key, false, err
		}
		return fair.SaltKeyFair(s[:]), true, nil
	}
	return key, false, nil
}

// RecordDecks is a table game's named-deck shuffles in its record: the
// salt key (64 lower-case hex digits) and every shuffle, in order.
type RecordDecks struct {
	SaltKeyHex string          `json:"saltKeyHex"`
	Shuffles   []RecordShuffle `json:"shuffles"`
}

// RecordShuffle is one named-deck shuffle of a record: k (its index
// from 0), the deck id, the tag, the order the shuffle made, salt_k and
// the commitment the table published when it shuffled (64 lower-case
// hex digits each).
type RecordShuffle struct {
	K             int     `json:"k"`
	DeckID        string  `json:"deckId"`
	Tag           rng.Tag `json:"tag"`
	Order         []int   `json:"order"`
	SaltHex       string  `json:"saltHex"`
	CommitmentHex string  `json:"commitmentHex"`
}

// NewRecordDecks returns the Decks of a record: the shuffles with their
// salts under saltKey and commitments, the ones published (one per
// shuffle, in order). Errors: a count that differs.
func NewRecordDecks(saltKey *[32]byte, shuffles []DeckShuffle, commitments []string) (*RecordDecks, error) {
	if len(shuffles) != len(commitments) {
		return nil, fmt.Errorf("%d named-deck shuffles for %d published commitments", len(shuffles), len(commitments))
	}
	d := &RecordDecks{SaltKeyHex: hex.EncodeToString(saltKey[:]), Shuffles: make([]RecordShuffle, len(shuffles))}
	for k, s := range shuffles {
		salt, _ := DeckCommitmentHex(saltKey, k, s.DeckID, s.Order)
		d.Shuffles[k] = RecordShuffle{K: k, DeckID: s.DeckID, Tag: s.Tag, Order: slices.Clone(s.Order), SaltHex: salt, CommitmentHex: commitments[k]}
	}
	return d, nil
}

// parseHex32 decodes exactly 64 lower-case hex digits.
func parseHex32(s string) ([32]byte, error) {
	var b [32]byte
	if len(s) != 64 {
		return b, fmt.Errorf("%d characters, not 64 lower-case hex digits", len(s))
	}
	if _, err := hex.Decode(b[:], []byte(s)); err != nil || hex.EncodeToString(b[:]) != s {
		return b, errors.New("not 64 lower-case hex digits")
	}
	return b, nil
}

// checkDeckForm checks the form of a record's Decks (an error naming
// the field): a mode that commits (seeded, fair, crypto), the salt key,
// and each shuffle's k, deck id, size, salt and commitment.
func checkDeckForm(r *Record) error {
	d := r.Decks
	if d == nil {
		return nil
	}
	if r.Mode != rng.ModeSeeded && r.Mode != rng.ModeFair && r.Mode != rng.ModeCrypto {
		return fmt.Errorf("a %s record with decks: only seeded, fair and crypto tables commit to their shuffles", r.Mode)
	}
	if _, err := parseHex32(d.SaltKeyHex); err != nil {
		return fmt.Errorf("decks: saltKeyHex: %v", err)
	}
	for i, s := range d.Shuffles {
		switch {
		case s.K != i:
			return fmt.Errorf("decks: shuffle %d has k %d", i, s.K)
		case s.DeckID == "" || len(s.DeckID) > 256:
			return fmt.Errorf("decks: shuffle %d: a deck id is 1 to 256 bytes", i)
		case len(s.Order) > MaxDeckCards:
			return fmt.Errorf("decks: shuffle %d: %d cards, more than %d", i, len(s.Order), MaxDeckCards)
		}
		if _, err := parseHex32(s.SaltHex); err != nil {
			return fmt.Errorf("decks: shuffle %d: saltHex: %v", i, err)
		}
		if _, err := parseHex32(s.CommitmentHex); err != nil {
			return fmt.Errorf("decks: shuffle %d: commitmentHex: %v", i, err)
		}
	}
	return nil
}

// checkDecks checks a record's Decks (none: nothing) against the replay
// m: the salt key is the one a seeded or fair record's seed makes, the
// shuffles are the replay's (deck, tag, order) one for one, each salt
// is salt_k of the key, and each salt and order open the shuffle's
// commitment. A malformed Decks is an error; anything else that does
// not hold is the divergence, named.
func checkDecks(r *Record, m *Match) (divergence, err error) {
	d := r.Decks
	if d == nil {
		return nil, nil
	}
	if err := checkDeckForm(r); err != nil {
		return nil, err
	}
	key, _ := parseHex32(d.SaltKeyHex)
	var serverSeed string
	if r.Fairness != nil {
		serverSeed = r.Fairness.ServerSeedHex
	}
	want, derived, err := DeckSaltKey(r.Mode, r.Seed, serverSeed)
	if err != nil {
		return nil, fmt.Errorf("decks: %w", err)
	}
	if derived && want != key {
		return fmt.Errorf("decks: the salt key %.16s… is not the one the %s game's seed makes (%x)", d.SaltKeyHex, r.Mode, want), nil
	}
	got := m.DeckShuffles()
	for k := range min(len(d.Shuffles), len(got)) {
		s, g := &d.Shuffles[k], &got[k]
		if s.DeckID != g.DeckID || s.Tag != g.Tag {
			return fmt.Errorf("decks: shuffle %d: the record has deck %q (tag %s), the replay shuffles deck %q (tag %s)", k, s.DeckID, s.Tag, g.DeckID, g.Tag), nil
		}
		if !slices.Equal(s.Order, g.Order) {
			return fmt.Errorf("decks: shuffle %d of deck %q: the record's order is %v, the replay makes %v", k, s.DeckID, s.Order, g.Order), nil
		}
		salt, commit := DeckCommitmentHex(&key, k, s.DeckID, s.Order)
		if s.SaltHex != salt {
			return fmt.Errorf("decks: shuffle %d of deck %q: its salt %.16s… is not salt_%d of the salt key", k, s.DeckID, s.SaltHex, k), nil
		}
		if s.CommitmentHex != commit {
			return fmt.Errorf("decks: shuffle %d of deck %q: its salt and order do not open its commitment %.16s… (they commit to %.16s…)", k, s.DeckID, s.CommitmentHex, commit), nil
		}
	}
	if len(d.Shuffles) != len(got) {
		return fmt.Errorf("decks: the number of named-deck shuffles: the record has %d, the replay makes %d", len(d.Shuffles), len(got)), nil
	}
	return nil, nil
}

// CheckPublishedDecks compares a record's commitments with the ones a
// seat kept as the table published them (the log's DeckCommitted events'
// commitments, in order): nil when they are the same, else an error
// naming the first that differs. CheckRecord checks that the record's
// commitments open to the replay's orders; this checks that they are
// the ones the table showed during play.
func CheckPublishedDecks(r *Record, published []string) error {
	var have []RecordShuffle
	if r.Decks != nil {
		have = r.Decks.Shuffles
	}
	for k := range min(len(have), len(published)) {
		if have[k].CommitmentHex != published[k] {
			return fmt.Errorf("decks: shuffle %d: the record's commitment %.16s… is not the one the table published, %.16s…", k, have[k].CommitmentHex, published[k])
		}
	}
	if len(have) != len(published) {
		return fmt.Errorf("decks: the record has %d commitments, the table published %d", len(have), len(published))
	}
	return nil
}
