package commitreveal

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"

	"github.com/fairboard/fairboard/rng"
)

// VerifyReveal reports whether serverSeed and deck are what commitment
// committed to: nil if Commit(serverSeed, deck) == commitment (compared in
// constant time), an error wrapping [ErrCommitMismatch] if not, or one
// wrapping [ErrInput] if serverSeed or deck is malformed (see [Commit]).
func VerifyReveal(commitment Commitment, serverSeed []byte, deck []string) error {
	got, err := Commit(serverSeed, deck)
	if err != nil {
		return err
	}
	if subtle.ConstantTimeCompare(got[:], commitment[:]) != 1 {
		return fmt.Errorf("%w: commitment %s, reveal hashes to %s", ErrCommitMismatch, commitment, got)
	}
	return nil
}

// ShuffleOf returns a new slice: deck permuted by the "fisher-yates-v1"
// shuffle ([rng.ChaCha20.Shuffle]) over rng.NewChaCha20(finalSeed[:]). For
// the standard deck ([rng.NewDeck]) it equals rng.ShuffleDeck(finalSeed[:]).
// It returns an error wrapping [ErrInput] if deck is malformed (see
// [Commit]).
func ShuffleOf(finalSeed [sha256.Size]byte, deck []string) ([]string, error) {
	if err := checkDeck(deck); err != nil {
		return nil, err
	}
	out := append([]string(nil), deck...)
	rng.NewChaCha20(finalSeed[:]).Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// VerifyShuffleOf recomputes the round's dealt order, ShuffleOf(FinalSeed(
// serverSeed, clientSeed), deck), and compares claimed with it. actual is
// the recomputed order whenever the inputs are well formed (so a caller can
// show where a claim differs), nil otherwise. The error is nil if claimed
// equals actual, wraps [ErrShuffleMismatch] if not (naming the first
// differing position), and wraps [ErrInput] if a seed or deck is malformed.
// claimed may be any slice; only its length and names are compared.
//
// It does not check the commitment: a verifier calls [VerifyReveal] first.
func VerifyShuffleOf(serverSeed, clientSeed []byte, deck, claimed []string) (actual []string, err error) {
	seed, err := FinalSeed(serverSeed, clientSeed)
	if err != nil {
		return nil, err
	}
	actual, err = ShuffleOf(seed, deck)
	if err != nil {
		return nil, err
	}
	if len(claimed) != len(actual) {
		return actual, fmt.Errorf("%w: claimed deck has %d cards, want %d", ErrShuffleMismatch, len(claimed), len(actual))
	}
	for i := range actual {
		if claimed[i] != actual[i] {
			return actual, fmt.Errorf("%w: position %d is %q, want %q", ErrShuffleMismatch, i, claimed[i], actual[i])
		}
	}
	return actual, nil
}

// VerifyShuffle is [VerifyShuffleOf] for the standard 52-card deck
// ([rng.NewDeck]): ADR-005's verify-shuffle API with the final seed of
// serverSeed and clientSeed. On success actual equals
// rng.ShuffleDeck(finalSeed).
func VerifyShuffle(serverSeed, clientSeed []byte, claimed []string) (actual []string, err error) {
	return VerifyShuffleOf(serverSeed, clientSeed, rng.NewDeck(), claimed)
}

// Verify is everything a client checks once the server has revealed: the
// reveal against the commitment ([VerifyReveal]), then the dealt order
// against the seeds ([VerifyShuffleOf]). It returns the first error.
func Verify(commitment Commitment, serverSeed, clientSeed []byte, deck, dealt []string) error {
	if err := VerifyReveal(commitment, serverSeed, deck); err != nil {
		return err
	}
	_, err := VerifyShuffleOf(serverSeed, clientSeed, deck, dealt)
	return err
}
