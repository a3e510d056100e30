package engine

import (
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/rng/trustless"
)

// The lobby's protocol that every game shares, which a game's create,
// join and start handlers call around their own checks: the mode's
// secrets and protocol settings at create, a seat's entropy and keys at
// join, the openings and the fair game seed at start. Each check returns
// an *Error (a rejection) for an action that breaks the protocol, and
// changes nothing then.

// CreateSecrets checks create's ServerSeed for the mode and returns the key
// of the game's deck salts and, in fair mode, the commitment to the server
// seed. A crypto or fair game without a valid server seed is refused: the
// server must supply one (never silently random); a seeded game takes none.
func CreateSecrets(mode rng.Mode, a *Action) (saltKey, commitment Hash32, err error) {
	if mode == rng.ModeTrustless {
		if a.ServerSeed != "" {
			return saltKey, commitment, Reject(CodeInvalidAction, "a trustless game takes no server seed: its randomness comes from the players' chains")
		}
		return saltKey, commitment, nil // it shuffles nothing, so it has no salts
	}
	if mode == rng.ModeSeeded {
		if a.ServerSeed != "" {
			return saltKey, commitment, Reject(CodeInvalidAction, "a seeded game takes no server seed")
		}
		return fair.SaltKeySeeded(a.Seed), commitment, nil
	}
	seed, perr := fair.ParseServerSeed(a.ServerSeed)
	if perr != nil {
		return saltKey, commitment, Reject(CodeInvalidAction, "a "+string(mode)+" game needs the server's seed: "+perr.Error())
	}
	if mode == rng.ModeCrypto {
		return seed, commitment, nil
	}
	return fair.SaltKeyFair(seed[:]), fair.Commitment(seed[:]), nil
}

// CreateProtocol checks create's protocol settings and returns them with
// their defaults: a trustless game's chain length N (at least the
// ruleset's MaxRandomActions) and the deadline of its reveal rounds, or a
// fair game's with openings deadline of the openings. Openings belong to
// fair games, a chain length to trustless ones, a deadline to either.
func CreateProtocol(c *Ctx, mode rng.Mode, a *Action) (chainLength uint32, deadline int64, err error) {
	switch {
	case a.Openings && mode != rng.ModeFair:
		return 0, 0, Reject(CodeInvalidAction, "openings belong to fair games")
	case a.ChainLength != 0 && mode != rng.ModeTrustless:
		return 0, 0, Reject(CodeInvalidAction, "a chain length belongs to trustless games")
	case a.DeadlineMs != 0 && mode != rng.ModeTrustless && !a.Openings:
		return 0, 0, Reject(CodeInvalidAction, "a deadline belongs to trustless games and fair games with openings")
	}
	deadline = a.DeadlineMs
	if deadline == 0 {
		deadline = DefaultDeadlineMs
	}
	if deadline < MinDeadlineMs || deadline > MaxDeadlineMs {
		return 0, 0, Reject(CodeInvalidAction, "deadlineMs must be "+strconv.Itoa(MinDeadlineMs)+" to "+strconv.Itoa(MaxDeadlineMs))
	}
	if mode != rng.ModeTrustless {
		return 0, deadline, nil
	}
	n := a.ChainLength
	if n == 0 {
		n = trustless.DefaultChainLength
	}
	if need := c.Rules.MaxRandomActions(); n < need || n > trustless.MaxChainLength {
		return 0, 0, Reject(CodeInvalidAction, "chainLength "+strconv.Itoa(n)+": the ruleset may need "+strconv.Itoa(need)+
			" LogReveal rounds, and a chain has at most "+strconv.Itoa(trustless.MaxChainLength)+" links")
	}
	return uint32(n), deadline, nil
}

// JoinEntropy checks a join's entropy and returns it in lower-case hex: only
// a fair game takes one.
func JoinEntropy(c *Ctx, a *Action) (string, error) {
	if c.P.RNG.Mode != rng.ModeFair {
		if a.Entropy != "" {
			return "", Reject(CodeInvalidAction, "entropy is only for fair games")
		}
		return "", nil
	}
	h, err := fair.NormalizeEntropy(a.Entropy)
	if err != nil {
		return "", Reject(CodeInvalidAction, err.Error())
	}
	return h, nil
}

// SeatJoinKeys are what a join brings besides its seat: a fair seat's
// commitment (with openings), a trustless seat's chain head and key.
type SeatJoinKeys struct {
	commitment, head, key Hash32
}

// CheckJoinKeys checks a join's commitment, chain head and public key for the
// game's mode: a fair game with openings needs the commitment and takes
// no entropy (it comes with open); a trustless game needs the head and
// the key; no other game takes them.
func CheckJoinKeys(c *Ctx, a *Action) (k SeatJoinKeys, err error) {
	p := c.P
	openings := p.Fairness != nil && p.Fairness.Openings
	switch {
	case openings && p.Fairness.OpenDeadline != 0:
		return k, Reject(CodeAlreadyStarted, "the openings have begun: the seats are fixed and the game takes no joins")
	case openings && a.Entropy != "":
		return k, Reject(CodeInvalidAction, "a fair game with openings takes the contribution's commitment at join and the contribution with open")
	case openings:
		k.commitment, err = ParseHash32(a.EntropyCommitment, "entropyCommitment (a join's commitment to its contribution)")
	case a.EntropyCommitment != "":
		return k, Reject(CodeInvalidAction, "entropyCommitment belongs to fair games with openings")
	}
	if err != nil {
		return k, Reject(CodeInvalidAction, err.Error())
	}
	if p.RNG.Mode != rng.ModeTrustless {
		if a.ChainHead != "" || a.PublicKey != "" {
			return k, Reject(CodeInvalidAction, "chainHead and publicKey belong to trustless games")
		}
		return k, nil
	}
	if k.head, err = ParseHash32(a.ChainHead, "chainHead (the head x_0 of the seat's hash chain)"); err != nil {
		return k, Reject(CodeInvalidAction, err.Error())
	}
	if k.key, err = ParseHash32(a.PublicKey, "publicKey (the seat's Ed25519 public key)"); err != nil {
		return k, Reject(CodeInvalidAction, err.Error())
	}
	return k, nil
}

// SeatKeys records what a join brought (see CheckJoinKeys) for the player
// inserted at index at of Public.Players, and shows it on its
// PlayerJoined event e.
func SeatKeys(c *Ctx, a *Action, at int, k SeatJoinKeys, e *Event) {
	p := c.P
	var shown JoinKeys
	if f := p.Fairness; f != nil && f.Openings {
		f.Seats = slices.Insert(f.Seats, at, FairSeat{UID: a.Actor, Seat: a.Seat, CommitmentHex: k.commitment})
		shown.EntropyCommitment = k.commitment
	}
	if t := p.Trustless; t != nil {
		t.Seats = slices.Insert(t.Seats, at, TrustSeat{UID: a.Actor, Seat: a.Seat, Head: k.head, PublicKey: k.key, Link: k.head})
		shown.ChainHead, shown.PublicKey = k.head, k.key
	}
	if shown != (JoinKeys{}) {
		keys := shown // on the heap only here: a seeded or crypto join allocates nothing
		e.Keys = &keys
	}
}

// AllOpened refuses the start of a fair game with openings while a seat
// has not opened its contribution.
func AllOpened(c *Ctx) error {
	f := c.P.Fairness
	if f == nil || !f.Openings {
		return nil
	}
	var missing []string
	for _, s := range f.Seats {
		if !s.Opened {
			missing = append(missing, s.UID)
		}
	}
	if len(missing) > 0 {
		return Reject(CodeNotOpened, "every seat opens its contribution before the start; not yet: "+strings.Join(missing, ", "))
	}
	return nil
}

// FixGameSeed checks, before a fair game starts, that the stream handed in
// is the ChaCha20 stream of the game seed of the players seated now, and
// returns that seed in hex for Secret.GameSeed.
func FixGameSeed(c *Ctx) (string, error) {
	if c.P.RNG.Mode != rng.ModeFair {
		return "", nil
	}
	seed, err := c.G.FairGameSeed()
	if err != nil {
		return "", Reject(CodeInvalidAction, err.Error())
	}
	h := hex.EncodeToString(seed[:])
	if c.RNG.Seed() != h || c.RNG.Seq() != 0 {
		return "", Reject(CodeBadStream, "the stream is not the fresh stream of the game seed")
	}
	return h, nil
}
