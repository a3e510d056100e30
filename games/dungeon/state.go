package dungeon

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// TagSample is the tag of Sample's shuffles of the decks' draw piles.
const TagSample rng.Tag = "dungeon.sample"

// State is one dungeon game: the engine game, played by seats 0..n-1 as
// the uids policy.UID(i) ("p1" for seat 0).
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

	// awUID and awSeat: the last uid ToMove found and its seat. Strings
	// do not change, so a Public.Awaiting equal to awUID has that seat
	// whatever happened since; nothing needs clearing.
	awUID  string
	awSeat int
	// turn is a built-in policy's action (policy.BuiltIn.Pick), written
	// field by field: only its Kind, Actor, CardID and Target are ever
	// set, so it needs no clearing.
	turn engine.Action
	// chosen is the move a Policy last chose on this state and chosenAct
	// the engine action it stands for (turn or act: what action builds
	// for it), valid while chosenOK: until a dispatch or act is written.
	chosen    game.Move
	chosenAct *engine.Action
	chosenOK  bool
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
// policy.UID(i): for a game the engine played elsewhere (a fixture's
// starting state). An error names every problem (Check).
func FromGame(r *Rules, g *engine.Game) (*State, error) {
	s := &State{rules: r, g: g.Clone(), uids: make([]string, len(g.Public.Players))}
	for i := range s.uids {
		s.uids[i] = policy.UID(i)
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
	s.chosenOK = false
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
	if p.Awaiting != s.awUID || s.awUID == "" {
		s.awUID, s.awSeat = p.Awaiting, s.seat(p.Awaiting)
	}
	return s.awSeat
}

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
// players are the seats, seat i being uid policy.UID(i).
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
// (policy.View): without the game id (a seeded game's names its seed, from
// which anyone could compute the decks' order), the last action id, the
// fairness record and the rng's seq and audit flag. Every seat sees the
// same.
func (s *State) AppendView(b []byte, _ int) []byte {
	var v engine.Public
	policy.View(&v, &s.g.Public)
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
