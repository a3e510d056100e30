package table

import (
	"slices"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// Fairness is a fair table's protocol as every reader sees it
// (docs/fairness.md, "The fair mode"): the commitment to the server seed,
// published from the create on, and once the table is finished what opens
// it: the server seed, each seat's entropy in seat order (lower-case hex,
// "" for none) and the game seed they made ("" for a table abandoned in
// its lobby, which never had one).
type Fairness struct {
	CommitmentHex    string
	ServerSeedHex    string
	ContributionsHex []string
	GameSeedHex      string
	// Openings is a table's with openings (openings.go), nil without.
	Openings *Openings
}

// checkFairCreate checks a create's server seed against its mode: a fair
// table needs one (64 lower-case hex digits, drawn by the server), no
// other table takes one.
func checkFairCreate(req CreateRequest) *Error {
	switch {
	case req.Mode == rng.ModeFair && req.Seed != "":
		return reject(CodeBadSetup, "a fair table takes no seed: its game seed comes from the server's seed and the players' entropy")
	case req.Mode == rng.ModeFair:
		if _, err := fair.ParseServerSeed(req.ServerSeed); err != nil {
			return reject(CodeBadSetup, "a fair table needs the server's seed: "+err.Error())
		}
	case req.ServerSeed != "":
		return reject(CodeBadSetup, "only a fair table takes a server seed")
	}
	return nil
}

// takeEntropy keeps a joining seat's entropy: a fair table's (0 to 64
// bytes as hex, either case, kept lower-case); bad_entropy for malformed
// entropy, or any at a table of another mode.
func (t *Table) takeEntropy(seat int, e string) *Error {
	if t.mode != rng.ModeFair {
		if e != "" {
			return reject(CodeBadEntropy, "entropy is for fair tables; this one is "+string(t.mode))
		}
		return nil
	}
	norm, err := fair.NormalizeEntropy(e)
	if err != nil {
		return reject(CodeBadEntropy, err.Error())
	}
	t.entropy[seat] = norm
	return nil
}

// freeEntropy forgets a seat's entropy when its player leaves the lobby.
func (t *Table) freeEntropy(seat int) {
	if t.entropy != nil {
		t.entropy[seat] = ""
	}
}

// matchSeed is the seed of the table's match: a seeded table's seed, a
// fair table's game seed (of its server seed and its seats' entropy), none
// for a crypto table.
func (t *Table) matchSeed() (string, error) {
	if t.mode != rng.ModeFair {
		return t.seed, nil
	}
	return match.GameSeedHex(t.serverSeed, t.entropy)
}

// fairness is what a reader sees of a fair table's protocol (nil for
// another mode): the commitment, and the rest once the table is finished.
func (t *Table) fairness() *Fairness {
	if t.mode != rng.ModeFair {
		return nil
	}
	commit, err := match.CommitmentHex(t.serverSeed)
	if err != nil {
		panic("table: a fair table's server seed was checked at create: " + err.Error())
	}
	f := &Fairness{CommitmentHex: commit, Openings: t.openingsView()}
	if t.phase == PhaseFinished {
		f.ServerSeedHex, f.ContributionsHex = t.serverSeed, slices.Clone(t.entropy)
		if t.m != nil {
			f.GameSeedHex, _ = t.matchSeed()
		}
	}
	return f
}

// recordFairness is a finished fair table's record of its protocol.
func (t *Table) recordFairness() *match.RecordFairness {
	f := t.fairness()
	if f == nil {
		return nil
	}
	return &match.RecordFairness{CommitmentHex: f.CommitmentHex, ServerSeedHex: f.ServerSeedHex, ContributionsHex: f.ContributionsHex, Openings: t.recordOpenings()}
}
