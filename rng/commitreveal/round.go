package commitreveal

import (
	"crypto/sha256"
	"fmt"
	"slices"
)

// Phase is where a [Round] stands. Phases only move forward:
// committed → client seeded → revealed, or to failed from client seeded
// when a client finds that a reveal does not verify.
type Phase int

// The phases of a round.
const (
	PhaseCommitted    Phase = iota + 1 // commitment known, no client seed yet
	PhaseClientSeeded                  // client seed fixed, server seed still secret
	PhaseRevealed                      // server seed revealed (and, for a client, verified)
	PhaseFailed                        // a client found the reveal false; the round is void
)

// String returns the phase's name: "committed", "client-seeded",
// "revealed", "failed", or "Phase(n)" for any other value.
func (p Phase) String() string {
	switch p {
	case PhaseCommitted:
		return "committed"
	case PhaseClientSeeded:
		return "client-seeded"
	case PhaseRevealed:
		return "revealed"
	case PhaseFailed:
		return "failed"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// Round is one commit-reveal shuffle seen from one side: the server's
// (made by [NewServerRound]) or the client's ([NewClientRound]). Both sides
// call SetClientSeed; then the server calls Reveal and the client
// AcceptReveal. A call in the wrong phase, or by the wrong side, returns an
// error wrapping [ErrPhase] and changes nothing.
//
// The server learns the dealt order as soon as the client seed is set
// ([Round.Dealt]) and deals from it; it reveals only when the hand is over,
// because the server seed gives away the whole order to whoever receives
// it. A Round is not safe for concurrent use.
type Round struct {
	server     bool
	phase      Phase
	commitment Commitment
	deck       []string
	serverSeed []byte // server: from the start; client: once revealed
	clientSeed []byte
	dealt      []string // once both seeds are known to this side
	failure    error    // why a client round failed
}

// NewServerRound starts a server round on deck with a fresh server seed
// ([NewServerSeed]). It returns an error wrapping [ErrInput] if deck is
// malformed (see [Commit]).
func NewServerRound(deck []string) (*Round, error) {
	return NewServerRoundSeed(NewServerSeed(), deck)
}

// NewServerRoundSeed is [NewServerRound] with a given server seed, for
// tests and replays; it returns an error wrapping [ErrInput] if serverSeed
// or deck is malformed. The round keeps copies of both.
func NewServerRoundSeed(serverSeed []byte, deck []string) (*Round, error) {
	c, err := Commit(serverSeed, deck)
	if err != nil {
		return nil, err
	}
	return &Round{server: true, phase: PhaseCommitted, commitment: c,
		deck: slices.Clone(deck), serverSeed: slices.Clone(serverSeed)}, nil
}

// NewClientRound starts a client round from the server's commitment and the
// deck the server says it committed to. It returns an error wrapping
// [ErrInput] if deck is malformed. The round keeps a copy of deck.
func NewClientRound(commitment Commitment, deck []string) (*Round, error) {
	if err := checkDeck(deck); err != nil {
		return nil, err
	}
	return &Round{phase: PhaseCommitted, commitment: commitment, deck: slices.Clone(deck)}, nil
}

// Phase returns the round's phase.
func (r *Round) Phase() Phase { return r.phase }

// IsServer reports whether this is the server's side of the round.
func (r *Round) IsServer() bool { return r.server }

// Commitment returns the commitment the round is bound to.
func (r *Round) Commitment() Commitment { return r.commitment }

// Deck returns a copy of the committed deck, in its committed order.
func (r *Round) Deck() []string { return slices.Clone(r.deck) }

// SetClientSeed fixes the client's seed (1..MaxClientSeed bytes, copied).
// It is allowed once, in PhaseCommitted, and moves the round to
// PhaseClientSeeded. Errors: [ErrPhase] in any other phase, [ErrInput] for
// a malformed seed.
func (r *Round) SetClientSeed(clientSeed []byte) error {
	if r.phase != PhaseCommitted {
		return r.phaseError("SetClientSeed", PhaseCommitted)
	}
	if err := checkClientSeed(clientSeed); err != nil {
		return err
	}
	r.clientSeed = slices.Clone(clientSeed)
	if r.server {
		r.dealt = r.shuffle()
	}
	r.phase = PhaseClientSeeded
	return nil
}

// Reveal is the server's reveal: it returns a copy of the server seed and
// moves the round to PhaseRevealed. It is allowed once, on a server round in
// PhaseClientSeeded; otherwise it returns an error wrapping [ErrPhase].
func (r *Round) Reveal() ([]byte, error) {
	if !r.server {
		return nil, fmt.Errorf("%w: Reveal is the server's; a client calls AcceptReveal", ErrPhase)
	}
	if r.phase != PhaseClientSeeded {
		return nil, r.phaseError("Reveal", PhaseClientSeeded)
	}
	r.phase = PhaseRevealed
	return slices.Clone(r.serverSeed), nil
}

// AcceptReveal is the client's check of the server's reveal: serverSeed
// must hash, with the committed deck, to the commitment ([VerifyReveal]).
// If it does, the round moves to PhaseRevealed and [Round.Dealt] gives the
// order every honest party computes. If it does not, the round moves to
// PhaseFailed for good and the error wraps [ErrCommitMismatch] or
// [ErrInput]. It is allowed once, on a client round in PhaseClientSeeded;
// otherwise it returns an error wrapping [ErrPhase].
func (r *Round) AcceptReveal(serverSeed []byte) error {
	if r.server {
		return fmt.Errorf("%w: AcceptReveal is the client's; the server calls Reveal", ErrPhase)
	}
	if r.phase != PhaseClientSeeded {
		return r.phaseError("AcceptReveal", PhaseClientSeeded)
	}
	if err := VerifyReveal(r.commitment, serverSeed, r.deck); err != nil {
		r.phase, r.failure = PhaseFailed, err
		return err
	}
	r.serverSeed = slices.Clone(serverSeed)
	r.dealt = r.shuffle()
	r.phase = PhaseRevealed
	return nil
}

// Dealt returns a copy of the dealt order: the committed deck shuffled with
// the final seed. The server has it from PhaseClientSeeded on, the client
// only in PhaseRevealed; otherwise the error wraps [ErrPhase].
func (r *Round) Dealt() ([]string, error) {
	if r.dealt == nil {
		return nil, r.phaseError("Dealt", r.dealtPhase())
	}
	return slices.Clone(r.dealt), nil
}

// CheckDealt compares an order the other side claims with this side's
// [Round.Dealt]: nil if equal, an error wrapping [ErrShuffleMismatch] naming
// the first difference, or [ErrPhase] if this side has no dealt order yet.
func (r *Round) CheckDealt(claimed []string) error {
	if r.dealt == nil {
		return r.phaseError("CheckDealt", r.dealtPhase())
	}
	_, err := VerifyShuffleOf(r.serverSeed, r.clientSeed, r.deck, claimed)
	return err
}

// FinalSeed returns the round's final seed, in PhaseRevealed only (on
// either side); otherwise the error wraps [ErrPhase].
func (r *Round) FinalSeed() ([sha256.Size]byte, error) {
	if r.phase != PhaseRevealed {
		return [sha256.Size]byte{}, r.phaseError("FinalSeed", PhaseRevealed)
	}
	return FinalSeed(r.serverSeed, r.clientSeed)
}

// Failure returns why a client round failed, or nil.
func (r *Round) Failure() error { return r.failure }

// shuffle computes the dealt order; both seeds and the deck are known valid.
func (r *Round) shuffle() []string {
	seed, err := FinalSeed(r.serverSeed, r.clientSeed)
	if err != nil {
		panic("commitreveal: seeds checked on entry: " + err.Error())
	}
	d, err := ShuffleOf(seed, r.deck)
	if err != nil {
		panic("commitreveal: deck checked on entry: " + err.Error())
	}
	return d
}

// dealtPhase is the first phase in which this side knows the dealt order.
func (r *Round) dealtPhase() Phase {
	if r.server {
		return PhaseClientSeeded
	}
	return PhaseRevealed
}

func (r *Round) phaseError(call string, want Phase) error {
	side := "client"
	if r.server {
		side = "server"
	}
	return fmt.Errorf("%w: %s on a %s round in phase %s (allowed in %s)", ErrPhase, call, side, r.phase, want)
}
