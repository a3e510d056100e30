package engine

import "github.com/fairboard/fairboard/rng"

// Handler applies one kind of action. It must validate everything first
// and return an *Error (via [Reject]) before changing anything, so that a
// rejected action leaves the game exactly as it was; once it starts
// changing the game it must not fail. It draws randomness only from c.RNG
// and emits events only through [Ctx.Emit].
type Handler func(c *Ctx, a *Action) error

// Table maps each action kind to its handler; the caller builds it (the
// reducers package's Table) and hands it to [New].
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
func (c *Ctx) Add(t EventType) *Event {
	c.P.LogSeq++
	c.Events = append(c.Events, Event{})
	e := &c.Events[len(c.Events)-1]
	e.Seq, e.Type = c.P.LogSeq, t
	return e
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
func (e *Engine) handler(k ActionKind) Handler {
	if i := kindIndex(k); i >= 0 {
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
// invalid_action (unknown kind; serverSeed on another kind than create,
// entropy on another kind than join), bad_stream; then the handler's own.
func (e *Engine) Dispatch(g *Game, a *Action, s *rng.Stream, out []Event) ([]Event, error) {
	return e.dispatch(nil, g, a, s, out)
}

// Dispatcher is [Engine.Dispatch] with its working memory (the handlers'
// [Ctx]) kept between calls, so that a loop dispatching many actions (a bot
// game, a replay) allocates nothing per action for it. Not safe for
// concurrent use: give each goroutine its own; the Engine is shared.
type Dispatcher struct {
	eng *Engine
	c   Ctx
}

// NewDispatcher returns a dispatcher on the engine.
func (e *Engine) NewDispatcher() *Dispatcher { return &Dispatcher{eng: e} }

// Dispatch is [Engine.Dispatch]: same checks, same effects, same result.
func (d *Dispatcher) Dispatch(g *Game, a *Action, s *rng.Stream, out []Event) ([]Event, error) {
	ev, err := d.eng.dispatch(&d.c, g, a, s, out)
	d.c = Ctx{} // hold no game, stream or buffer between calls
	return ev, err
}

// dispatch is Dispatch with the Ctx to use (overwritten), or nil for a new
// one once the action has passed the engine's checks.
func (e *Engine) dispatch(c *Ctx, g *Game, a *Action, s *rng.Stream, out []Event) ([]Event, error) {
	p := &g.Public
	if a.Kind != ActCreate {
		if p.Phase == PhaseNone {
			return out, Reject(CodeNotCreated, "the game has not been created")
		}
		if p.RulesHash != e.rules.c.hash {
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
	h := e.handler(a.Kind)
	if h == nil {
		return out, Reject(CodeInvalidAction, "unknown action kind "+string(a.Kind))
	}
	if a.ServerSeed != "" && a.Kind != ActCreate {
		return out, Reject(CodeInvalidAction, "serverSeed belongs to create only")
	}
	if a.Entropy != "" && a.Kind != ActJoin {
		return out, Reject(CodeInvalidAction, "entropy belongs to join only")
	}
	if a.Kind != ActCreate {
		if s == nil {
			return out, Reject(CodeBadStream, "no stream given")
		}
		if s.Seq() != p.RNG.Seq || s.Mode() != p.RNG.Mode {
			return out, Reject(CodeBadStream, "the stream does not continue the game's rng (mode or seq differ)")
		}
	}
	if c == nil {
		c = new(Ctx)
	}
	*c = Ctx{G: g, P: p, Rules: e.rules, RNG: s, Action: a, Events: out}
	if err := h(c, a); err != nil {
		return out, err
	}
	p.Version++
	p.LastActionID = a.ID
	if s != nil {
		p.RNG.Seq = s.Seq()
	}
	return c.Events, nil
}
