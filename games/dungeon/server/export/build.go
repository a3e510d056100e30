package export

import (
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// Build makes the export of a finished (or abandoned) game from its final
// state g (its Secret included: the shuffles' orders come from it), the
// ruleset it was played under, every action applied to it in order (create
// first; the i-th was applied to version i) and its whole public log. It
// fails, naming the problem, if the game has not ended, or the ruleset,
// the actions or the log do not belong to it.
//
// A trustless game is exported at any point of its play: it keeps no
// secret but the links of a round still open, so the reveals of that
// round (the last actions, after its pending action) are left out.
func Build(g *engine.Game, rules *engine.Ruleset, actions []engine.Action, log []engine.Event) (*Export, error) {
	p := &g.Public
	trustless := p.RNG.Mode == rng.ModeTrustless
	var pending *PendingRound
	if t := p.Trustless; trustless && t != nil && t.Pending != nil {
		k := len(t.Pending.Reveals)
		if len(actions) < k+1 {
			return nil, fmt.Errorf("export: %d actions for a game whose round %d has %d reveals", len(actions), t.Pending.Index, k)
		}
		for _, a := range actions[len(actions)-k:] {
			if a.Kind != engine.ActReveal || a.Index != t.Pending.Index {
				return nil, fmt.Errorf("export: the last %d actions are not the reveals of the open round %d", k, t.Pending.Index)
			}
		}
		actions = actions[:len(actions)-k]
		pending = &PendingRound{Index: t.Pending.Index, Digest: t.Pending.Digest, Withheld: k}
	}
	version := p.Version
	if pending != nil {
		version -= uint64(pending.Withheld)
	}
	switch {
	case trustless && p.Trustless == nil:
		return nil, fmt.Errorf("export: a trustless game without its protocol state")
	case !trustless && p.Phase != engine.PhaseFinished:
		return nil, fmt.Errorf("export: the game is %q; only a finished game is exported", p.Phase)
	case !trustless && (p.Fairness == nil || !p.Fairness.Revealed):
		return nil, fmt.Errorf("export: the game has not revealed its secrets")
	case rules.Hash() != p.RulesHash:
		return nil, fmt.Errorf("export: the game was played under ruleset %s, not %s", p.RulesHash, rules.Hash())
	case uint64(len(actions)) != version:
		return nil, fmt.Errorf("export: %d actions for a game at version %d", len(actions), version)
	case uint64(len(log)) != p.LogSeq:
		return nil, fmt.Errorf("export: %d events for a log of %d", len(log), p.LogSeq)
	case actions[0].Kind != engine.ActCreate:
		return nil, fmt.Errorf("export: the first action is %s, not create", actions[0].Kind)
	}
	rulesJSON, err := json.Marshal(rules)
	if err != nil {
		return nil, fmt.Errorf("export: rules: %w", err)
	}
	x := &Export{Format: Format, Game: DungeonGame, GameID: p.GameID, Mode: p.RNG.Mode, Rules: rulesJSON}
	for _, pl := range p.Players {
		x.Players = append(x.Players, Player{UID: pl.UID, Seat: pl.Seat, Class: pl.Class})
	}
	for i := range actions {
		x.Actions = append(x.Actions, exportAction(i, &actions[i]))
	}
	if trustless {
		t := p.Trustless
		x.Trustless = &Trustless{ChainLength: t.ChainLength, DeadlineMs: t.DeadlineMs, Seats: []TrustSeat{}, Pending: pending}
		for _, s := range t.Seats {
			x.Trustless.Seats = append(x.Trustless.Seats, TrustSeat{UID: s.UID, Seat: s.Seat, ChainHead: s.Head, PublicKey: s.PublicKey})
		}
	}
	for i := range log {
		if log[i].Seq != uint64(i+1) {
			return nil, fmt.Errorf("export: log entry %d has seq %d", i, log[i].Seq)
		}
		x.Log = append(x.Log, log[i].AppendJSON(nil))
	}
	if f := p.Fairness; f != nil && !trustless {
		x.Fairness = Fairness{CommitmentHex: f.CommitmentHex, ServerSeedHex: f.ServerSeedHex,
			ContributionsHex: f.ContributionsHex, GameSeedHex: f.GameSeedHex, Seed: f.Seed}
	}
	for _, s := range g.Secret.Shuffles {
		x.Fairness.Shuffles = append(x.Fairness.Shuffles, Shuffle{K: s.K, DeckID: s.DeckID, Seq: s.Seq,
			Tag: s.Tag, SaltHex: s.Salt, Order: append([]string{}, s.Order...)})
	}
	return x, nil
}
