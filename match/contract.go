package match

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// ContractOptions tunes CheckContract. Zero fields take their defaults.
type ContractOptions struct {
	Games     int    // random games per seat count (default 4)
	Seed      string // default "contract"
	MaxStates int    // states checked in full per game (default 500)
}

// maxContractErrors is how many distinct failures CheckContract reports.
const maxContractErrors = 20

// CheckContract plays random games of def, seeded and crypto, at its
// minimum, default and maximum seat counts, and returns an error naming
// every broken promise of the definition (or nil):
//
//   - ValidateDefinition's declarations;
//   - determinism: the same seed gives the same events and state bytes
//     after every move, and Replay (seeded, and crypto from its draws)
//     gives them again;
//   - at every state: Check passes; the game awaits a seat or nobody;
//     Legal lists nothing for a seat out of range (-1, n, n+1);
//     every move Legal lists applies, and every other candidate (each
//     kind at the edges of its arguments' ranges and at the listed
//     values, an unknown kind, by every seat and two seats out of range)
//     is refused with a code of game.Codes, leaving the state, the rand
//     and the events unchanged; applying to a clone leaves the state
//     unchanged;
//   - hidden information: a seat's view and legal moves are a function of
//     the public part and its own private part, and the events it may
//     read of a move a function of those parts before and after and the
//     move: two states (moves) that agree on them but differ in another
//     seat's private part or the secret part and show the seat different
//     bytes are a leak;
//   - the sampler: a sampled state gives the seat byte-identical view,
//     public part, private part and information-state key, and passes
//     Check;
//   - chance outcomes, where listed: probabilities summing to 1, each
//     reached by applying the move with its draws, all of them used;
//   - a game.Restorer: every state it visits is made again from its
//     three parts (game.RestoreState) as the same state, moves and all;
//   - a game that declares every part public (game.AllPublic): no
//     private part and no secret part at any state;
//   - the end: a payoff per seat, winners in range and ascending, and
//     AbortPayoffs of the right length.
func CheckContract(def game.Definition, opt ContractOptions) error {
	if opt.Games == 0 {
		opt.Games = 4
	}
	if opt.Seed == "" {
		opt.Seed = "contract"
	}
	if opt.MaxStates == 0 {
		opt.MaxStates = 500
	}
	c := &contract{def: def, kinds: def.Kinds(), seen: map[string]bool{}, views: map[string]string{}, events: map[string]string{}}
	if err := game.ValidateDefinition(def); err != nil {
		c.fail("declarations: %v", err)
	}
	s := def.Seats()
	counts := []int{s.Min, s.Default, s.Max}
	slices.Sort(counts)
	for _, n := range slices.Compact(counts) {
		for g := range opt.Games {
			c.game(fmt.Sprintf("%s#%d/%d", opt.Seed, n, g), n, opt.MaxStates)
		}
	}
	return errors.Join(c.errs...)
}

type contract struct {
	def    game.Definition
	kinds  []game.KindSpec
	errs   []error
	seen   map[string]bool
	views  map[string]string // public+own private -> view+legal, per seat
	events map[string]string // before, move, after -> events seen, per seat
	probe  *rng.Stream
}

func (c *contract) fail(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if c.seen[msg] || len(c.errs) >= maxContractErrors {
		return
	}
	c.seen[msg] = true
	c.errs = append(c.errs, errors.New(c.def.Name()+": "+msg))
}

// game plays one seeded game with the random bot, checking as it goes,
// then its replays and a crypto game's.
func (c *contract) game(seed string, n, maxStates int) {
	cfg := Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, n)}
	a, errA := New(c.def, cfg)
	b, errB := New(c.def, cfg)
	if errA != nil || errB != nil {
		c.fail("setup of %d seats: %v", n, errors.Join(errA, errB))
		return
	}
	bots, _ := rng.NewSeeded(seed + "/bots")
	c.probe, _ = rng.NewSeeded(seed + "/probe")
	bot := NewRandom(bots)
	var legal []game.Move
	for states := 0; !a.Over(); states++ {
		st := a.State()
		if states < maxStates {
			c.state(st, seed)
		}
		seat := st.ToMove()
		if legal = st.Legal(seat, legal); len(legal) == 0 {
			c.fail("seat %d is awaited but Legal lists nothing (%s)", seat, seed)
			return
		}
		mv := bot.Choose(st, seat, legal)
		before := st.Clone()
		evA, err := a.Apply(mv)
		if err != nil {
			c.fail("a listed %s by seat %d was refused: %v (%s)", mv.Kind, seat, err, seed)
			return
		}
		evB, err := b.Apply(mv)
		if err != nil || !bytes.Equal(StateBytes(a.State()), StateBytes(b.State())) || !slices.Equal(evA, evB) {
			c.fail("not deterministic: the same seed and moves gave other state bytes or events at move %d (%s)", len(a.Moves()), seed)
			return
		}
		if states < maxStates {
			c.moveEvents(before, mv, a.State(), evA)
		}
	}
	c.end(a.State(), seed)
	r, err := Replay(c.def, cfg, a.Moves(), nil)
	if err != nil || !bytes.Equal(StateBytes(r.State()), StateBytes(a.State())) || !bytes.Equal(r.LogJSON(), a.LogJSON()) {
		c.fail("the seeded replay of %s differs: %v", seed, err)
	}
	c.cryptoReplay(n)
}

// cryptoReplay plays a crypto game and replays it from its record.
func (c *contract) cryptoReplay(n int) {
	cfg := Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, n)}
	m, err := New(c.def, cfg)
	if err != nil {
		c.fail("crypto setup: %v", err)
		return
	}
	bot := NewRandom(rng.NewCrypto())
	var legal []game.Move
	for !m.Over() && len(m.Moves()) < DefaultMaxMoves {
		seat := m.State().ToMove()
		legal = m.State().Legal(seat, legal)
		if _, err := m.Apply(bot.Choose(m.State(), seat, legal)); err != nil {
			c.fail("crypto game: a listed move was refused: %v", err)
			return
		}
	}
	r, err := Replay(c.def, cfg, m.Moves(), m.Draws())
	if err != nil || !bytes.Equal(StateBytes(r.State()), StateBytes(m.State())) || !bytes.Equal(r.LogJSON(), m.LogJSON()) {
		c.fail("a crypto game's replay from its record differs: %v", err)
	}
}

// state checks one state.
func (c *contract) state(st game.State, seed string) {
	n := st.NumSeats()
	if err := st.Check(); err != nil {
		c.fail("Check fails on a reachable state (%s): %v", seed, err)
	}
	if to := st.ToMove(); to != game.Nobody && (to < 0 || to >= n) {
		c.fail("ToMove %d out of range", to)
	}
	if st.Outcome().Over != (st.ToMove() == game.Nobody) {
		c.fail("Outcome().Over is %v while ToMove is %d", st.Outcome().Over, st.ToMove())
	}
	for _, s := range []int{-1, n, n + 1} {
		if l := c.legalOf(st, s); len(l) > 0 {
			c.fail("Legal lists %d moves for seat %d, which is not seated (%d seats)", len(l), s, n)
		}
	}
	orig := StateBytes(st)
	c.candidates(st)
	for s := range n {
		c.hidden(st, s)
		c.sample(st, s)
	}
	c.chance(st)
	c.restore(st)
	if game.IsAllPublic(c.def) {
		for s := range n {
			if len(st.AppendPrivate(nil, s)) > 0 {
				c.fail("the game declares every part public (game.AllPublic) but seat %d has a private part", s)
			}
		}
		if len(st.AppendSecret(nil)) > 0 {
			c.fail("the game declares every part public (game.AllPublic) but the state has a secret part")
		}
	}
	if !bytes.Equal(orig, StateBytes(st)) {
		c.fail("the state changed while its clones and samples were played with (Clone or Sample is not deep)")
	}
}

// legalOf is st.Legal(seat), a panic reported as a failure (a seat out
// of range must list nothing, never index past the seats).
func (c *contract) legalOf(st game.State, seat int) (l []game.Move) {
	defer func() {
		if r := recover(); r != nil {
			c.fail("Legal(%d) panics with %d seats: %v", seat, st.NumSeats(), r)
			l = nil
		}
	}()
	return st.Legal(seat, nil)
}

// counting is a Rand that counts its calls.
type counting struct {
	game.Rand
	n int
}

func (r *counting) Dice(sides int, tag rng.Tag, ctx *rng.Ctx) (rng.DiceRoll, error) {
	r.n++
	return r.Rand.Dice(sides, tag, ctx)
}

func (r *counting) UniformInt(lo, hi int64, tag rng.Tag, ctx *rng.Ctx) (int64, error) {
	r.n++
	return r.Rand.UniformInt(lo, hi, tag, ctx)
}

func (r *counting) Shuffle(a []int, tag rng.Tag, ctx *rng.Ctx) {
	r.n++
	r.Rand.Shuffle(a, tag, ctx)
}

// candidates applies every candidate move to a clone: the listed ones
// must apply, the others be refused without a trace.
func (c *contract) candidates(st game.State) {
	n := st.NumSeats()
	listed := map[game.Move]bool{}
	var cands []game.Move
	add := func(m game.Move) {
		if !slices.Contains(cands, m) {
			cands = append(cands, m)
		}
	}
	for s := range n {
		for _, m := range st.Legal(s, nil) {
			listed[m] = true
			add(m)
		}
	}
	for s := -1; s <= n; s++ {
		add(game.Move{Seat: s, Kind: "no_such_kind"})
		for _, k := range c.kinds {
			for _, args := range c.argSets(k, st) {
				add(game.Move{Seat: s, Kind: k.Name, Args: args})
			}
		}
	}
	marker := game.Event{To: game.All, Type: "contract-marker"}
	for _, m := range cands {
		cl := st.Clone()
		before := StateBytes(cl)
		rnd := &counting{Rand: game.FromStream(c.probe)}
		out, err := cl.Apply(m, rnd, []game.Event{marker})
		switch {
		case listed[m] && err != nil:
			c.fail("Legal lists %s but Apply refuses it: %v", desc(c.kinds, m), err)
		case !listed[m] && err == nil:
			c.fail("Apply accepts %s, which Legal does not list", desc(c.kinds, m))
		case err != nil:
			var ge *game.Error
			if !errors.As(err, &ge) || !slices.Contains(game.Codes, ge.Code) {
				c.fail("a refusal that is not a *game.Error of game.Codes: %v", err)
			}
			if !bytes.Equal(before, StateBytes(cl)) || rnd.n != 0 || len(out) != 1 || out[0] != marker {
				c.fail("refusing %s changed the state, drew or emitted (%v)", desc(c.kinds, m), err)
			}
		}
	}
}

// argSets returns the argument tuples to try for kind k: each argument at
// its range's edges, just outside them, the middle, and every value a
// listed move gives it; at most 256 tuples.
func (c *contract) argSets(k game.KindSpec, st game.State) [][game.MaxArgs]int64 {
	vals := make([][]int64, len(k.Args))
	for i, a := range k.Args {
		vals[i] = []int64{a.Min, a.Max, a.Min - 1, a.Max + 1, a.Min + (a.Max-a.Min)/2}
		for s := range st.NumSeats() {
			for _, m := range st.Legal(s, nil) {
				if m.Kind == k.Name && !slices.Contains(vals[i], m.Args[i]) {
					vals[i] = append(vals[i], m.Args[i])
				}
			}
		}
	}
	out := [][game.MaxArgs]int64{{}}
	for i := range k.Args {
		var next [][game.MaxArgs]int64
		for _, t := range out {
			for _, v := range vals[i] {
				if len(next) < 256 {
					t[i] = v
					next = append(next, t)
				}
			}
		}
		out = next
	}
	return out
}

func desc(kinds []game.KindSpec, m game.Move) string {
	return string(game.AppendMoveCanonical(nil, kinds, m))
}

// end checks a finished game's outcome.
func (c *contract) end(st game.State, seed string) {
	n := st.NumSeats()
	o := st.Outcome()
	if !o.Over || len(o.Payoffs) != n || !slices.IsSorted(o.Winners) {
		c.fail("the outcome of a finished game (%s): over %v, %d payoffs for %d seats, winners %v", seed, o.Over, len(o.Payoffs), n, o.Winners)
	}
	for _, w := range o.Winners {
		if w < 0 || w >= n {
			c.fail("winner %d out of range", w)
		}
	}
	if len(st.AbortPayoffs()) != n {
		c.fail("AbortPayoffs has %d payoffs for %d seats", len(st.AbortPayoffs()), n)
	}
	if err := st.Check(); err != nil {
		c.fail("Check fails on a finished game: %v", err)
	}
}
