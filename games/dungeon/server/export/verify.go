package export

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// Report is what a successful verification checked.
type Report struct {
	GameID string
	Mode   rng.Mode
	// Actions is the number of actions replayed through the engine (seeded
	// and fair) or checked for their order (crypto).
	Actions int
	// Events is the number of log events compared with the replay (or, in
	// crypto mode, read).
	Events int
	// Draws is the number of RNG draws recomputed (the replayed game's rng
	// seq); 0 in crypto mode, whose draws cannot be recomputed.
	Draws uint64
	// CardDraws is the number of cards drawn that were checked against the
	// committed orders.
	CardDraws int
	// Shuffles is the number of shuffle commitments opened.
	Shuffles int
	// Replayed says that the game was replayed (seeded, fair and
	// trustless modes).
	Replayed bool

	// Trustless games: the seats, the rounds closed, the links checked
	// against their predecessors, the signatures verified (actions and
	// reveals), the index of the round open at the export (0: none) and
	// the game's abort, if it was aborted.
	Seats, Rounds, Links, Signatures int
	Pending                          uint32
	Aborted                          *engine.TrustRecord
}

// Summary is the report in one line.
func (r *Report) Summary() string {
	if r.Mode == rng.ModeTrustless {
		s := fmt.Sprintf("ok: trustless game %s: %d actions replayed, %d events matched, %d rounds of %d seats closed, %d links checked against their chains, %d signatures verified, %d draws recomputed from the rounds' streams, %d cards drawn from the public piles",
			r.GameID, r.Actions, r.Events, r.Rounds, r.Seats, r.Links, r.Signatures, r.Draws, r.CardDraws)
		switch {
		case r.Pending > 0:
			s += fmt.Sprintf("; round %d is open (its links stay secret until it closes)", r.Pending)
		case r.Aborted != nil:
			s += fmt.Sprintf("; aborted at round %d (%s", r.Aborted.Index, r.Aborted.Reason)
			if len(r.Aborted.Missing) > 0 {
				s += ", not revealed by " + strings.Join(r.Aborted.Missing, ", ")
			}
			s += ")"
		}
		return s
	}
	if r.Replayed {
		return fmt.Sprintf("ok: %s game %s: %d actions replayed, %d events matched, %d draws recomputed, %d cards drawn as committed, %d shuffles opened",
			r.Mode, r.GameID, r.Actions, r.Events, r.Draws, r.CardDraws, r.Shuffles)
	}
	return fmt.Sprintf("ok as far as a %s game can be checked: game %s: %d actions in order, %d events read, %d shuffles opened, %d cards drawn as committed; dice, picks and the shuffles' randomness come from crypto/rand and cannot be recomputed",
		r.Mode, r.GameID, r.Actions, r.Events, r.Shuffles, r.CardDraws)
}

// Verify decodes and verifies an export: a *FormatError if data is not a
// readable export, a *Divergence naming the first thing that does not hold,
// or the report of what was checked.
func Verify(data []byte) (*Report, error) {
	x, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return x.Verify()
}

// verifier holds the decoded parts of an export under verification.
type verifier struct {
	x     *Export
	rules *engine.Ruleset
	rep   Report
	// events are the log's events that checkShuffles and checkDraws read
	// (in crypto mode all of them, decoded; otherwise the replay's shuffles
	// and draws, which are the log's once they compare equal).
	events []engine.Event
	// first and last are the log's first and last events.
	first, last engine.Event
	// seeds, in fair and seeded modes: the salt key the salts come from.
	saltKey [32]byte
}

// Verify checks the export (see docs/fairness.md, "What gamectl verify
// checks"):
//
//  1. the log's seqs run 1..n, it starts with GameCreated under the
//     export's ruleset (its SHA-256) and ends with FairnessRevealed, whose
//     content is the export's fairness;
//  2. fair: the server seed opens the commitment, and the game seed is the
//     contract's hash of it and the contributions; seeded and fair: every
//     salt is the one the seed derives;
//  3. seeded and fair: every action replays through the engine under the
//     ruleset, from the revealed seed, and makes exactly the log's events,
//     and the shuffles make exactly the export's orders;
//  4. every mode: the k-th DeckShuffled's commitment opens with the k-th
//     salt and order, each order holds its deck's cards (a first shuffle:
//     exactly the ruleset's deck), and the cards drawn from each deck are
//     its orders' cards in order.
func (x *Export) Verify() (*Report, error) {
	v := &verifier{x: x, rep: Report{GameID: x.GameID, Mode: x.Mode}}
	rules, err := engine.LoadRules(x.Rules)
	if err != nil {
		return nil, formatErr("rules: %v", err)
	}
	v.rules = rules
	// In seeded and fair modes the replay makes every event and compares
	// it with the log's bytes, so only the first and last entries are
	// decoded here; a crypto game's log is decoded whole.
	if err := v.first.UnmarshalJSON(x.Log[0]); err != nil {
		return nil, formatErr("log entry 0: %v", err)
	}
	if err := v.last.UnmarshalJSON(x.Log[len(x.Log)-1]); err != nil {
		return nil, formatErr("log entry %d: %v", len(x.Log)-1, err)
	}
	if x.Mode == rng.ModeTrustless {
		if err := v.verifyTrustless(); err != nil {
			return nil, err
		}
		v.rep.Events = len(v.x.Log)
		return &v.rep, nil
	}
	checks := []func() error{v.checkEnds, v.checkSeeds, v.replay}
	if x.Mode == rng.ModeCrypto {
		v.events = make([]engine.Event, len(x.Log))
		for i, l := range x.Log {
			if err := v.events[i].UnmarshalJSON(l); err != nil {
				return nil, formatErr("log entry %d: %v", i, err)
			}
		}
		checks = []func() error{v.checkSeqs, v.checkEnds, v.checkSeeds, v.checkActionOrder}
	}
	checks = append(checks, v.checkShuffles, v.checkDraws)
	for _, c := range checks {
		if err := c(); err != nil {
			return nil, err
		}
	}
	v.rep.Events = len(v.x.Log)
	return &v.rep, nil
}

func diverge(action int, seq uint64, field, expected, found, why string) error {
	return &Divergence{Action: action, Seq: seq, Field: field, Expected: expected, Found: found, Why: why}
}

// checkSeqs: the log's seqs run 1, 2, 3, ... (the replay checks them in
// seeded and fair modes).
func (v *verifier) checkSeqs() error {
	for i := range v.events {
		if v.events[i].Seq != uint64(i+1) {
			return diverge(-1, uint64(i+1), "log["+strconv.Itoa(i)+"].seq", strconv.Itoa(i+1), strconv.FormatUint(v.events[i].Seq, 10), "the log's seqs must run 1, 2, 3, ...")
		}
	}
	return nil
}

// checkEnds: the log starts with GameCreated under the export's ruleset
// and ends with the reveal, which is the export's fairness.
func (v *verifier) checkEnds() error {
	first, last := &v.first, &v.last
	if first.Type != engine.EvGameCreated {
		return diverge(0, 1, "log[0].type", "GameCreated", first.Type.String(), "")
	}
	if first.RulesHash != v.rules.Hash() {
		return diverge(0, 1, "rules", v.rules.Hash(), first.RulesHash,
			"the SHA-256 of the export's ruleset is not the one GameCreated recorded: the ruleset was changed")
	}
	if last.Type != engine.EvFairnessRevealed || last.Fair == nil {
		return diverge(-1, last.Seq, "log (last event)", "FairnessRevealed", last.Type.String(), "a finished game ends with its reveal")
	}
	f, r := &v.x.Fairness, last.Fair
	pairs := []struct{ field, export, log string }{
		{"commitmentHex", f.CommitmentHex, r.CommitmentHex},
		{"serverSeedHex", f.ServerSeedHex, r.ServerSeedHex},
		{"gameSeedHex", f.GameSeedHex, r.GameSeedHex},
		{"seed", f.Seed, r.Seed},
		{"contributionsHex", fmt.Sprint(f.ContributionsHex), fmt.Sprint(r.ContributionsHex)},
	}
	for _, p := range pairs {
		if p.export != p.log {
			return diverge(-1, last.Seq, "fairness."+p.field, p.log, p.export, "the export's fairness is not what the game revealed in its log")
		}
	}
	if len(f.Shuffles) != len(r.Salts) {
		return diverge(-1, last.Seq, "fairness.shuffles", strconv.Itoa(len(r.Salts))+" shuffles", strconv.Itoa(len(f.Shuffles)), "the reveal lists one salt per shuffle")
	}
	for k, s := range f.Shuffles {
		if s.K != k || s.SaltHex != r.Salts[k].SaltHex || s.DeckID != r.Salts[k].DeckID || s.Seq != r.Salts[k].Seq {
			return diverge(-1, last.Seq, fmt.Sprintf("fairness.shuffles[%d]", k),
				fmt.Sprintf("k %d, deck %s, seq %d, salt %s", k, r.Salts[k].DeckID, r.Salts[k].Seq, r.Salts[k].SaltHex),
				fmt.Sprintf("k %d, deck %s, seq %d, salt %s", s.K, s.DeckID, s.Seq, s.SaltHex), "the reveal in the log says otherwise")
		}
	}
	return nil
}
