package export

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
)

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
