package bot

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// Seat is one player of a bot game: its class and policy. Players are uids
// p1..pN seated 0..N-1; p1 is the owner.
type Seat struct {
	Class  engine.Class
	Policy policy.Policy
}

// Runner plays whole games through one engine, reusing its buffers between
// games. Not safe for concurrent use: give each goroutine its own Runner.
type Runner struct {
	eng  *engine.Engine
	disp *engine.Dispatcher
	game engine.Game   // Play's game, reset and reused
	act  engine.Action // the action being dispatched (kept here, not on the heap per action)
	// turn is the action of a built-in policy's decision: only the loop
	// of PlayGame writes it, and only its Kind, Actor, CardID and Target
	// (pick's choice), so its other fields stay zero and a decision
	// clears none of its 360 bytes.
	turn    engine.Action
	events  []engine.Event
	actions []engine.Action
	uids    []string
	// styles holds each seat's style if its policy is a built-in one
	// (builtInStyle).
	styles []seatStyle

	// view is the public view a policy is handed (View).
	view engine.Public

	// BotSeed is the bot seed of the next game: each search bot
	// ([Searcher]) gets the stream StreamFor(BotSeed, seat) at the start of
	// a game. It must not be, or be made from, the game's seed; ""
	// means DefaultBotSeed.
	BotSeed string
	// Record keeps every action dispatched (for fixtures); off by default.
	Record bool
	// MaxActions bounds a game, as a guard against a policy loop; 0 means
	// 100000.
	MaxActions int
}

// NewRunner returns a runner for the engine.
func NewRunner(eng *engine.Engine) *Runner {
	return &Runner{eng: eng, disp: eng.NewDispatcher()}
}

// Lean switches the runner's dispatcher to lean mode, keeping only the
// events in keep (see [engine.Dispatcher.Lean]): for simulations only.
func (r *Runner) Lean(keep engine.EventSet) { r.disp.Lean(keep) }

// Play plays one seeded game from create to its winner and returns the
// final game and the whole public log. The game, the log and the recorded
// actions (Actions) are the runner's, reused by the next Play: valid until
// then (Clone the game to keep it). aud, if not nil, receives every RNG
// audit entry.
func (r *Runner) Play(seed string, seats []Seat, aud rng.Auditor) (*engine.Game, []engine.Event, error) {
	g := &r.game
	g.Reset()
	s, err := rng.NewSeeded(seed)
	if err != nil {
		return nil, nil, err
	}
	if aud != nil {
		s.SetAuditor(aud)
	}
	return g, r.events, r.PlayGame(g, s, seed, seats)
}

// PlayGame is Play on a caller's game and stream (the stream must be the
// seeded stream of seed, unused). The log is r.Events().
func (r *Runner) PlayGame(g *engine.Game, s *rng.Stream, seed string, seats []Seat) error {
	r.events, r.actions = r.events[:0], r.actions[:0]
	for len(r.uids) < len(seats) {
		r.uids = append(r.uids, policy.UID(len(r.uids)))
	}
	if err := r.newGame(seats); err != nil {
		return err
	}
	// The set-up's actions are written in place (newAct), not built as
	// values and copied: three copies of 360 bytes per action were 0.5% of
	// a simulated game.
	a := r.newAct(engine.ActCreate, r.uids[0])
	a.GameID, a.Mode, a.Seed = "bot-"+seed, string(rng.ModeSeeded), seed
	if err := r.dispatch(g, a, s); err != nil {
		return err
	}
	for i := range seats {
		r.seatJoin(r.newAct(engine.ActJoin, r.uids[i]), g, seats, i)
		if err := r.dispatch(g, &r.act, s); err != nil {
			return err
		}
	}
	if err := r.dispatch(g, r.newAct(engine.ActStart, r.uids[0]), s); err != nil {
		return err
	}
	rules := r.eng.Rules()
	r.styles = r.styles[:0]
	for _, st := range seats {
		sty, ok := policy.StyleOf(st.Policy, rules)
		r.styles = append(r.styles, seatStyle{sty, ok})
	}
	for n := 0; g.Public.Phase == engine.PhasePlaying; n++ {
		seat, me, err := r.awaited(g, seats, n)
		if err != nil {
			return err
		}
		a = &r.act
		if st := &r.styles[seat]; st.builtIn {
			a = &r.turn
			k, card, target := st.style.Pick(&g.Public, rules, me)
			a.Kind, a.Actor, a.CardID, a.Target = k, me.UID, card, target
		} else {
			r.act = r.decide(g, seats[seat].Policy, me.UID)
		}
		if err := r.dispatch(g, a, s); err != nil {
			return err
		}
	}
	return nil
}

// seatStyle is a seat's style, if builtIn (its policy is a built-in one).
type seatStyle struct {
	style   policy.Style
	builtIn bool
}

// Config says how [Runner.PlayWith] sets a game up.
type Config struct {
	// Create is the create action: Mode, Seed (seeded), ServerSeed (crypto
	// and fair) and GameID; the runner sets Kind and Actor (p1).
	Create engine.Action
	// Entropy holds each seat's contribution to a fair game's seed, hex
	// (missing or "" for none). In a fair game with openings
	// (Create.Openings) every seat has one of exactly 32 bytes: the seat
	// commits to it at join and opens it after every join.
	Entropy []string
	// Auditor, if not nil, receives every RNG audit entry.
	Auditor rng.Auditor
	// After, if not nil, is called after every applied action with the
	// game and the events that action emitted; an error stops the game.
	After func(g *engine.Game, events []engine.Event) error
}

// PlayWith plays one game in any rng mode from create to its end, as a
// server would: the stream comes from session.Stream, rebuilt after create
// and again after the last join (in fair mode the game seed is fixed only
// then), and used for the rest of the game. The log is r.Events(), the
// actions (if Record) r.Actions(). A seeded game played so is the game
// [Runner.Play] plays.
func (r *Runner) PlayWith(g *engine.Game, cfg Config, seats []Seat) error {
	g.Reset()
	r.events, r.actions = r.events[:0], r.actions[:0]
	for len(r.uids) < len(seats) {
		r.uids = append(r.uids, policy.UID(len(r.uids)))
	}
	if err := r.newGame(seats); err != nil {
		return err
	}
	var opts []rng.Option
	if cfg.Auditor != nil {
		opts = append(opts, rng.WithAuditor(cfg.Auditor))
	}
	step := func(a engine.Action, s *rng.Stream) error {
		before := len(r.events)
		if err := r.do(g, a, s); err != nil {
			return err
		}
		if s != nil {
			if err := g.SaveStream(s); err != nil {
				return err
			}
		}
		if cfg.After != nil {
			return cfg.After(g, r.events[before:])
		}
		return nil
	}
	create := cfg.Create
	create.Kind, create.Actor = engine.ActCreate, r.uids[0]
	if err := step(create, nil); err != nil {
		return err
	}
	s, err := session.Stream(g, opts...)
	if err != nil {
		return err
	}
	openings := cfg.Create.Openings
	if openings && len(cfg.Entropy) != len(seats) {
		return fmt.Errorf("bot: a fair game with openings needs a contribution for each of its %d seats, not %d", len(seats), len(cfg.Entropy))
	}
	for i := range seats {
		a := r.join(g, seats, i)
		switch {
		case openings:
			c, err := fair.ParseContribution(cfg.Entropy[i])
			if err != nil {
				return fmt.Errorf("bot: seat %d: %w", i, err)
			}
			h := fair.ContributionCommitment(create.GameID, uint32(i), c)
			a.EntropyCommitment = hex.EncodeToString(h[:])
		case i < len(cfg.Entropy):
			a.Entropy = cfg.Entropy[i]
		}
		if err := step(a, s); err != nil {
			return err
		}
	}
	if openings {
		for i := range seats {
			if err := step(engine.Action{Kind: engine.ActOpen, Actor: r.uids[i], Entropy: cfg.Entropy[i]}, s); err != nil {
				return err
			}
		}
	}
	if s, err = session.Stream(g, opts...); err != nil {
		return err
	}
	if err := step(engine.Action{Kind: engine.ActStart, Actor: r.uids[0]}, s); err != nil {
		return err
	}
	for n := 0; g.Public.Phase == engine.PhasePlaying; n++ {
		seat, me, err := r.awaited(g, seats, n)
		if err != nil {
			return err
		}
		if err := step(r.decide(g, seats[seat].Policy, me.UID), s); err != nil {
			return err
		}
	}
	return nil
}

// newGame gives each search bot of the seats its stream for the game.
func (r *Runner) newGame(seats []Seat) error {
	seed := r.BotSeed
	if seed == "" {
		seed = DefaultBotSeed
	}
	for i, st := range seats {
		if sr, ok := st.Policy.(Searcher); ok {
			s, err := StreamFor(seed, i)
			if err != nil {
				return fmt.Errorf("bot: bot seed: %w", err)
			}
			sr.NewGame(s)
		}
	}
	return nil
}

// join returns seat i's join: its uid, seat and class, and the standing
// preference its policy chooses if it is a Joiner (from the lobby's view).
func (r *Runner) join(g *engine.Game, seats []Seat, i int) engine.Action {
	a := engine.Action{Kind: engine.ActJoin, Actor: r.uids[i]}
	r.seatJoin(&a, g, seats, i)
	return a
}

// seatJoin sets the fields of seat i's join a (Kind and Actor set) that
// join sets besides: the seat, the class and the standing preference.
func (r *Runner) seatJoin(a *engine.Action, g *engine.Game, seats []Seat, i int) {
	a.Seat, a.Class = i, seats[i].Class
	if j, ok := seats[i].Policy.(Joiner); ok {
		policy.View(&r.view, &g.Public)
		a.KeepSmokeBomb = j.KeepSmokeBomb(&r.view, r.eng.Rules(), a.Actor, i, a.Class, len(seats))
	}
}

// newAct clears r.act, sets its kind and actor, and returns it for the
// caller to fill in: cleared, then set field by field, as an Action
// literal assigned whole is built and then copied.
func (r *Runner) newAct(k engine.ActionKind, actor string) *engine.Action {
	a := &r.act
	*a = engine.Action{}
	a.Kind, a.Actor = k, actor
	return a
}

// decide asks the policy for the action of uid, handing it the game's
// public view (View) only.
func (r *Runner) decide(g *engine.Game, pol policy.Policy, uid string) engine.Action {
	return decide(&r.view, g, pol, r.eng.Rules(), uid)
}

// decide is the one door through which a policy sees a game: it fills
// view with the game's public view and asks the policy for uid's action.
// Nothing of g.Secret, and no field View blanks, reaches the policy.
func decide(view *engine.Public, g *engine.Game, pol policy.Policy, rules *engine.Ruleset, uid string) engine.Action {
	policy.View(view, &g.Public)
	return pol.Choose(view, rules, uid)
}

// awaited returns the seat and the player the game waits for before its
// n-th action after start, or an error if n reaches the action limit or the
// awaited player has no seat.
func (r *Runner) awaited(g *engine.Game, seats []Seat, n int) (int, *engine.Player, error) {
	limit := r.MaxActions
	if limit == 0 {
		limit = 100000
	}
	if n == limit {
		return 0, nil, errors.New("bot: game did not finish within the action limit")
	}
	uid := g.Public.Awaiting
	me, i := g.Public.Player(uid)
	if me == nil {
		return 0, nil, fmt.Errorf("bot: the game awaits %q, who has no seat", uid)
	}
	if i < len(seats) && r.uids[i] == uid {
		return i, me, nil // the usual case: Players[i] sits in seat i
	}
	for i := range seats {
		if r.uids[i] == uid {
			return i, me, nil
		}
	}
	return 0, nil, fmt.Errorf("bot: the game awaits %q, who has no seat", uid)
}

// do dispatches a.
func (r *Runner) do(g *engine.Game, a engine.Action, s *rng.Stream) error {
	r.act = a
	return r.dispatch(g, &r.act, s)
}

// dispatch dispatches a (r.act or r.turn), appending its events to the log.
func (r *Runner) dispatch(g *engine.Game, a *engine.Action, s *rng.Stream) error {
	ev, err := r.disp.Dispatch(g, a, s, r.events)
	if err != nil {
		return fmt.Errorf("bot: %s by %s rejected: %w", a.Kind, a.Actor, err)
	}
	r.events = ev
	if r.Record {
		r.actions = append(r.actions, *a)
	}
	return nil
}

// Events returns the log of the last game (the runner's buffer).
func (r *Runner) Events() []engine.Event { return r.events }

// Actions returns the actions of the last game if Record is set.
func (r *Runner) Actions() []engine.Action { return r.actions }
