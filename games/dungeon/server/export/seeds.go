package export

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// checkSeeds: the fair commitment and game seed, and the salt key.
func (v *verifier) checkSeeds() error {
	f := &v.x.Fairness
	switch v.x.Mode {
	case rng.ModeCrypto:
		if f.ServerSeedHex != "" || f.GameSeedHex != "" || f.Seed != "" || f.CommitmentHex != "" || len(f.ContributionsHex) > 0 {
			return diverge(-1, 0, "fairness", "no seed (a crypto game has none)", "a seed", "")
		}
		return nil
	case rng.ModeSeeded:
		if f.Seed == "" {
			return diverge(-1, 0, "fairness.seed", "the seed string", `""`, "a seeded game reveals its seed")
		}
		if a := v.x.Actions[0]; a.Kind == engine.ActCreate && a.Seed != f.Seed {
			return diverge(0, 1, "actions[0].seed", strconv.Quote(f.Seed), strconv.Quote(a.Seed), "the create action's seed is not the revealed seed")
		}
		v.saltKey = fair.SaltKeySeeded(f.Seed)
		return nil
	}
	seed, err := fair.ParseServerSeed(f.ServerSeedHex)
	if err != nil {
		return diverge(-1, 0, "fairness.serverSeedHex", "64 lower-case hex digits", strconv.Quote(f.ServerSeedHex), err.Error())
	}
	commit := fair.Commitment(seed[:])
	if h := hex.EncodeToString(commit[:]); h != f.CommitmentHex {
		return diverge(-1, 0, "fairness.serverSeedHex", "a seed whose commitment is "+f.CommitmentHex, f.ServerSeedHex+" (commitment "+h+")",
			"the revealed server seed does not open the commitment published at create")
	}
	if created := v.first.Commitment.String(); created != f.CommitmentHex {
		return diverge(0, 1, "GameCreated.commitment", f.CommitmentHex, created, "the commitment in the log is not the export's")
	}
	if len(f.ContributionsHex) != len(v.x.Players) {
		return diverge(-1, 0, "fairness.contributionsHex", strconv.Itoa(len(v.x.Players))+" contributions (one per seat)", strconv.Itoa(len(f.ContributionsHex)), "")
	}
	cs := make([][]byte, len(f.ContributionsHex))
	for i, h := range f.ContributionsHex {
		if cs[i], err = fair.ParseEntropy(h); err != nil {
			return diverge(-1, 0, fmt.Sprintf("fairness.contributionsHex[%d]", i), "0 to 64 bytes of hex", strconv.Quote(h), err.Error())
		}
	}
	if r := v.last.Fair; r != nil && r.Openings {
		// A fair game with openings: each contribution opens the
		// commitment its seat published at join.
		if len(r.Seats) != len(cs) {
			return diverge(-1, 0, "fairness.seats", strconv.Itoa(len(cs))+" commitments (one per seat)", strconv.Itoa(len(r.Seats)), "")
		}
		for i, c := range cs {
			s := r.Seats[i]
			if got := fair.ContributionCommitment(v.x.GameID, uint32(s.Seat), c); engine.Hash32(got) != s.CommitmentHex {
				return diverge(-1, 0, fmt.Sprintf("fairness.contributionsHex[%d]", i), "the contribution seat "+strconv.Itoa(s.Seat)+" committed to ("+s.CommitmentHex.String()+")",
					f.ContributionsHex[i]+" (commitment "+engine.Hash32(got).String()+")", "the contribution does not open the commitment its seat published at join")
			}
		}
	}
	gs := fair.GameSeed(seed[:], cs)
	want := hex.EncodeToString(gs[:])
	if !v.started() {
		want = "" // abandoned in the lobby: no game seed was fixed
	}
	if want != f.GameSeedHex {
		return diverge(-1, 0, "fairness.gameSeedHex", strconv.Quote(want), strconv.Quote(f.GameSeedHex),
			"the game seed is not SHA-256 of the server seed and the contributions")
	}
	v.saltKey = fair.SaltKeyFair(seed[:])
	return nil
}

// started reports whether the game started: the actions hold a start
// (the replay checks that it was applied).
func (v *verifier) started() bool {
	for i := range v.x.Actions {
		if v.x.Actions[i].Kind == engine.ActStart {
			return true
		}
	}
	return false
}
