package export

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/session"
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

// engineAction is the engine's action for the export's i-th.
func (v *verifier) engineAction(xa *Action) engine.Action {
	a := xa.engineAction()
	if a.Kind == engine.ActCreate && v.x.Mode == rng.ModeFair {
		a.ServerSeed = v.x.Fairness.ServerSeedHex
	}
	return a
}

// describe names an action for a message: "move by p2 (version 58)".
func describe(xa *Action) string {
	return fmt.Sprintf("%s by %s (version %d)", xa.Kind, xa.Actor, xa.Version)
}

// replay applies every action to a new game through the engine, a stream
// rebuilt from the stored game before each as a server does, and compares
// every event with the log and the shuffles with the export's orders.
func (v *verifier) replay() error {
	eng := engine.NewReference(v.rules)
	disp := eng.NewDispatcher()
	g := &engine.Game{}
	v.events = v.events[:0]
	var buf []engine.Event
	var js []byte
	for i := range v.x.Actions {
		xa := &v.x.Actions[i]
		if i == 0 && xa.Kind != engine.ActCreate {
			return diverge(0, 1, "actions[0].kind", "create", string(xa.Kind), "")
		}
		if m := rng.Mode(xa.Mode); xa.Kind == engine.ActCreate && m != v.x.Mode && !(m == "" && v.x.Mode == rng.ModeCrypto) {
			return diverge(i, 1, "actions[0].mode", string(v.x.Mode), strconv.Quote(xa.Mode), "the create action's mode is not the export's")
		}
		a := v.engineAction(xa)
		var s *rng.Stream
		if i > 0 {
			var err error
			if s, err = session.StreamFor(g, &a); err != nil {
				return diverge(i, g.Public.LogSeq+1, "action", describe(xa)+" applied", "no stream: "+err.Error(), "")
			}
		}
		ev, err := disp.Dispatch(g, &a, s, buf[:0])
		if err != nil {
			return diverge(i, g.Public.LogSeq+1, "action", describe(xa)+" accepted by the engine", "rejected: "+err.Error(),
				"the actions are not the game's: one was dropped, moved, changed or added")
		}
		buf = ev
		if s != nil {
			if err := g.SaveStream(s); err != nil {
				return diverge(i, 0, "action", "a saved stream", err.Error(), "")
			}
		}
		for j := range ev {
			switch ev[j].Type {
			case engine.EvDeckShuffled, engine.EvCardDrawn, engine.EvEnemySpawned:
				// what checkShuffles and checkDraws read; the rest is
				// compared here and not needed again
				v.events = append(v.events, ev[j])
			}
		}
		for j := range ev {
			e := &ev[j]
			js = e.AppendJSON(js[:0])
			if e.Seq > uint64(len(v.x.Log)) {
				return diverge(i, e.Seq, "log", string(js), "the end of the log", "the replay makes more events than the log has")
			}
			if field, want, got, same := diffEvent(e.Type.String(), js, v.x.Log[e.Seq-1]); !same {
				return diverge(i, e.Seq, field, want, got, "")
			}
		}
	}
	if g.Public.LogSeq != uint64(len(v.x.Log)) {
		n := g.Public.LogSeq
		return diverge(len(v.x.Actions)-1, n+1, "log", "the end of the log after "+strconv.FormatUint(n, 10)+" events", string(v.x.Log[n]),
			"the log has events no action made")
	}
	if g.Public.Phase != engine.PhaseFinished {
		return diverge(len(v.x.Actions)-1, 0, "phase", "finished", string(g.Public.Phase), "")
	}
	if len(g.Secret.Shuffles) != len(v.x.Fairness.Shuffles) {
		return diverge(-1, 0, "fairness.shuffles", strconv.Itoa(len(g.Secret.Shuffles))+" shuffles", strconv.Itoa(len(v.x.Fairness.Shuffles)), "")
	}
	for k, rs := range g.Secret.Shuffles {
		xs := &v.x.Fairness.Shuffles[k]
		if len(rs.Order) != len(xs.Order) {
			return diverge(-1, 0, fmt.Sprintf("fairness.shuffles[%d].order", k), strconv.Itoa(len(rs.Order))+" cards", strconv.Itoa(len(xs.Order)), "")
		}
		for i := range rs.Order {
			if rs.Order[i] != xs.Order[i] {
				return diverge(-1, 0, fmt.Sprintf("fairness.shuffles[%d].order[%d]", k, i), rs.Order[i], xs.Order[i],
					"the revealed order of deck "+xs.DeckID+" is not the one the seed makes")
			}
		}
		if rs.Tag != xs.Tag {
			return diverge(-1, 0, fmt.Sprintf("fairness.shuffles[%d].tag", k), string(rs.Tag), string(xs.Tag), "")
		}
	}
	v.rep.Actions, v.rep.Draws, v.rep.Replayed = len(v.x.Actions), g.Public.RNG.Seq, true
	return nil
}

// checkActionOrder: in crypto mode, which cannot be replayed, the actions
// are at least numbered 0, 1, 2, ... from a crypto create.
func (v *verifier) checkActionOrder() error {
	for i := range v.x.Actions {
		xa := &v.x.Actions[i]
		if xa.Version != uint64(i) {
			return diverge(i, 0, "actions["+strconv.Itoa(i)+"].version", strconv.Itoa(i), strconv.FormatUint(xa.Version, 10),
				"the actions are not the game's in order: one was dropped, moved or added")
		}
	}
	if a := v.x.Actions[0]; a.Kind != engine.ActCreate || (a.Mode != "" && a.Mode != string(rng.ModeCrypto)) {
		return diverge(0, 1, "actions[0]", "a crypto create", describe(&a)+" mode "+strconv.Quote(a.Mode), "")
	}
	v.rep.Actions = len(v.x.Actions)
	return nil
}
