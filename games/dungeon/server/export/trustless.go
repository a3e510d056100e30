package export

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng"
)

// The kinds of tampering verify names in a trustless game's export
// (Divergence.Kind).
const (
	TamperLink           = "a changed link"
	TamperReorder        = "a reordered reveal"
	TamperDraw           = "a draw that is not the stream's"
	TamperMissingPending = "a missing pending record"
	TamperSignature      = "a signature that does not verify"
)

// verifyTrustless checks a trustless game's export, at any point of its
// play: the log starts with GameCreated under the export's ruleset; every
// action and reveal replays through the engine, with the stream a server
// builds (session.StreamFor), which checks every signature, every link
// against its seat's previous link and derives every round's R_v; every
// event is the replay's, field by field; the chains' heads and keys are
// the joins'; a round open at the export is the replay's pending action.
func (v *verifier) verifyTrustless() error {
	first := &v.first
	if first.Type != engine.EvGameCreated {
		return diverge(0, 1, "log[0].type", "GameCreated", first.Type.String(), "")
	}
	if first.RulesHash != v.rules.Hash() {
		return diverge(0, 1, "rules", v.rules.Hash(), first.RulesHash,
			"the SHA-256 of the export's ruleset is not the one GameCreated recorded: the ruleset was changed")
	}
	f := &v.x.Fairness
	if f.ServerSeedHex != "" || f.GameSeedHex != "" || f.Seed != "" || f.CommitmentHex != "" || len(f.ContributionsHex) > 0 || len(f.Shuffles) > 0 {
		return diverge(-1, 0, "fairness", "nothing (a trustless game has no seed and shuffles nothing)", "seeds or shuffles", "")
	}
	g, err := v.replayTrustless()
	if err != nil {
		return err
	}
	return v.checkTrustlessState(g)
}

// replayTrustless replays every action of the export and compares every
// event, naming the kind of tampering a divergence shows.
func (v *verifier) replayTrustless() (*engine.Game, error) {
	eng := engine.NewReference(v.rules)
	disp := eng.NewDispatcher()
	g := &engine.Game{}
	var buf []engine.Event
	var js []byte
	for i := range v.x.Actions {
		xa := &v.x.Actions[i]
		if i == 0 && (xa.Kind != engine.ActCreate || rng.Mode(xa.Mode) != rng.ModeTrustless) {
			return nil, diverge(0, 1, "actions[0]", "a trustless create", describe(xa)+" mode "+strconv.Quote(xa.Mode), "")
		}
		a := xa.engineAction()
		var s *rng.Stream
		if i > 0 {
			var err error
			if s, err = session.StreamFor(g, &a); err != nil {
				return nil, diverge(i, g.Public.LogSeq+1, "action", describe(xa)+" applied", "no stream: "+err.Error(), "")
			}
		}
		ev, err := disp.Dispatch(g, &a, s, buf[:0])
		if err != nil {
			return nil, v.refused(i, g, xa, err)
		}
		buf = ev
		switch {
		case xa.Kind == engine.ActReveal:
			v.rep.Links++
			v.rep.Signatures++
		case xa.Signature != "":
			v.rep.Signatures++
		}
		for j := range ev {
			e := &ev[j]
			js = e.AppendJSON(js[:0])
			switch e.Type {
			case engine.EvRoundRevealed:
				v.rep.Rounds++
			case engine.EvCardDrawn, engine.EvEnemySpawned:
				v.rep.CardDraws++
			case engine.EvGameAborted:
				v.rep.Aborted = e.Trust
			}
			if e.Seq > uint64(len(v.x.Log)) {
				return nil, diverge(i, e.Seq, "log", string(js), "the end of the log", "the replay makes more events than the log has")
			}
			if field, want, got, same := diffEvent(e.Type.String(), js, v.x.Log[e.Seq-1]); !same && checks.On(checks.ExportEvents) {
				d := diverge(i, e.Seq, field, want, got, "").(*Divergence)
				d.Kind, d.Why = eventTamper(e, field)
				return nil, d
			}
		}
	}
	if n := g.Public.LogSeq; n != uint64(len(v.x.Log)) {
		return nil, diverge(len(v.x.Actions)-1, n+1, "log", "the end of the log after "+strconv.FormatUint(n, 10)+" events", string(v.x.Log[n]),
			"the log has events no action made")
	}
	v.rep.Actions, v.rep.Draws, v.rep.Replayed = len(v.x.Actions), g.Public.RNG.Seq, true
	return g, nil
}

// refused names the divergence of an action the engine refused during
// the replay: which kind of tampering its rejection shows.
func (v *verifier) refused(i int, g *engine.Game, xa *Action, err error) error {
	d := diverge(i, g.Public.LogSeq+1, "action", describe(xa)+" accepted by the engine", "rejected: "+err.Error(),
		"the actions are not the game's: one was dropped, moved, changed or added").(*Divergence)
	var rej *engine.Error
	if !errors.As(err, &rej) {
		return d
	}
	t := g.Public.Trustless
	reveal := xa.Kind == engine.ActReveal
	switch {
	case rej.Code == engine.CodeWrongLink:
		d.Kind, d.Why = TamperLink, fmt.Sprintf("seat %d's link for index %d does not hash to its previous link", xa.Seat, xa.Index)
	case rej.Code == engine.CodeBadSignature:
		d.Kind, d.Why = TamperSignature, "the "+string(xa.Kind)+" of "+xa.Actor+" is not signed by its seat's key over what it says"
	case rej.Code == engine.CodeWrongDigest:
		d.Kind, d.Why = TamperSignature, "the reveal signs another action or transcript than the pending one"
	case reveal && t != nil && t.Pending == nil:
		d.Kind, d.Why = TamperMissingPending, fmt.Sprintf("a reveal for index %d, but no action is pending: the action it serves is missing", xa.Index)
	case reveal, rej.Code == engine.CodePending:
		d.Kind, d.Why = TamperReorder, "a reveal out of its place: dropped, repeated, moved to another round or out of order"
	}
	return d
}

// eventTamper names what a difference between the replay's event e and
// the log's, at field, shows.
func eventTamper(e *engine.Event, field string) (kind, why string) {
	switch {
	case strings.Contains(field, ".trustless.reveals[") && strings.HasSuffix(field, ".link"):
		return TamperLink, "the log's link is not the one the reveal gave and the chain checks"
	case strings.Contains(field, ".trustless.reveals["):
		return TamperReorder, "the log's reveals are not the round's, in the order they were accepted"
	case strings.HasSuffix(field, ".signature"):
		return TamperSignature, "the log's signature is not the one the engine verified"
	case e.Type == engine.EvActionPending:
		return TamperMissingPending, "the replay holds this action for its round; the log has no such pending record here"
	case e.Type == engine.EvDiceRolled, e.Type == engine.EvCardDrawn, e.Type == engine.EvEnemySpawned,
		e.Type == engine.EvTurnOrderRolled, e.Type == engine.EvTieBreakRerolled, e.Type == engine.EvTieBreakResolved,
		e.Type == engine.EvLootRoll, e.Type == engine.EvEnemyCompositionChosen:
		return TamperDraw, "the round's R_v makes another outcome"
	}
	return "", ""
}

// checkTrustlessState: the export's trustless section is the replayed
// game's: chain length, deadline, every seat's head and key, and the
// round open at the export.
func (v *verifier) checkTrustlessState(g *engine.Game) error {
	t, x := g.Public.Trustless, v.x.Trustless
	if x.ChainLength != t.ChainLength || x.DeadlineMs != t.DeadlineMs {
		return diverge(-1, 0, "trustless", fmt.Sprintf("chainLength %d, deadlineMs %d", t.ChainLength, t.DeadlineMs),
			fmt.Sprintf("chainLength %d, deadlineMs %d", x.ChainLength, x.DeadlineMs), "the create set them")
	}
	if len(x.Seats) != len(t.Seats) {
		return diverge(-1, 0, "trustless.seats", strconv.Itoa(len(t.Seats))+" seats", strconv.Itoa(len(x.Seats)), "")
	}
	for i, s := range t.Seats {
		xs := x.Seats[i]
		if xs.UID != s.UID || xs.Seat != s.Seat || xs.ChainHead != s.Head || xs.PublicKey != s.PublicKey {
			return diverge(-1, 0, fmt.Sprintf("trustless.seats[%d]", i), fmt.Sprintf("%s at seat %d, head %s, key %s", s.UID, s.Seat, s.Head, s.PublicKey),
				fmt.Sprintf("%s at seat %d, head %s, key %s", xs.UID, xs.Seat, xs.ChainHead, xs.PublicKey), "the seats are the ones the joins made")
		}
	}
	switch pd := t.Pending; {
	case pd == nil && x.Pending != nil:
		return diverge(-1, 0, "trustless.pending", "none (the replay has no action pending)", "index "+strconv.Itoa(int(x.Pending.Index)), "")
	case pd != nil && x.Pending == nil:
		return diverge(-1, 0, "trustless.pending", "index "+strconv.Itoa(int(pd.Index)), "none", "the log's last action is pending its round")
	case pd != nil && (pd.Index != x.Pending.Index || pd.Digest != x.Pending.Digest):
		return diverge(-1, 0, "trustless.pending", fmt.Sprintf("index %d, digest %s", pd.Index, pd.Digest),
			fmt.Sprintf("index %d, digest %s", x.Pending.Index, x.Pending.Digest), "")
	case pd != nil:
		v.rep.Pending = pd.Index
	}
	v.rep.Seats = len(t.Seats)
	return nil
}
