package table

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// Kind is an action's kind. The set is closed (Kinds).
type Kind string

// The action kinds.
const (
	// KindJoin (any uid without a seat, lobby): take Seat with Options.
	KindJoin Kind = "join"
	// KindLeave (a seated uid, lobby): give up one's own seat.
	KindLeave Kind = "leave"
	// KindRemoveSeat (the owner, lobby): free Seat, whoever holds it.
	KindRemoveSeat Kind = "removeSeat"
	// KindStart (the owner, lobby, every seat taken): set the game up.
	KindStart Kind = "start"
	// KindMove (the uid holding the seat the game awaits, playing): the
	// game's move Move.
	KindMove Kind = "move"
	// KindAbandon (the owner or ServerActor, lobby or playing): end the
	// table; a started game ends with the game's AbortPayoffs.
	KindAbandon Kind = "abandon"
	// KindReveal (a seated uid, a trustless table playing): the seat's
	// Reveal for the pending round. It names its index instead of a
	// version: Version is not checked.
	KindReveal Kind = "reveal"
	// KindAbort (anyone, in practice ServerActor; a trustless table
	// playing, its round's deadline passed at At): end the game as
	// aborted, naming the seats that did not reveal. Version is not
	// checked.
	KindAbort Kind = "abort"
	// KindDeal (a seated uid, a dealing trustless table playing): the
	// seat's mental-poker message Deal. Version is not checked.
	KindDeal Kind = "deal"
	// KindOpen (a seated uid, a fair table with openings, lobby, every
	// seat taken): open the seat's contribution Entropy (openings.go).
	KindOpen Kind = "open"
)

// Kinds lists every action kind.
var Kinds = []Kind{KindJoin, KindLeave, KindRemoveSeat, KindStart, KindMove, KindAbandon, KindReveal, KindAbort, KindDeal, KindOpen}

// Action is one request to change a table, sent by Actor (a uid the
// caller has authenticated, or ServerActor).
type Action struct {
	Actor string
	// ActionID is the actor's id for this action, 1-128 characters of
	// [A-Za-z0-9_-]: the same id with the same content is a retry.
	ActionID string
	// Version is the table's version the actor saw; any other is
	// stale_version.
	Version uint64
	Kind    Kind
	// Seat (join, removeSeat) is a seat index, 0..seats-1.
	Seat int
	// Options (join) are the seat's option values by option name: every
	// option of def.Seats().Options, or none (the game's defaults).
	Options map[string]string
	// Move (move) is the game's move as JSON, {"kind":"NAME",...},
	// decoded strictly by game.DecodeMove for the actor's seat.
	Move json.RawMessage
	// Entropy (join, a fair table only, optional) is the player's
	// contribution to the game seed: 0 to 64 bytes as hex digits, drawn on
	// the player's own device after it saw the commitment. Kept secret
	// until the end. At a table with openings a join carries
	// EntropyCommitment (64 hex digits) instead, and open carries
	// Entropy, exactly 32 bytes (64 hex digits).
	Entropy, EntropyCommitment string
	// ChainHead, PublicKey (join) and Signature (join, move) are a
	// trustless table's: the seat's chain head and Ed25519 key (64 hex
	// digits each), and the actor's signature (128 hex digits) of
	// trustless.ActionMessage over the action's canonical bytes
	// (match.TableAction).
	ChainHead, PublicKey, Signature string
	// Reveal (reveal; or with a move that draws, the actor's own reveal
	// for the round the move opens, applied with it or refused with it).
	Reveal *Reveal
	// Deal (deal) is the seat's mental-poker message.
	Deal *DealMessage
	// At is the server's time of the action (unix ms), which a trustless
	// table's deadlines read and the stores keep as the table's last
	// action's (the idle sweep's clock: idle.go); not part of a retry's
	// identity.
	At int64
	// Reason (abandon by ServerActor only: ReasonIdle, or none) is why
	// the server ends the table: Outcome.Reason and the Abandoned
	// event's option.
	Reason string
}

func (a *Action) fingerprint() string {
	return fingerprint(struct {
		Kind, Actor, ID string
		Version         uint64
		Seat            int
		Options         map[string]string
		Move            string
		Entropy         string       `json:",omitempty"` // so that a table's stored fingerprints stay as they were
		Commitment      string       `json:",omitempty"`
		ChainHead       string       `json:",omitempty"`
		PublicKey       string       `json:",omitempty"`
		Signature       string       `json:",omitempty"`
		Reveal          *Reveal      `json:",omitempty"`
		Deal            *DealMessage `json:",omitempty"`
		Reason          string       `json:",omitempty"`
	}{string(a.Kind), a.Actor, a.ActionID, a.Version, a.Seat, a.Options, string(a.Move), a.Entropy, a.EntropyCommitment, a.ChainHead, a.PublicKey, a.Signature, a.Reveal, a.Deal, a.Reason})
}

// Do applies a, or refuses it with an *Error and changes nothing (the
// version, the log, the views, the stored results: a refusal is not
// stored, so its action id stays free). The guards, in this order:
//
//  1. bad_actor: an actor not of the uid format, or ServerActor doing
//     anything but abandon; bad_action_id: an action id not of its format.
//  2. The actor's stored results: the same action id with the same
//     content (the same fingerprint of every field) returns the stored
//     result again with Replayed set, whatever happened since, and
//     applies nothing; the same id with other content is
//     action_id_reused.
//  3. invalid_action: a kind not in Kinds, or a Reason anywhere but on
//     ServerActor's abandon (ReasonIdle: idle.go).
//  4. The phase: game_over once finished; invalid_action for reveal or
//     abort at a table that is not trustless (an abort also at a fair
//     table with openings); already_started for join, leave, removeSeat,
//     start and open once playing; not_started for a move, reveal or
//     abort in the lobby (but an abort of the openings); pending for a move while a trustless
//     round is pending; invalid_action for a reveal on another kind than
//     move or reveal.
//  5. stale_version: a.Version is not the table's version (not checked
//     for reveal and abort, which name their round instead).
//  6. The kind's own, in this order: join: unknown_player (seat out of
//     range), already_joined, seat_taken, bad_option, then bad_entropy
//     (the commitment at a table with openings, the entropy at a fair
//     one); leave: not_seated, already_started (the seats fixed by the
//     first opening); removeSeat: not_owner, unknown_player, seat_free,
//     already_started (likewise); start: not_owner, too_few_players (a
//     seat free: a table starts with every seat taken), not_opened, then
//     the game's Setup (bad_setup); open: invalid_action (a table
//     without openings), not_seated, too_few_players, already_opened,
//     bad_entropy, wrong_opening; move: not_seated,
//     not_your_turn, invalid_action (game.DecodeMove), then the game's
//     own refusal with its code, then at a trustless table the
//     signature (bad_signature) and the actor's own reveal (the reveal's
//     refusals); abandon: not_owner; reveal: wrong_index, then
//     checkReveal's; abort: wrong_index, deadline_not_passed (of the
//     round, the deal or the openings: openings.go). A
//     trustless join also needs its chain head, key and signature
//     (invalid_action, bad_signature).
func (t *Table) Do(a Action) (*Result, error) {
	if !(ValidID(a.Actor) || a.Actor == ServerActor && (a.Kind == KindAbandon || a.Kind == KindAbort)) {
		return nil, reject(CodeBadActor, "an actor is 1-128 characters of [A-Za-z0-9_-]; the server only abandons and aborts")
	}
	if !ValidID(a.ActionID) {
		return nil, reject(CodeBadActionID, "an action id is 1-128 characters of [A-Za-z0-9_-]")
	}
	key := recordKey{a.Actor, a.ActionID}
	fp := a.fingerprint()
	if rec, ok := t.records[key]; ok {
		if rec.fp != fp {
			return nil, reject(CodeActionIDReused, "this action id was used for another action")
		}
		res := rec.res.clone()
		res.Replayed = true
		return &res, nil
	}
	if !slices.Contains(Kinds, a.Kind) {
		return nil, reject(CodeInvalidAction, fmt.Sprintf("unknown action kind %q", a.Kind))
	}
	if err := checkReason(&a); err != nil {
		return nil, err
	}
	switch {
	case t.phase == PhaseFinished:
		return nil, reject(CodeGameOver, "the table is finished")
	case (a.Kind == KindReveal || a.Kind == KindAbort && t.op == nil || a.Kind == KindDeal) && t.tl == nil:
		return nil, reject(CodeInvalidAction, string(a.Kind)+" is for trustless tables; this one is "+string(t.mode))
	case a.Kind == KindDeal && !t.tl.Dealing && t.phase == PhasePlaying, a.Kind == KindReveal && t.dl != nil:
		return nil, reject(CodeInvalidAction, string(a.Kind)+" is not for this table's game")
	case a.Deal != nil && a.Kind != KindDeal && (a.Kind != KindMove || t.dl == nil):
		return nil, reject(CodeInvalidAction, "only a deal action, or a move at a dealing table, carries a deal message")
	case t.phase == PhasePlaying && a.Kind != KindMove && a.Kind != KindAbandon && a.Kind != KindReveal && a.Kind != KindAbort && a.Kind != KindDeal:
		return nil, reject(CodeAlreadyStarted, string(a.Kind)+" is for the lobby; the game has started")
	case t.phase == PhaseLobby && (a.Kind == KindMove || a.Kind == KindReveal || a.Kind == KindAbort && t.op == nil || a.Kind == KindDeal):
		return nil, reject(CodeNotStarted, "the game has not started")
	case a.Kind == KindMove && t.tl != nil && t.tl.Pending != nil:
		return nil, reject(CodePending, fmt.Sprintf("round %d is pending: only reveals, the deadline's abort and the owner's abandon until it closes", t.tl.Pending.Index))
	case a.Reveal != nil && a.Kind != KindReveal && a.Kind != KindMove:
		return nil, reject(CodeInvalidAction, "only a reveal or a move carries a reveal")
	}
	if a.Version != t.version && a.Kind != KindReveal && a.Kind != KindAbort && a.Kind != KindDeal {
		return nil, reject(CodeStaleVersion, fmt.Sprintf("version %d is not the table's %d", a.Version, t.version))
	}
	viewer := t.seatOf(a.Actor)
	n := len(t.log)
	t.auditBegin()
	var err *Error
	switch a.Kind {
	case KindJoin:
		err = t.join(&a)
		viewer = a.Seat
	case KindLeave:
		err = t.leave(&a)
	case KindRemoveSeat:
		err = t.removeSeat(&a)
	case KindStart:
		err = t.start(&a)
	case KindMove:
		err = t.move(&a)
	case KindAbandon:
		err = t.abandon(&a)
	case KindReveal:
		err = t.reveal(&a)
	case KindAbort:
		err = t.abortDue(&a)
	case KindDeal:
		err = t.dealAction(&a)
	case KindOpen:
		err = t.open(&a)
	}
	if err != nil {
		t.auditBegin()
		return nil, err
	}
	t.auditCommit(a.At)
	t.version++
	res := Result{ActionID: a.ActionID, Version: t.version, Events: visible(t.log[n:], viewer)}
	t.records[key] = record{fp: fp, res: res.clone()}
	t.fresh = append(t.fresh, key)
	return &res, nil
}

// emit appends an event of the table, or of the game (g), to the log.
func (t *Table) emit(e Event) {
	e.Seq = t.sealed.Log + len(t.log) + 1
	t.log = append(t.log, e)
}

func (t *Table) start(a *Action) *Error {
	if a.Actor != t.owner {
		return reject(CodeNotOwner, "only the owner starts")
	}
	seats := make([]game.Seat, len(t.seats))
	for i, s := range t.seats {
		if s.UID == "" {
			return reject(CodeTooFewPlayers, fmt.Sprintf("seat %d is free: a table starts with every seat taken", i))
		}
		seats[i] = game.Seat{Options: slices.Clone(s.Options)}
	}
	if err := t.notOpened(); err != nil {
		return err
	}
	seed, err := t.matchSeed()
	if err != nil {
		return reject(CodeBadSetup, err.Error()) // checked at create and join: not reached
	}
	var m *match.Match
	t.dealDraws = t.mode == rng.ModeCrypto
	if t.tl != nil && dealing(t.def) {
		var derr *Error
		if m, derr = t.startDeal(a.At); derr != nil {
			return derr
		}
	} else if m, err = match.New(t.def, match.Config{Mode: t.mode, Seed: seed, Seats: seats, Rules: t.rules, DealDraws: t.dealDraws, Auditor: t.auditor()}); err != nil {
		return fromGame(err)
	}
	t.m, t.phase = m, PhasePlaying
	t.startTrust()
	if err := t.startDecks(); err != nil {
		return reject(CodeBadSetup, err.Error()) // crypto/rand failed: not reached
	}
	t.emit(Event{To: game.All, Type: "Started"})
	t.commitDecks(0)
	t.emitGame(m.Events())
	t.finishIfOver()
	return nil
}

func (t *Table) emitGame(ev []game.Event) {
	for _, e := range ev {
		t.emit(Event{To: e.To, Game: true, Type: e.Type, Vals: e.Vals})
	}
}

func (t *Table) finishIfOver() {
	if !t.m.Over() || t.dl != nil { // a deal settles after its recomputation (syncDeal)
		return
	}
	o := t.m.State().Outcome()
	t.phase = PhaseFinished
	t.out = &Outcome{Winners: slices.Clone(o.Winners), Payoffs: slices.Clone(o.Payoffs)}
}

func (t *Table) move(a *Action) *Error {
	s := t.seatOf(a.Actor)
	if s == NoSeat {
		return reject(CodeNotSeated, "the actor holds no seat")
	}
	if to := t.m.State().ToMove(); s != to {
		return reject(CodeNotYourTurn, "the game awaits seat "+strconv.Itoa(to))
	}
	mv, err := game.DecodeMove(t.kinds, s, a.Move)
	if err != nil {
		return fromGame(err)
	}
	if t.tl != nil {
		return t.moveTrustless(a, mv)
	}
	if a.Signature != "" || a.Reveal != nil {
		return reject(CodeInvalidAction, "a signature and a reveal are for trustless tables; this one is "+string(t.mode))
	}
	shuffled := len(t.m.DeckShuffles())
	ev, err := t.m.Apply(mv)
	if err != nil {
		return fromGame(err)
	}
	t.commitDecks(shuffled)
	t.emitGame(ev)
	t.finishIfOver()
	return nil
}

func (t *Table) abandon(a *Action) *Error {
	if a.Actor != t.owner && a.Actor != ServerActor {
		return reject(CodeNotOwner, "only the owner or the server abandons")
	}
	t.out = &Outcome{Abandoned: true}
	if t.m != nil {
		t.out.Payoffs = slices.Clone(t.m.State().AbortPayoffs())
		if t.tl != nil {
			t.out.Reason = match.AbortAbandoned
			t.tl.Abort = &match.TrustlessAbort{Reason: match.AbortAbandoned}
		}
		t.abandonDeal(a.At)
	}
	if a.Reason != "" {
		t.out.Reason = a.Reason
	}
	t.phase = PhaseFinished
	t.emit(Event{To: game.All, Type: "Abandoned", UID: a.Actor, Options: reasonOptions(a.Reason)})
	return nil
}
