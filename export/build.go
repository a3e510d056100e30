package export

import (
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/engine"
)

// Build makes the export of a finished (or abandoned) game from its final
// state g (its Secret included: the shuffles' orders come from it), the
// ruleset it was played under, every action applied to it in order (create
// first; the i-th was applied to version i) and its whole public log. It
// fails, naming the problem, if the game has not ended, or the ruleset,
// the actions or the log do not belong to it.
func Build(g *engine.Game, rules *engine.Ruleset, actions []engine.Action, log []engine.Event) (*Export, error) {
	p := &g.Public
	switch {
	case p.Phase != engine.PhaseFinished:
		return nil, fmt.Errorf("export: the game is %q; only a finished game is exported", p.Phase)
	case p.Fairness == nil || !p.Fairness.Revealed:
		return nil, fmt.Errorf("export: the game has not revealed its secrets")
	case rules.Hash() != p.RulesHash:
		return nil, fmt.Errorf("export: the game was played under ruleset %s, not %s", p.RulesHash, rules.Hash())
	case uint64(len(actions)) != p.Version:
		return nil, fmt.Errorf("export: %d actions for a game at version %d", len(actions), p.Version)
	case uint64(len(log)) != p.LogSeq:
		return nil, fmt.Errorf("export: %d events for a log of %d", len(log), p.LogSeq)
	case actions[0].Kind != engine.ActCreate:
		return nil, fmt.Errorf("export: the first action is %s, not create", actions[0].Kind)
	}
	rulesJSON, err := json.Marshal(rules)
	if err != nil {
		return nil, fmt.Errorf("export: rules: %w", err)
	}
	x := &Export{Format: Format, GameID: p.GameID, Mode: p.RNG.Mode, Rules: rulesJSON}
	for _, pl := range p.Players {
		x.Players = append(x.Players, Player{UID: pl.UID, Seat: pl.Seat, Class: pl.Class})
	}
	for i, a := range actions {
		x.Actions = append(x.Actions, Action{Version: uint64(i), Kind: a.Kind, Actor: a.Actor, At: a.At,
			GameID: a.GameID, Mode: a.Mode, Seed: a.Seed, Audit: a.Audit, Seat: a.Seat, Class: a.Class,
			KeepSmokeBomb: a.KeepSmokeBomb, Entropy: a.Entropy, Target: a.Target, CardID: a.CardID})
	}
	for i := range log {
		if log[i].Seq != uint64(i+1) {
			return nil, fmt.Errorf("export: log entry %d has seq %d", i, log[i].Seq)
		}
		x.Log = append(x.Log, log[i].AppendJSON(nil))
	}
	f := p.Fairness
	x.Fairness = Fairness{CommitmentHex: f.CommitmentHex, ServerSeedHex: f.ServerSeedHex,
		ContributionsHex: f.ContributionsHex, GameSeedHex: f.GameSeedHex, Seed: f.Seed}
	for _, s := range g.Secret.Shuffles {
		x.Fairness.Shuffles = append(x.Fairness.Shuffles, Shuffle{K: s.K, DeckID: s.DeckID, Seq: s.Seq,
			Tag: s.Tag, SaltHex: s.Salt, Order: append([]string{}, s.Order...)})
	}
	return x, nil
}
