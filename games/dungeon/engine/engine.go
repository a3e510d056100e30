package engine

import (
	"unsafe"

	"github.com/fairboard/fairboard/rng"
)

// Handler applies one kind of action. It must validate everything first
// and return an *Error (via [Reject]) before changing anything, so that a
// rejected action leaves the game exactly as it was; once it starts
// changing the game it must not fail. It draws randomness only from c.RNG
// and emits events only through [Ctx.Emit].
type Handler func(c *Ctx, a *Action) error

// Table maps each action kind to its handler; the caller builds it (the
// dungeon's games/dungeon/reducers.Table, or [ReferenceTable]) and hands it
// to [New].
type Table map[ActionKind]Handler

// Ctx is what a handler works with during one Dispatch: the game (mutated
// in place), the ruleset, the injected stream and the event buffer. It is
// valid only during the call.
type Ctx struct {
	G      *Game
	P      *Public // &G.Public
	Rules  *Ruleset
	RNG    *rng.Stream
	Action *Action
	Events []Event

	// lean, if not nil, is the dispatcher's lean mode (see
	// [Dispatcher.Lean]); drop holds the types it drops (none outside
	// lean mode) and scratch its slot for them, kept here so that Add's
	// dropping path is a few instructions inlined at every call.
	lean    *lean
	drop    EventSet
	scratch *Event
}

// Emit gives e the game's next log seq and appends it to the events. It is
// the simple reference of [Ctx.Add]: the same event, built as a value and
// copied in.
func (c *Ctx) Emit(e Event) {
	c.P.LogSeq++
	e.Seq = c.P.LogSeq
	c.Events = append(c.Events, e)
}

// Add appends an event of type t with the game's next log seq and returns
// it for the caller to fill in: every other field is zero. The event is
// built in place in the buffer, so nothing is copied; the pointer is valid
// only until the next Add or Emit (the buffer may move).
//
// In a dispatcher's lean mode an event of a type it does not keep is built
// in a scratch slot instead and dropped; its seq is counted all the same.
// The slot is not cleared between events (nobody reads it, and clearing
// 544 bytes per dropped event was a tenth of a simulated game): its fields
// hold an earlier dropped event's values, but for Seq, Type and NMods
// (reset, as the one count a reducer reads back while it fills an event).
// A handler must therefore only write a dropped event's fields, never read
// one it has not written.
func (c *Ctx) Add(t EventType) *Event {
	if c.drop&(1<<t) != 0 { // a shift past 63 gives 0: nothing dropped
		c.P.LogSeq++
		e := c.scratch
		e.Seq, e.Type, e.NMods = c.P.LogSeq, t, 0
		return e
	}
	return c.add(t)
}

// add is Add for an event that goes to the log.
func (c *Ctx) add(t EventType) *Event {
	c.P.LogSeq++
	c.Events = append(c.Events, Event{})
	e := &c.Events[len(c.Events)-1]
	e.Seq, e.Type = c.P.LogSeq, t
	return e
}

// CommitShuffle is [Game.CommitShuffle] on the game, for a reducer that has
// just shuffled deck d with the stream: it records the shuffle and returns
// its commitment. In a dispatcher's lean mode it does nothing and returns
// the zero hash.
func (c *Ctx) CommitShuffle(d int, tag rng.Tag) Hash32 {
	if c.lean != nil {
		return Hash32{}
	}
	return c.G.CommitShuffle(d, tag, c.RNG.Seq())
}

// EventSet is a set of event types (a bit per [EventType]).
type EventSet uint64

// EventsOf returns the set of the types given.
func EventsOf(types ...EventType) EventSet {
	var s EventSet
	for _, t := range types {
		s |= 1 << t
	}
	return s
}

// An EventSet has a bit for every type.
var _ [64 - numEventTypes]struct{}

// Has reports whether t is in the set.
func (s EventSet) Has(t EventType) bool { return t < 64 && s&(1<<t) != 0 }

// lean is a dispatcher's lean mode: the events it keeps, the slot the
// others are built in, and a finished fight whose memory the next may use.
type lean struct {
	keep    EventSet
	scratch Event
	combat  *Combat
}

// RecycleCombat takes a fight the game has just let go (Public.Combat no
// longer points to it). In a dispatcher's lean mode [Ctx.SpareCombat] lends
// its memory to the next fight; otherwise it is left to the garbage
// collector, as something a caller may still hold.
func (c *Ctx) RecycleCombat(cb *Combat) {
	if c.lean != nil {
		c.lean.combat = cb
	}
}

// SpareCombat returns the fight [Ctx.RecycleCombat] took, to be reset and
// reused, or nil (always nil outside lean mode).
func (c *Ctx) SpareCombat() *Combat {
	if c.lean == nil {
		return nil
	}
	cb := c.lean.combat
	c.lean.combat = nil
	return cb
}

// Engine dispatches actions to a handler table under one ruleset. It holds
// no game state and is safe for concurrent use by many games.
type Engine struct {
	rules *Ruleset
	table Table
	// byKind is table indexed by kindIndex, for the kinds of ActionKinds:
	// an array read instead of a map lookup per action.
	byKind [numActionKinds]Handler
}

// New returns an engine for the ruleset (must be loaded or validated) and
// handler table.
func New(rules *Ruleset, table Table) *Engine {
	if rules == nil || rules.c.hash == "" {
		panic("engine.New: ruleset is not loaded or validated")
	}
	e := &Engine{rules: rules, table: table}
	for i, k := range ActionKinds {
		e.byKind[i] = table[k]
	}
	return e
}

// handler returns the table's handler for kind k, or nil.
func (e *Engine) handler(k ActionKind) Handler { return e.handlerAt(kindIndex(k), k) }

// handlerAt is handler for the kind k whose index kindIndex(k) is i.
func (e *Engine) handlerAt(i int, k ActionKind) Handler {
	if i >= 0 {
		return e.byKind[i]
	}
	return e.table[k] // a kind outside ActionKinds: no handler in the reducers' table
}

// Rules returns the engine's ruleset.
func (e *Engine) Rules() *Ruleset { return e.rules }

// Dispatch applies the action a to the game g, which it updates in place,
// drawing randomness from s and appending the events to out; it returns the
// extended buffer (the caller may reuse it: pass out[:0]).
//
// s must be the stream for g's next action (session.Stream), with s.Seq()
// equal to g.Public.RNG.Seq and the game's mode; it may be nil only for
// create. After a successful Dispatch, Public.Version has grown by one,
// Public.RNG.Seq equals s.Seq(), and Public.LastActionID is a.ID; call
// [Game.SaveStream] before persisting to record the generator's state.
//
// On rejection it returns out unchanged and an [*Error], and g is exactly as
// it was. The checks, in order: not_created (any kind but create on a zero
// game), rules_mismatch, stale_version, duplicate_action, game_over,
// invalid_action (unknown kind; a field on a kind it does not belong to,
// see fieldsBelong), bad_stream; then, in a trustless game, the protocol's
// (docs/fairness.md: pending, the signature, the dry run that decides
// whether the action draws, a reveal's checks); then the handler's own.
func (e *Engine) Dispatch(g *Game, a *Action, s *rng.Stream, out []Event) ([]Event, error) {
	return e.dispatch(nil, nil, g, a, s, out)
}

// Dispatcher is [Engine.Dispatch] with its working memory (the handlers'
// [Ctx]) kept between calls, so that a loop dispatching many actions (a bot
// game, a replay) allocates nothing per action for it. Not safe for
// concurrent use: give each goroutine its own; the Engine is shared.
type Dispatcher struct {
	eng  *Engine
	c    Ctx
	lean *lean
}

// NewDispatcher returns a dispatcher on the engine.
func (e *Engine) NewDispatcher() *Dispatcher { return &Dispatcher{eng: e} }

// Lean is the one switch of a simulation that reads only some of the log:
// from then on the dispatcher skips the work nobody reads. It applies the
// same handlers, draws the same randomness and leaves every game in the
// state a full dispatch would, but for two things:
//
//   - it appends to the log only the events whose types are in keep; the
//     others are built and dropped (their seqs are counted, so Public.LogSeq
//     and the seqs of the events kept are those of the full log);
//   - it commits no shuffle ([Ctx.CommitShuffle]): Secret.Shuffles stays
//     empty, DeckShuffled's commitment is zero and the Fairness revealed at
//     the end has no salts;
//   - a finished fight's memory is reused by the next ([Ctx.RecycleCombat]),
//     so a pointer to an old Public.Combat may see a later fight.
//
// A lean game is therefore not one a player or verifier may see: use it
// for simulations only. The zero EventSet keeps no event.
func (d *Dispatcher) Lean(keep EventSet) { d.lean = &lean{keep: keep} }

// Dispatch is [Engine.Dispatch]: same checks, same effects, same result
// (in lean mode, see [Dispatcher.Lean]).
func (d *Dispatcher) Dispatch(g *Game, a *Action, s *rng.Stream, out []Event) ([]Event, error) {
	ev, err := d.eng.dispatch(&d.c, d.lean, g, a, s, out)
	// Hold no game, stream or buffer between calls (field by field, as in
	// dispatch).
	c := &d.c
	c.G, c.P, c.Rules, c.RNG, c.Action, c.Events = nil, nil, nil, nil, nil, nil
	c.lean, c.scratch = nil, nil
	return ev, err
}

// dispatch is Dispatch with the Ctx to use (overwritten), or nil for a new
// one once the action has passed the engine's checks, and the lean mode
// (nil for none).
func (e *Engine) dispatch(c *Ctx, ln *lean, g *Game, a *Action, s *rng.Stream, out []Event) ([]Event, error) {
	p := &g.Public
	// The kind's index and bit, found once: the checks below, the handler's
	// lookup and fieldsBelong read them rather than comparing a.Kind with a
	// kind's string again (a call to compare the bytes whenever the lengths
	// match). bit is 0 for a kind outside ActionKinds.
	ki := kindIndex(a.Kind)
	bit := KindSet(1) << uint(ki) // 0 for ki = -1: a shift past the width gives 0
	if bit != kCreate {
		if p.Phase == PhaseNone {
			return out, Reject(CodeNotCreated, "the game has not been created")
		}
		if !sameString(p.RulesHash, e.rules.c.hash) {
			return out, Reject(CodeRulesMismatch, "the game was created under ruleset "+p.RulesHash)
		}
	}
	if a.Version != 0 && a.Version != p.Version {
		return out, Reject(CodeStaleVersion, "the action was made against another version of the game")
	}
	if a.ID != "" && a.ID == p.LastActionID {
		return out, Reject(CodeDuplicateAction, "action "+a.ID+" was already applied")
	}
	if p.Phase == PhaseFinished {
		return out, Reject(CodeGameOver, "the game has finished")
	}
	h := e.handlerAt(ki, a.Kind)
	if h == nil && bit != kReveal { // a reveal is the protocol's, with no handler of its own
		return out, Reject(CodeInvalidAction, "unknown action kind "+string(a.Kind))
	}
	// A turn's action sets none of the fields fieldsBelong checks: a few
	// loads (inlined) tell so, and fieldsBelong's checks, one by one, run
	// only for an action that sets one, a reveal or an abort. Run at every
	// action, they were 2% of a simulated game's time.
	if bit&(kReveal|kAbort) != 0 || a.hasCheckedFields() {
		if err := fieldsBelong(p, a, bit); err != nil {
			return out, err
		}
	}
	if bit != kCreate {
		if s == nil {
			return out, Reject(CodeBadStream, "no stream given")
		}
		if s.Seq() != p.RNG.Seq || !sameString(s.Mode(), p.RNG.Mode) {
			return out, Reject(CodeBadStream, "the stream does not continue the game's rng (mode or seq differ)")
		}
	}
	if c == nil {
		c = new(Ctx)
	}
	// Field by field: assigning a whole Ctx literal through the pointer
	// copies it as one typed block, which cost a simulation 5% of its time.
	c.G, c.P, c.Rules, c.RNG, c.Action, c.Events = g, p, e.rules, s, a, out
	c.lean, c.drop, c.scratch = nil, 0, nil
	if ln != nil {
		c.lean, c.drop, c.scratch = ln, ^ln.keep, &ln.scratch
	}
	var err error
	switch {
	case p.RNG.Mode == rng.ModeTrustless && bit != kCreate:
		err = e.trustlessDispatch(c, g, a, s, h)
	default:
		err = h(c, a)
		if err == nil && bit == kCreate && p.RNG.Mode == rng.ModeTrustless {
			e.accepted(c, a, nil)
		}
	}
	if err != nil {
		return out, err
	}
	p.Version++
	p.LastActionID = a.ID
	if s != nil {
		p.RNG.Seq = s.Seq()
	}
	return c.Events, nil
}

// fieldsBelong rejects a field on an action kind (or game mode) it does
// not belong to: serverSeed, chainLength, deadlineMs and openings belong
// to create; entropy to join and open; entropyCommitment, chainHead and
// publicKey to join; index, link, digest and transcript to reveal; a
// signature to a trustless game's actions (never to create); reveal and
// abort to trustless games. bit is a.Kind's bit (0 for a kind outside
// ActionKinds). It returns nil for an action that is no reveal or abort and
// for which hasCheckedFields is false.
func fieldsBelong(p *Public, a *Action, bit KindSet) error {
	bad := func(what string) error { return Reject(CodeInvalidAction, what) }
	switch {
	case a.ServerSeed != "" && bit != kCreate:
		return bad("serverSeed belongs to create only")
	case a.Entropy != "" && bit&(kJoin|kOpen) == 0:
		return bad("entropy belongs to join and open only")
	case (a.ChainLength != 0 || a.DeadlineMs != 0 || a.Openings) && bit != kCreate:
		return bad("chainLength, deadlineMs and openings belong to create only")
	case (a.EntropyCommitment != "" || a.ChainHead != "" || a.PublicKey != "") && bit != kJoin:
		return bad("entropyCommitment, chainHead and publicKey belong to join only")
	case (a.Index != 0 || a.Link != "" || a.Digest != "" || a.Transcript != "") && bit != kReveal:
		return bad("index, link, digest and transcript belong to reveal only")
	case a.Signature != "" && (bit == kCreate || p.RNG.Mode != rng.ModeTrustless):
		return bad("only the actions of a trustless game are signed, and never its create")
	case bit&(kReveal|kAbort) != 0 && p.RNG.Mode != rng.ModeTrustless:
		return bad(string(a.Kind) + " belongs to trustless games only")
	}
	return nil
}

// hasCheckedFields reports whether a sets any field fieldsBelong checks.
// It ORs their lengths and values together rather than branching on each.
func (a *Action) hasCheckedFields() bool {
	n := uint64(len(a.ServerSeed)|len(a.Entropy)|len(a.EntropyCommitment)|len(a.ChainHead)|len(a.PublicKey)|
		len(a.Signature)|len(a.Link)|len(a.Digest)|len(a.Transcript)) |
		uint64(a.ChainLength) | uint64(a.DeadlineMs) | uint64(a.Index)
	return n != 0 || a.Openings
}

// sameString reports whether a == b, without a call when they are the
// same bytes: a game's ruleset hash and rng mode are most often the very
// strings of its engine and stream, and a string comparison is otherwise
// a call, around which the caller saves every value it holds in a register.
func sameString[S ~string](a, b S) bool {
	return len(a) == len(b) && (unsafe.StringData(string(a)) == unsafe.StringData(string(b)) || a == b)
}
