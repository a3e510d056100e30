package match

import (
	"crypto/subtle"
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// RecordFairness is a fair game's protocol in its record
// (docs/fairness.md, "The fair mode", and "A table game's record"): the
// commitment published when the game was created, the server seed that
// opens it, and each seat's entropy in seat order, lower-case hex ("" for
// a seat that gave none). The record's Seed is the game seed they make.
type RecordFairness struct {
	CommitmentHex    string   `json:"commitmentHex"`
	ServerSeedHex    string   `json:"serverSeedHex"`
	ContributionsHex []string `json:"contributionsHex"`
	// Openings is a fair game's with openings: each seat's contribution
	// must open its commitment (absent in a game without openings).
	Openings *RecordOpenings `json:"openings,omitempty"`
}

// RecordOpenings is the openings of a fair game's record: the game id
// the commitments are bound to and each seat's commitment
// (fair.ContributionCommitment, 64 lower-case hex digits), in seat order.
type RecordOpenings struct {
	GameID         string   `json:"gameId"`
	CommitmentsHex []string `json:"commitmentsHex"`
}

// GameSeedHex returns the game seed of a fair game: fair.GameSeed of the
// server seed (64 lower-case hex digits) and the contributions (hex, 0 to
// 64 bytes each, in seat order), as 64 lower-case hex digits. Errors name
// the malformed input.
func GameSeedHex(serverSeedHex string, contributionsHex []string) (string, error) {
	seed, err := fair.ParseServerSeed(serverSeedHex)
	if err != nil {
		return "", err
	}
	cs := make([][]byte, len(contributionsHex))
	for i, c := range contributionsHex {
		if cs[i], err = fair.ParseEntropy(c); err != nil {
			return "", fmt.Errorf("seat %d's contribution: %w", i, err)
		}
	}
	g := fair.GameSeed(seed[:], cs)
	return hex.EncodeToString(g[:]), nil
}

// CommitmentHex returns the commitment to a server seed (64 lower-case
// hex digits), as 64 lower-case hex digits.
func CommitmentHex(serverSeedHex string) (string, error) {
	seed, err := fair.ParseServerSeed(serverSeedHex)
	if err != nil {
		return "", err
	}
	c := fair.Commitment(seed[:])
	return hex.EncodeToString(c[:]), nil
}

// checkFairness checks a fair record's protocol: the form of every field
// (an error), then that the server seed opens the commitment and that it
// and the contributions make the record's seed (a divergence).
func checkFairness(r *Record) (divergence, err error) {
	f := r.Fairness
	if len(f.ContributionsHex) != r.Seats {
		return nil, fmt.Errorf("fairness: %d contributions for %d seats", len(f.ContributionsHex), r.Seats)
	}
	if len(f.CommitmentHex) != 64 {
		return nil, fmt.Errorf("fairness: commitmentHex must be 64 hex digits")
	}
	commit, err := CommitmentHex(f.ServerSeedHex)
	if err != nil {
		return nil, fmt.Errorf("fairness: serverSeedHex: %w", err)
	}
	gameSeed, err := GameSeedHex(f.ServerSeedHex, f.ContributionsHex)
	if err != nil {
		return nil, fmt.Errorf("fairness: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(commit), []byte(f.CommitmentHex)) != 1 {
		return fmt.Errorf("fairness: the server seed does not open the commitment: it commits to %s, not %s", commit, f.CommitmentHex), nil
	}
	if gameSeed != r.Seed {
		return fmt.Errorf("fairness: the server seed and the contributions make the game seed %s, not the record's %s", gameSeed, r.Seed), nil
	}
	return checkOpenings(f, r.Seats)
}

// checkOpenings checks that each contribution opens its seat's
// commitment (nothing without openings): a form error for a commitment
// list that does not fit the seats, a divergence naming the first seat
// whose contribution does not open it.
func checkOpenings(f *RecordFairness, seats int) (divergence, err error) {
	op := f.Openings
	if op == nil {
		return nil, nil
	}
	if len(op.CommitmentsHex) != seats {
		return nil, fmt.Errorf("fairness: %d commitments for %d seats", len(op.CommitmentsHex), seats)
	}
	for s, c := range f.ContributionsHex {
		b, err := fair.ParseContribution(c)
		if err != nil {
			return nil, fmt.Errorf("fairness: seat %d's opened contribution: %w", s, err)
		}
		want := fair.ContributionCommitment(op.GameID, uint32(s), b)
		if subtle.ConstantTimeCompare([]byte(hex.EncodeToString(want[:])), []byte(op.CommitmentsHex[s])) != 1 {
			return fmt.Errorf("fairness: seat %d's contribution does not open its commitment %.16s…", s, op.CommitmentsHex[s]), nil
		}
	}
	return nil, nil
}

// checkFairForm is ReadRecord's check of a record's fairness against its
// mode: a fair record has it and a game seed's form, no other record has
// it.
func checkFairForm(r *Record) error {
	switch {
	case r.Mode == rng.ModeFair && r.Fairness == nil:
		return fmt.Errorf("a fair record without its fairness (commitment, server seed, contributions)")
	case r.Mode != rng.ModeFair && r.Fairness != nil:
		return fmt.Errorf("a %s record with a fair game's fairness", r.Mode)
	case r.Mode == rng.ModeFair && len(r.Draws) > 0:
		return fmt.Errorf("a fair record with draws: its game seed gives them")
	}
	if r.Mode == rng.ModeFair {
		if _, err := fair.ParseServerSeed(r.Seed); err != nil {
			return fmt.Errorf("a fair record's seed is its game seed, 64 lower-case hex digits")
		}
	}
	return nil
}
