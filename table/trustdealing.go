package table

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// A trustless table of a game that deals a private deck (it declares
// game.MaxLoss: Kuhn poker) deals it by mental poker among the seats'
// clients (docs/fairness.md, "Dealing without a dealer who sees"): a
// trustdeal.Server, whose log is saved with the table, runs the passes,
// the keys, the staged openings and the end-of-hand recomputation, and
// its game is the table's. Each seat signs its mental-poker messages with
// the Ed25519 key it joined with.

// DealMessage is a seat's mental-poker message (KindDeal): exactly one
// of its pass, its keys (of the others' cards at the deal, or of the
// cards a pending move shows) or its end-of-hand reveal; or the pass that
// completes the deal with the sender's keys of the others' cards (they
// ride with it: docs/fairness.md, "Cost in commits").
type DealMessage struct {
	Pass   *mentalpoker.PassMessage   `json:"pass,omitempty"`
	Keys   []*mentalpoker.KeyMessage  `json:"keys,omitempty"`
	Reveal *mentalpoker.RevealMessage `json:"reveal,omitempty"`
}

// dealing reports whether def deals a private deck (game.MaxLoss).
func dealing(def game.Definition) bool {
	_, ok := def.(game.MaxLoss)
	return ok
}

// dealConfig is the deal's setup: hand 0 of the table's game id, the
// seats' join keys, the table's deadline, started at the table's start.
func (t *Table) dealConfig() trustdeal.Config {
	keys := make([]ed25519.PublicKey, len(t.tl.Seats))
	for i, s := range t.tl.Seats {
		keys[i] = ed25519.PublicKey(slices.Clone(s.Key[:]))
	}
	return trustdeal.Config{Def: t.def, Rules: t.rules, GameID: t.tl.GameID, Keys: keys,
		DeadlineMs: int64(t.tl.DeadlineMs), Now: t.tl.DealStart}
}

// startDeal makes the deal at the start and returns its game.
func (t *Table) startDeal(at int64) (*match.Match, *Error) {
	t.tl.Dealing, t.tl.DealStart = true, at
	srv, err := trustdeal.NewServer(t.dealConfig())
	if err != nil {
		return nil, reject(CodeBadSetup, err.Error())
	}
	t.dl = srv
	return srv.Match(), nil
}

// restoreDeal makes the deal again from its saved log.
func (t *Table) restoreDeal() (*match.Match, error) {
	srv, err := trustdeal.Restore(t.dealConfig(), t.tl.Deal)
	if err != nil {
		return nil, err
	}
	t.dl = srv
	return srv.Match(), nil
}

// dealAction applies a seat's DealMessage: the deal's refusals as
// bad_signature (a signature) or invalid_action (anything else, named);
// a signed pass the protocol refuses ends the hand, the sender
// forfeiting, and is applied (not refused).
func (t *Table) dealAction(a *Action) *Error {
	s := t.seatOf(a.Actor)
	if s == NoSeat {
		return reject(CodeNotSeated, "the actor holds no seat")
	}
	d := a.Deal
	if d == nil || countParts(d) != 1 && (countParts(d) != 2 || d.Pass == nil || len(d.Keys) == 0) {
		return reject(CodeInvalidAction, "a deal action carries exactly one of a pass, keys and a reveal, or a pass with keys")
	}
	return t.dealDo(trustdeal.Action{Seat: s, At: a.At, Pass: d.Pass, Keys: d.Keys, Reveal: d.Reveal}, a.Actor)
}

func countParts(d *DealMessage) int {
	n := 0
	for _, b := range []bool{d.Pass != nil, len(d.Keys) > 0, d.Reveal != nil} {
		if b {
			n++
		}
	}
	return n
}

// dealDo passes an action to the deal; it is applied if it changed the
// hand (its log grew), else refused with the deal's error.
func (t *Table) dealDo(da trustdeal.Action, uid string) *Error {
	n := len(t.dl.Log())
	err := t.dl.Do(da)
	if len(t.dl.Log()) == n {
		if err == nil {
			err = errors.New("the action changes nothing")
		}
		code := CodeInvalidAction
		if errors.Is(err, mentalpoker.ErrSignature) {
			code = CodeBadSignature
		} else if errors.Is(err, trustdeal.ErrPhase) {
			code = CodePending
		}
		return reject(code, "deal: "+err.Error())
	}
	t.syncDeal(uid)
	return nil
}

// moveDealing applies a signed move at a dealing table: at once, or
// pending until every seat's key of the cards it shows is in. At the
// deal, the first move may carry its seat's keys (Deal.Keys alone) when
// they are the last the deal waits for: both are taken, or neither.
func (t *Table) moveDealing(a *Action, mv game.Move, tr [32]byte) *Error {
	if a.Reveal != nil {
		return reject(CodeInvalidAction, "a move at a dealing table carries no reveal")
	}
	var keys []*mentalpoker.KeyMessage
	if d := a.Deal; d != nil {
		if d.Pass != nil || d.Reveal != nil || len(d.Keys) == 0 {
			return reject(CodeInvalidAction, "a move carries only its seat's deal keys")
		}
		keys = d.Keys
	}
	if ph := t.dl.Phase(); ph != trustdeal.PhasePlay && (keys == nil || ph != trustdeal.PhaseDeal) {
		return reject(CodePending, "the deal awaits the seats' "+string(ph)+" messages")
	}
	next := hexArr(tr)
	t.tl.DealPending, t.tl.DealNext = &trustMove{Version: a.Version, Sig: a.Signature}, &next
	if err := t.dealDo(trustdeal.Action{Seat: mv.Seat, At: a.At, Move: &mv, Keys: keys}, a.Actor); err != nil {
		t.tl.DealPending = nil
		return err
	}
	if t.tl.DealPending != nil {
		t.emit(Event{To: game.All, Type: "Pending", Vals: [game.MaxVals]int64{0, int64(mv.Seat)}, UID: a.Actor})
	}
	return nil
}

// syncDeal brings the table after the deal: its saved log, the moves it
// applied (their protocol), the game's events, and the table finished
// once the hand is settled.
func (t *Table) syncDeal(uid string) {
	t.tl.Deal = t.dl.Log()
	if len(t.m.Moves()) > len(t.tl.Moves) && t.tl.DealPending != nil {
		t.tl.Moves = append(t.tl.Moves, *t.tl.DealPending)
		t.tl.Transcript, t.tl.DealPending, t.tl.DealNext = *t.tl.DealNext, nil, nil
	}
	t.emitGame(t.dl.Events())
	if t.dl.Phase() != trustdeal.PhaseDone {
		return
	}
	r := t.dl.Record()
	t.phase = PhaseFinished
	t.out = &Outcome{Payoffs: slices.Clone(r.Payoffs)}
	opts := []string{"settled"}
	if f := r.Forfeit; f != nil {
		t.out.Abandoned, t.out.Reason, t.out.Missing = true, f.Reason, slices.Clone(f.Seats)
		opts = []string{f.Reason}
		for _, s := range f.Seats {
			opts = append(opts, t.seats[s].UID)
		}
	} else {
		t.out.Winners = slices.Clone(t.m.State().Outcome().Winners)
	}
	t.emit(Event{To: game.All, Type: "DealSettled", UID: uid, Options: opts})
}

// abandonDeal ends a dealing table's hand when its owner abandons it, so
// that its record says so (match.ForfeitAbandoned) and verifies: nothing
// is revealed, each seat gets the game's AbortPayoffs.
func (t *Table) abandonDeal(at int64) {
	if t.dl == nil || t.dl.Phase() == trustdeal.PhaseDone {
		return
	}
	if err := t.dl.Do(trustdeal.Action{At: at, Abandon: true}); err != nil {
		panic("table: abandoning a deal in play: " + err.Error()) // only a done hand refuses
	}
	t.tl.Deal, t.tl.DealPending, t.tl.DealNext = t.dl.Log(), nil, nil
}

// abortDeal applies the deadline's abort at a dealing table.
func (t *Table) abortDeal(a *Action) *Error {
	if t.dl.Phase() == trustdeal.PhasePlay || a.At <= t.dl.Deadline() {
		return reject(CodeDeadlineNotPassed, fmt.Sprintf("the deal's deadline is %d, not passed at %d (phase %s)", t.dl.Deadline(), a.At, t.dl.Phase()))
	}
	return t.dealDo(trustdeal.Action{At: a.At, Abort: true}, a.Actor)
}
