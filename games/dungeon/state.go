package dungeon

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// TagSample is the tag of Sample's shuffles of the decks' draw piles.
const TagSample rng.Tag = "dungeon.sample"

// State is one dungeon game: the engine game, played by seats 0..n-1 as
// the uids bot.UID(i) ("p1" for seat 0).
type State struct {
	rules *Rules
	g     *engine.Game
	uids  []string // shared between clones: never changed

	disp *engine.Dispatcher // made on first use; never shared
	buf  []engine.Event     // the engine events of the last Setup or Apply
	acts []engine.Action    // LegalActions' buffer
	act  engine.Action      // Apply's action (the dispatcher holds it by pointer)
	// quiet: Apply builds no event (Quiet): the dispatcher is lean
	quiet bool
}

// Quiet implements game.Quieter: from now on the state's dispatcher is
// lean (engine.Dispatcher.Lean, keeping no event) and Apply appends no
// game event. It plays the same game (the same handlers and draws) but
// commits no shuffle: its secret part then holds no shuffle record and
// its fairness reveal no salts, which only a verifier reads. For
// simulations (a lean match), never for a game anyone may see.
func (s *State) Quiet() {
	if s.disp == nil {
		s.disp = s.rules.eng.NewDispatcher()
	}
	s.disp.Lean(0)
	s.quiet = true
}

// FromGame returns the state over a copy of g, an engine game under r in
// play or finished whose players are seats 0..n-1 with the uids
// bot.UID(i): for a game the engine played elsewhere (a fixture's
// starting state). An error names every problem (Check).
func FromGame(r *Rules, g *engine.Game) (*State, error) {
	s := &State{rules: r, g: g.Clone(), uids: make([]string, len(g.Public.Players))}
	for i := range s.uids {
		s.uids[i] = bot.UID(i)
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return s, nil
}

// Game returns the engine game (the state's own: do not change it).
func (s *State) Game() *engine.Game { return s.g }

// Rules returns the state's ruleset.
func (s *State) Rules() *Rules { return s.rules }

// EngineEvents returns the engine's own events of the last Setup or
// Apply on this state, in full (seq, card ids, tags): the dungeon's log,
// of which the game.Events are a summary. Valid until the next Apply; a
// clone has none until it applies a move.
func (s *State) EngineEvents() []engine.Event { return s.buf }

// UID returns seat's uid.
func (s *State) UID(seat int) string { return s.uids[seat] }

// dispatch dispatches a through the engine with a stream whose draws are
// rnd's (game.StreamFor, at the game's mode and seq), appending the
// engine's events to s.buf and their summaries to ev. On refusal the game
// is as it was and nothing was drawn (the engine validates first).
func (s *State) dispatch(a *engine.Action, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	if s.disp == nil {
		s.disp = s.rules.eng.NewDispatcher()
	}
	p := &s.g.Public
	n := len(s.buf)
	var err error
	if a.Kind == engine.ActCreate {
		s.buf, err = s.disp.Dispatch(s.g, a, nil, s.buf)
	} else {
		s.buf, err = s.disp.Dispatch(s.g, a, game.StreamFor(rnd, p.RNG.Mode, p.RNG.Seq), s.buf)
	}
	if err != nil {
		return ev, err
	}
	if s.quiet {
		return ev, nil
	}
	for i := n; i < len(s.buf); i++ {
		ev = append(ev, s.summary(&s.buf[i]))
	}
	return ev, nil
}

// NumSeats returns the number of seats.
func (s *State) NumSeats() int { return len(s.uids) }

// seat returns the seat of uid, or -1 (for "" and anyone not seated).
func (s *State) seat(uid string) int {
	if uid == "" {
		return -1
	}
	if pl, _ := s.g.Public.Player(uid); pl != nil {
		return pl.Seat
	}
	return -1
}

// ToMove returns the seat of the player the engine awaits
// (Public.Awaiting), or game.Nobody once the game has finished.
func (s *State) ToMove() int {
	p := &s.g.Public
	if p.Phase != engine.PhasePlaying {
		return game.Nobody
	}
	return s.seat(p.Awaiting)
}

// Legal lists engine.LegalActions of seat's uid, the turn kinds only, as
// moves in its order (by kind, then items in inventory order, targets in
// seat order): none when the engine does not await seat.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if seat < 0 || seat >= len(s.uids) || s.g.Public.Phase != engine.PhasePlaying {
		return buf
	}
	s.acts = engine.LegalActions(&s.g.Public, s.rules.r, s.uids[seat], engine.TurnKinds, s.acts)
	for i := range s.acts {
		if m, ok := s.Move(seat, &s.acts[i]); ok {
			buf = append(buf, m)
		}
	}
	return buf
}

// Move returns the move of seat that stands for the engine turn action a
// (its item as an index in the mover's inventory, its target as a seat),
// and false for an action no move stands for (another kind, a card seat
// does not hold, a target not seated).
func (s *State) Move(seat int, a *engine.Action) (game.Move, bool) {
	m := game.Move{Seat: seat, Kind: string(a.Kind)}
	switch a.Kind {
	case engine.ActUseItem, engine.ActDropItem, engine.ActDiscard:
		me, _ := s.g.Public.Player(s.uids[seat])
		i := -1
		if me != nil {
			i = slices.Index(me.Items, a.CardID)
		}
		if i < 0 {
			return m, false
		}
		m.Args[0] = int64(i)
	case engine.ActOfferDuel:
		t := s.seat(a.Target)
		if t < 0 {
			return m, false
		}
		m.Args[0] = int64(t)
	case engine.ActEndManage, engine.ActSkipDuel, engine.ActMove, engine.ActSleep, engine.ActCombatRound,
		engine.ActDuelRound, engine.ActReroll, engine.ActDeclineReroll:
	default:
		return m, false
	}
	return m, true
}

// action returns the engine action m stands for, or a refusal: game_over
// once finished, unknown_player for a seat out of range, not_your_turn for
// a seat the engine does not await, invalid_action for an unknown kind
// (named), an argument out of its range or one the kind does not take, an
// item index past the mover's inventory, or a target seat out of range.
func (s *State) action(m game.Move) (engine.Action, error) {
	var a engine.Action
	n := len(s.uids)
	switch to := s.ToMove(); {
	case to == game.Nobody:
		return a, game.Reject(game.CodeGameOver, "the game has finished")
	case m.Seat < 0 || m.Seat >= n:
		return a, game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(m.Seat))
	case m.Seat != to:
		return a, game.Reject(game.CodeNotYourTurn, "the game awaits seat "+strconv.Itoa(to))
	}
	k, ok := game.Kind(kinds, m.Kind)
	if !ok {
		return a, game.Reject(game.CodeInvalidAction, "unknown move kind "+strconv.Quote(m.Kind))
	}
	for i, v := range m.Args {
		if i >= len(k.Args) {
			if v != 0 {
				return a, game.Reject(game.CodeInvalidAction, fmt.Sprintf("%s takes %d arguments", k.Name, len(k.Args)))
			}
			continue
		}
		if as := k.Args[i]; v < as.Min || v > as.Max {
			return a, game.Reject(game.CodeInvalidAction, fmt.Sprintf("%s's %s %d is outside [%d, %d]", k.Name, as.Name, v, as.Min, as.Max))
		}
	}
	a.Kind, a.Actor = engine.ActionKind(m.Kind), s.uids[m.Seat]
	switch a.Kind {
	case engine.ActUseItem, engine.ActDropItem, engine.ActDiscard:
		me, _ := s.g.Public.Player(a.Actor)
		if me == nil || m.Args[0] >= int64(len(me.Items)) {
			return a, game.Reject(game.CodeInvalidAction, fmt.Sprintf("seat %d holds no item %d", m.Seat, m.Args[0]))
		}
		a.CardID = me.Items[m.Args[0]]
	case engine.ActOfferDuel:
		if m.Args[0] >= int64(n) {
			return a, game.Reject(game.CodeInvalidAction, fmt.Sprintf("no seat %d to challenge", m.Args[0]))
		}
		a.Target = s.uids[m.Args[0]]
	}
	return a, nil
}

// Apply maps m to the engine action of its seat's uid (see action) and
// dispatches it with rnd's draws. The engine's own refusals (a kind of
// another step, a target not on the tile, ...) keep their code when
// game.Codes has it and are invalid_action otherwise, the engine's code
// leading the message. On refusal nothing changed and nothing was drawn.
func (s *State) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	var err error
	if s.act, err = s.action(m); err != nil {
		return ev, err
	}
	s.buf = s.buf[:0]
	out, err := s.dispatch(&s.act, rnd, ev)
	if err != nil {
		return ev, fromEngine(err)
	}
	return out, nil
}

// fromEngine maps an engine refusal to a game one.
func fromEngine(err error) error {
	var ee *engine.Error
	if !errors.As(err, &ee) {
		return game.Reject(game.CodeInvalidAction, err.Error())
	}
	if c := game.Code(ee.Code); slices.Contains(game.Codes, c) {
		return game.Reject(c, ee.Msg)
	}
	return game.Reject(game.CodeInvalidAction, string(ee.Code)+": "+ee.Msg)
}

// Outcome: over once the engine's phase is finished; the winner
// (Public.Winner) is the one winner with payoff 1 (the dungeon's payoff is
// won), every other seat 0; a game that ended without a winner has none.
func (s *State) Outcome() game.Outcome {
	p := &s.g.Public
	o := game.Outcome{Over: p.Phase == engine.PhaseFinished, Payoffs: make([]float64, len(s.uids))}
	if w := s.seat(p.Winner); o.Over && w >= 0 {
		o.Winners = []int{w}
		o.Payoffs[w] = 1
	}
	return o
}

// AbortPayoffs returns 0 for every seat.
func (s *State) AbortPayoffs() []float64 { return make([]float64, len(s.uids)) }

// Check returns the engine's invariant check (engine.Game.Check under the
// state's ruleset) and the adapter's own: the game has started, its
// players are the seats, seat i being uid bot.UID(i).
func (s *State) Check() error {
	var errs []error
	p := &s.g.Public
	if p.Phase != engine.PhasePlaying && p.Phase != engine.PhaseFinished {
		errs = append(errs, fmt.Errorf("phase %q: want playing or finished", p.Phase))
	}
	if len(p.Players) != len(s.uids) {
		errs = append(errs, fmt.Errorf("%d players for %d seats", len(p.Players), len(s.uids)))
	}
	for i := range p.Players {
		if pl := &p.Players[i]; i < len(s.uids) && (pl.Seat != i || pl.UID != s.uids[i]) {
			errs = append(errs, fmt.Errorf("player %d is %s in seat %d, want %s in seat %d", i, pl.UID, pl.Seat, s.uids[i], i))
		}
	}
	if err := s.g.Check(s.rules.r); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Clone returns a deep copy (engine.Game.Clone), with no engine events.
func (s *State) Clone() game.State {
	return &State{rules: s.rules, g: s.g.Clone(), uids: s.uids}
}

// AppendPublic appends the canonical JSON of the engine's public state
// (encoding/json of engine.Public, as engine.Game.CanonicalJSON writes it).
func (s *State) AppendPublic(b []byte) []byte { return appendJSON(b, &s.g.Public) }

// AppendPrivate appends nothing: no seat has a private part.
func (s *State) AppendPrivate(b []byte, _ int) []byte { return b }

// AppendSecret appends the canonical JSON of the engine's secret state:
// the decks' draw order, the seed or the salt key, the shuffle records.
func (s *State) AppendSecret(b []byte) []byte { return appendJSON(b, &s.g.Secret) }

// AppendView appends the public part as the engine's bots see it
// (bot.View): without the game id (a seeded game's names its seed, from
// which anyone could compute the decks' order), the last action id, the
// fairness record and the rng's seq and audit flag. Every seat sees the
// same.
func (s *State) AppendView(b []byte, _ int) []byte {
	var v engine.Public
	bot.View(&v, &s.g.Public)
	return appendJSON(b, &v)
}

// AppendInfoKey appends the view: a seat knows nothing more (the past does
// not change what may happen).
func (s *State) AppendInfoKey(b []byte, seat int) []byte { return s.AppendView(b, seat) }

func appendJSON(b []byte, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic("dungeon: encoding the engine state: " + err.Error()) // plain data: cannot fail
	}
	return append(b, j...)
}

// Sample returns a clone whose every secret draw pile of two cards or more
// is shuffled again with rnd.Shuffle (TagSample, ctx.DeckID the deck's
// id), in deck order: the same cards in each pile, the public part, hence
// every view, unchanged. The secret shuffle records are left as they were:
// a sampled state is for search, never for a verifier.
func (s *State) Sample(_ int, rnd game.Rand) game.State {
	c := &State{rules: s.rules, g: s.g.Clone(), uids: s.uids}
	var perm []int
	for i := range c.g.Secret.Decks {
		d := &c.g.Secret.Decks[i]
		if len(d.Cards) < 2 {
			continue
		}
		perm = perm[:0]
		for j := range d.Cards {
			perm = append(perm, j)
		}
		rnd.Shuffle(perm, TagSample, &rng.Ctx{DeckID: d.ID})
		old := slices.Clone(d.Cards)
		for j, k := range perm {
			d.Cards[j] = old[k]
		}
	}
	return c
}

// ChanceOutcomes returns false: a move's draws (dice, shuffles, weighted
// picks) are not listed.
func (s *State) ChanceOutcomes(game.Move) ([]game.Chance, bool) { return nil, false }
