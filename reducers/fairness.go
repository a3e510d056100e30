package reducers

import (
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/rng/trustless"
)

// createSecrets checks create's ServerSeed for the mode and returns the key
// of the game's deck salts and, in fair mode, the commitment to the server
// seed. A crypto or fair game without a valid server seed is refused: the
// server must supply one (never silently random); a seeded game takes none.
func createSecrets(mode rng.Mode, a *engine.Action) (saltKey, commitment engine.Hash32, err error) {
	if mode == rng.ModeTrustless {
		if a.ServerSeed != "" {
			return saltKey, commitment, reject(engine.CodeInvalidAction, "a trustless game takes no server seed: its randomness comes from the players' chains")
		}
		return saltKey, commitment, nil // it shuffles nothing, so it has no salts
	}
	if mode == rng.ModeSeeded {
		if a.ServerSeed != "" {
			return saltKey, commitment, reject(engine.CodeInvalidAction, "a seeded game takes no server seed")
		}
		return fair.SaltKeySeeded(a.Seed), commitment, nil
	}
	seed, perr := fair.ParseServerSeed(a.ServerSeed)
	if perr != nil {
		return saltKey, commitment, reject(engine.CodeInvalidAction, "a "+string(mode)+" game needs the server's seed: "+perr.Error())
	}
	if mode == rng.ModeCrypto {
		return seed, commitment, nil
	}
	return fair.SaltKeyFair(seed[:]), fair.Commitment(seed[:]), nil
}

// joinEntropy checks a join's entropy and returns it in lower-case hex: only
// a fair game takes one.
func joinEntropy(c *engine.Ctx, a *engine.Action) (string, error) {
	if c.P.RNG.Mode != rng.ModeFair {
		if a.Entropy != "" {
			return "", reject(engine.CodeInvalidAction, "entropy is only for fair games")
		}
		return "", nil
	}
	h, err := fair.NormalizeEntropy(a.Entropy)
	if err != nil {
		return "", reject(engine.CodeInvalidAction, err.Error())
	}
	return h, nil
}

// fixGameSeed checks, before a fair game starts, that the stream handed in
// is the ChaCha20 stream of the game seed of the players seated now, and
// returns that seed in hex for Secret.GameSeed.
func fixGameSeed(c *engine.Ctx) (string, error) {
	if c.P.RNG.Mode != rng.ModeFair {
		return "", nil
	}
	seed, err := c.G.FairGameSeed()
	if err != nil {
		return "", reject(engine.CodeInvalidAction, err.Error())
	}
	h := hex.EncodeToString(seed[:])
	if c.RNG.Seed() != h || c.RNG.Seq() != 0 {
		return "", reject(engine.CodeBadStream, "the stream is not the fresh stream of the game seed")
	}
	return h, nil
}

// abandon is the owner's end of a game in its lobby or in play (or the
// server's, engine.ServerActor, for a game left unfinished past the
// server's deadline: its sweep): no winner, outcome "abandoned", and the
// reveal. Enemies on the table go to their
// discard piles, so every card stays in one place.
func abandon(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	if a.Actor != p.Owner && a.Actor != engine.ServerActor {
		return reject(engine.CodeNotOwner, "only the owner "+p.Owner+" (or the server, past its deadline) may abandon the game")
	}
	cleanupCombat(c)
	p.Duel = nil
	p.Phase, p.Step, p.Current, p.Awaiting = engine.PhaseFinished, "", "", ""
	p.FinishedAt = a.At
	ev := c.Add(engine.EvGameFinished)
	ev.Round, ev.Outcome = p.Round, EndAbandoned
	reveal(c)
	return nil
}

// reveal publishes what was secret until the end (Game.Reveal) and logs it
// as the game's last event, FairnessRevealed.
func reveal(c *engine.Ctx) {
	c.Add(engine.EvFairnessRevealed).Fair = c.G.Reveal()
}

// createProtocol checks create's protocol settings and returns them with
// their defaults: a trustless game's chain length N (at least the
// ruleset's MaxRandomActions) and the deadline of its reveal rounds, or a
// fair game's with openings deadline of the openings. Openings belong to
// fair games, a chain length to trustless ones, a deadline to either.
func createProtocol(c *engine.Ctx, mode rng.Mode, a *engine.Action) (chainLength uint32, deadline int64, err error) {
	switch {
	case a.Openings && mode != rng.ModeFair:
		return 0, 0, reject(engine.CodeInvalidAction, "openings belong to fair games")
	case a.ChainLength != 0 && mode != rng.ModeTrustless:
		return 0, 0, reject(engine.CodeInvalidAction, "a chain length belongs to trustless games")
	case a.DeadlineMs != 0 && mode != rng.ModeTrustless && !a.Openings:
		return 0, 0, reject(engine.CodeInvalidAction, "a deadline belongs to trustless games and fair games with openings")
	}
	deadline = a.DeadlineMs
	if deadline == 0 {
		deadline = engine.DefaultDeadlineMs
	}
	if deadline < engine.MinDeadlineMs || deadline > engine.MaxDeadlineMs {
		return 0, 0, reject(engine.CodeInvalidAction, "deadlineMs must be "+strconv.Itoa(engine.MinDeadlineMs)+" to "+strconv.Itoa(engine.MaxDeadlineMs))
	}
	if mode != rng.ModeTrustless {
		return 0, deadline, nil
	}
	n := a.ChainLength
	if n == 0 {
		n = trustless.DefaultChainLength
	}
	if need := c.Rules.MaxRandomActions(); n < need || n > trustless.MaxChainLength {
		return 0, 0, reject(engine.CodeInvalidAction, "chainLength "+strconv.Itoa(n)+": the ruleset may need "+strconv.Itoa(need)+
			" reveal rounds, and a chain has at most "+strconv.Itoa(trustless.MaxChainLength)+" links")
	}
	return uint32(n), deadline, nil
}

// seatJoinKeys are what a join brings besides its seat: a fair seat's
// commitment (with openings), a trustless seat's chain head and key.
type seatJoinKeys struct {
	commitment, head, key engine.Hash32
}

// joinKeys checks a join's commitment, chain head and public key for the
// game's mode: a fair game with openings needs the commitment and takes
// no entropy (it comes with open); a trustless game needs the head and
// the key; no other game takes them.
func joinKeys(c *engine.Ctx, a *engine.Action) (k seatJoinKeys, err error) {
	p := c.P
	openings := p.Fairness != nil && p.Fairness.Openings
	switch {
	case openings && p.Fairness.OpenDeadline != 0:
		return k, reject(engine.CodeAlreadyStarted, "the openings have begun: the seats are fixed and the game takes no joins")
	case openings && a.Entropy != "":
		return k, reject(engine.CodeInvalidAction, "a fair game with openings takes the contribution's commitment at join and the contribution with open")
	case openings:
		k.commitment, err = engine.ParseHash32(a.EntropyCommitment, "entropyCommitment (a join's commitment to its contribution)")
	case a.EntropyCommitment != "":
		return k, reject(engine.CodeInvalidAction, "entropyCommitment belongs to fair games with openings")
	}
	if err != nil {
		return k, reject(engine.CodeInvalidAction, err.Error())
	}
	if p.RNG.Mode != rng.ModeTrustless {
		if a.ChainHead != "" || a.PublicKey != "" {
			return k, reject(engine.CodeInvalidAction, "chainHead and publicKey belong to trustless games")
		}
		return k, nil
	}
	if k.head, err = engine.ParseHash32(a.ChainHead, "chainHead (the head x_0 of the seat's hash chain)"); err != nil {
		return k, reject(engine.CodeInvalidAction, err.Error())
	}
	if k.key, err = engine.ParseHash32(a.PublicKey, "publicKey (the seat's Ed25519 public key)"); err != nil {
		return k, reject(engine.CodeInvalidAction, err.Error())
	}
	return k, nil
}

// seatKeys records what a join brought (see joinKeys) for the player
// inserted at index at of Public.Players, and shows it on its
// PlayerJoined event e.
func seatKeys(c *engine.Ctx, a *engine.Action, at int, k seatJoinKeys, e *engine.Event) {
	p := c.P
	var shown engine.JoinKeys
	if f := p.Fairness; f != nil && f.Openings {
		f.Seats = slices.Insert(f.Seats, at, engine.FairSeat{UID: a.Actor, Seat: a.Seat, CommitmentHex: k.commitment})
		shown.EntropyCommitment = k.commitment
	}
	if t := p.Trustless; t != nil {
		t.Seats = slices.Insert(t.Seats, at, engine.TrustSeat{UID: a.Actor, Seat: a.Seat, Head: k.head, PublicKey: k.key, Link: k.head})
		shown.ChainHead, shown.PublicKey = k.head, k.key
	}
	if shown != (engine.JoinKeys{}) {
		keys := shown // on the heap only here: a seeded or crypto join allocates nothing
		e.Keys = &keys
	}
}

// allOpened refuses the start of a fair game with openings while a seat
// has not opened its contribution.
func allOpened(c *engine.Ctx) error {
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
		return reject(engine.CodeNotOpened, "every seat opens its contribution before the start; not yet: "+strings.Join(missing, ", "))
	}
	return nil
}

// open is a seat's opening of its contribution in a fair game with
// openings: 32 bytes that must be the ones its join committed to. The
// first opening fixes the seats (no join after it) and starts the public
// deadline after which the owner may remove a seat still unopened.
func open(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	f := p.Fairness
	switch {
	case f == nil || !f.Openings:
		return reject(engine.CodeInvalidAction, "open belongs to fair games with openings")
	case p.Phase != engine.PhaseLobby:
		return reject(engine.CodeAlreadyStarted, "the game has started")
	}
	pl, i := p.Player(a.Actor)
	if pl == nil {
		return reject(engine.CodeUnknownPlayer, a.Actor+" has no seat in this game")
	}
	fs := &f.Seats[i]
	if fs.Opened {
		return reject(engine.CodeAlreadyOpened, a.Actor+" has already opened its contribution")
	}
	contribution, err := fair.ParseContribution(a.Entropy)
	if err != nil {
		return reject(engine.CodeInvalidAction, err.Error())
	}
	if got := fair.ContributionCommitment(p.GameID, uint32(pl.Seat), contribution); engine.Hash32(got) != fs.CommitmentHex {
		return reject(engine.CodeWrongOpening, "the contribution opened by "+a.Actor+" is not the one its join committed to ("+fs.CommitmentHex.String()+")")
	}
	fs.Opened = true
	c.G.Secret.Entropy[i] = hex.EncodeToString(contribution)
	if f.OpenDeadline == 0 {
		f.OpenDeadline = a.At + f.DeadlineMs
	}
	e := c.Add(engine.EvEntropyOpened)
	e.UID, e.Seat = pl.UID, pl.Seat
	return nil
}

// removeSeat is the owner's removal of a seat that did not open its
// contribution by the openings' public deadline, in a fair game with
// openings. It is public and counted (Fairness.Removed): each removal
// lets a seat allied with the server choose between two game seeds.
func removeSeat(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	f := p.Fairness
	switch {
	case f == nil || !f.Openings:
		return reject(engine.CodeInvalidAction, "removeSeat belongs to fair games with openings")
	case p.Phase != engine.PhaseLobby:
		return reject(engine.CodeAlreadyStarted, "the game has started")
	case a.Actor != p.Owner:
		return reject(engine.CodeNotOwner, "only the owner "+p.Owner+" may remove a seat")
	}
	pl, i := p.Player(a.Target)
	switch {
	case pl == nil:
		return reject(engine.CodeUnknownPlayer, "no player "+a.Target+" to remove")
	case f.Seats[i].Opened:
		return reject(engine.CodeInvalidAction, a.Target+" has opened its contribution; only a seat that never opened may be removed")
	case f.OpenDeadline == 0:
		return reject(engine.CodeDeadlineNotPassed, "no seat has opened yet: the openings' deadline has not begun")
	case a.At <= f.OpenDeadline:
		return reject(engine.CodeDeadlineNotPassed, "a seat may be removed only after the openings' deadline "+strconv.FormatInt(f.OpenDeadline, 10))
	}
	uid, seat := pl.UID, pl.Seat
	p.Players = slices.Delete(p.Players, i, i+1)
	f.Seats = slices.Delete(f.Seats, i, i+1)
	c.G.Secret.Entropy = slices.Delete(c.G.Secret.Entropy, i, i+1)
	f.Removed = append(f.Removed, engine.RemovedSeat{UID: uid, Seat: seat, At: a.At})
	e := c.Add(engine.EvSeatRemoved)
	e.UID, e.Seat, e.Reason = uid, seat, "unopened"
	return nil
}

// abortGame ends a trustless game as aborted, after the engine's
// GameAborted: no winner, enemies on the table to their discard piles, the
// reveal. Only the engine reaches it, once it has checked the abort (the
// deadline passed, the owner's abandon during a round, or chains run out).
func abortGame(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	cleanupCombat(c)
	p.Duel = nil
	p.Phase, p.Step, p.Current, p.Awaiting = engine.PhaseFinished, "", "", ""
	p.FinishedAt = a.At
	ev := c.Add(engine.EvGameFinished)
	ev.Round, ev.Outcome = p.Round, EndAborted
	reveal(c)
	return nil
}
