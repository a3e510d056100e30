package engine

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// Hash32 is a 32-byte value (a digest, a salt) written in JSON and text as
// 64 lower-case hex digits. The zero value is all zero bytes.
type Hash32 [32]byte

// String returns the 64 lower-case hex digits.
func (h Hash32) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports whether every byte is zero (encoding/json's omitzero).
func (h Hash32) IsZero() bool { return h == Hash32{} }

// MarshalText implements encoding.TextMarshaler.
func (h Hash32) MarshalText() ([]byte, error) {
	return hex.AppendEncode(make([]byte, 0, 64), h[:]), nil
}

// UnmarshalText accepts exactly 64 hex digits of either case.
func (h *Hash32) UnmarshalText(b []byte) error {
	if len(b) != 64 {
		return fmt.Errorf("engine: a 32-byte value is 64 hex digits, not %d", len(b))
	}
	if _, err := hex.Decode(h[:], b); err != nil {
		return fmt.Errorf("engine: a 32-byte value must be hex: %w", err)
	}
	return nil
}

// Fairness is what a game publishes to be checked: in fair mode the
// commitment to the server seed from create on; at the end of every game
// (finished or abandoned) what was secret until then. Before the end it
// holds nothing but CommitmentHex.
type Fairness struct {
	// CommitmentHex (fair mode) is SHA-256(field("fairboard/server-seed/v1")
	// ‖ field(serverSeed)), published at create.
	CommitmentHex string `json:"commitmentHex,omitempty"`
	// Revealed is set at the end, when the fields below are filled in.
	Revealed bool `json:"revealed,omitempty"`
	// ServerSeedHex (fair mode) is the server seed, 64 hex digits.
	ServerSeedHex string `json:"serverSeedHex,omitempty"`
	// ContributionsHex (fair mode) are the seated players' entropy in seat
	// order, lower-case hex, "" for a player who gave none.
	ContributionsHex []string `json:"contributionsHex,omitempty"`
	// GameSeedHex (fair mode) is the seed of the game's stream, fixed at
	// start ("" for a game abandoned in its lobby).
	GameSeedHex string `json:"gameSeedHex,omitempty"`
	// Seed (seeded mode) is the seed string.
	Seed string `json:"seed,omitempty"`
	// Salts are the salts of every shuffle, in order (every mode).
	Salts []SaltReveal `json:"salts,omitempty"`

	// Openings (fair) is set from create on in a fair game whose players
	// commit to their contribution at join and open it before the start.
	// A fair game without it (every fair game created before openings
	// existed, and any created without them) keeps the first rules:
	// entropy given at join, in the clear to the server.
	Openings bool `json:"openings,omitempty"`
	// DeadlineMs (openings) is how long after the first opening the other
	// seats may still open before the owner may remove them.
	DeadlineMs int64 `json:"deadlineMs,omitempty"`
	// OpenDeadline (openings) is the time, unix ms, after which a seat
	// still unopened may be removed: the first opening's time plus
	// DeadlineMs (0 before the first opening). No one joins after the
	// first opening.
	OpenDeadline int64 `json:"openDeadline,omitempty"`
	// Seats (openings) are the seated players' commitments and whether
	// each has opened, in seat order. The contributions themselves stay
	// secret until the end, as in every fair game.
	Seats []FairSeat `json:"seats,omitempty"`
	// Removed (openings) lists every seat removed for not opening, in
	// order: public and counted, since each removal lets a seat allied
	// with the server choose between two game seeds.
	Removed []RemovedSeat `json:"removed,omitempty"`
}

// FairSeat is one seat of a fair game with openings.
type FairSeat struct {
	UID           string `json:"uid"`
	Seat          int    `json:"seat"`
	CommitmentHex Hash32 `json:"commitmentHex"`
	Opened        bool   `json:"opened,omitempty"`
}

// RemovedSeat is a seat the owner removed for not opening in time.
type RemovedSeat struct {
	UID  string `json:"uid"`
	Seat int    `json:"seat"`
	At   int64  `json:"at"`
}

// SaltReveal is the salt of the game's k-th shuffle, which opens the
// commitment of the DeckShuffled event whose rng seq is Seq.
type SaltReveal struct {
	K       int    `json:"k"`
	DeckID  string `json:"deckId"`
	Seq     uint64 `json:"seq"`
	SaltHex Hash32 `json:"saltHex"`
}

// ShuffleRecord is one shuffle of the game, kept in [Secret]: K counts the
// game's shuffles from 0, Seq is the rng seq of the shuffle's audit entry,
// Order the draw pile it made (top first) and Salt the salt of its
// commitment.
type ShuffleRecord struct {
	K      int      `json:"k"`
	Seq    uint64   `json:"seq"`
	DeckID string   `json:"deckId"`
	Tag    rng.Tag  `json:"tag"`
	Salt   Hash32   `json:"salt"`
	Order  []string `json:"order"`
}

// CommitShuffle records deck d's draw pile, just shuffled by the stream
// whose seq is now seq, as the game's next shuffle (its salt from
// Secret.SaltKey, never from the stream) and returns the commitment that
// DeckShuffled publishes. It is the one place where shuffles are committed:
// everything it costs (two SHA-256 and a copy of the pile) is here.
func (g *Game) CommitShuffle(d int, tag rng.Tag, seq uint64) Hash32 {
	sec := &g.Secret
	k := len(sec.Shuffles)
	// A reset game lends its old records (kept beyond len) to the new.
	if k < cap(sec.Shuffles) {
		sec.Shuffles = sec.Shuffles[:k+1]
	} else {
		sec.Shuffles = append(sec.Shuffles, ShuffleRecord{})
	}
	r := &sec.Shuffles[k]
	cards := sec.Decks[d].Cards
	key := [32]byte(sec.SaltKey)
	salt := fair.DeckSalt(&key, uint32(k))
	*r = ShuffleRecord{K: k, Seq: seq, DeckID: DeckIDs[d], Tag: tag, Salt: salt,
		Order: append(r.Order[:0], cards...)}
	return fair.DeckCommitment(&salt, DeckIDs[d], cards)
}

// FairGameSeed returns the seed of a fair game's stream from the server
// seed and the contributions of the players seated now, in seat order: the
// game seed once the game has started (see [rng/fair.GameSeed]). It fails
// if the game is not in fair mode or its secret is malformed.
func (g *Game) FairGameSeed() ([32]byte, error) {
	if g.Public.RNG.Mode != rng.ModeFair {
		return [32]byte{}, errors.New("engine: not a fair game")
	}
	seed, err := fair.ParseServerSeed(g.Secret.ServerSeed)
	if err != nil {
		return [32]byte{}, err
	}
	if len(g.Secret.Entropy) != len(g.Public.Players) {
		return [32]byte{}, fmt.Errorf("engine: %d contributions for %d players", len(g.Secret.Entropy), len(g.Public.Players))
	}
	cs := make([][]byte, len(g.Secret.Entropy))
	for i, h := range g.Secret.Entropy {
		if cs[i], err = fair.ParseEntropy(h); err != nil {
			return [32]byte{}, err
		}
	}
	return fair.GameSeed(seed[:], cs), nil
}

// Reveal fills Public.Fairness with what was secret until the end of the
// game (the seed or server seed, the contributions, the game seed and every
// shuffle's salt) and returns it. The reducers call it once, as the game
// finishes or is abandoned.
func (g *Game) Reveal() *Fairness {
	p, sec := &g.Public, &g.Secret
	if p.Fairness == nil {
		p.Fairness = g.NewFairness()
	}
	f := p.Fairness
	f.Revealed = true
	switch p.RNG.Mode {
	case rng.ModeSeeded:
		f.Seed = sec.Seed
	case rng.ModeFair:
		f.ServerSeedHex = sec.ServerSeed
		f.ContributionsHex = append([]string{}, sec.Entropy...)
		f.GameSeedHex = sec.GameSeed
	}
	if len(sec.Shuffles) > 0 {
		f.Salts = f.Salts[:0]
		for _, s := range sec.Shuffles {
			f.Salts = append(f.Salts, SaltReveal{K: s.K, DeckID: s.DeckID, Seq: s.Seq, SaltHex: s.Salt})
		}
	}
	return f
}

// NewFairness returns an empty Fairness for g.Public.Fairness: the one a
// reset game kept (its salts' memory reused), or a new one.
func (g *Game) NewFairness() *Fairness {
	f := g.spare
	if f == nil {
		return &Fairness{}
	}
	g.spare = nil
	*f = Fairness{Salts: f.Salts[:0]}
	return f
}

// Clone returns a deep copy of f (nil for nil).
func (f *Fairness) Clone() *Fairness {
	if f == nil {
		return nil
	}
	c := *f
	c.ContributionsHex = cloneStrings(f.ContributionsHex)
	c.Salts = cloneSlice(f.Salts)
	c.Seats = cloneSlice(f.Seats)
	c.Removed = cloneSlice(f.Removed)
	return &c
}
