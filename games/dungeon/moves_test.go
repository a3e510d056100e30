package dungeon_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

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

// playUntil plays a seeded four-player game with the cautious style until
// cond holds of the state, and returns the match.
func playUntil(t *testing.T, seed string, cond func(*dungeon.State) bool) *match.Match {
	t.Helper()
	m, err := match.New(dungeon.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 4)})
	require.NoError(t, err)
	pol := dungeon.Def.Styles()[0].New(0)
	var legal []game.Move
	for !cond(m.State().(*dungeon.State)) {
		require.False(t, m.Over(), "the game ended first")
		st := m.State()
		legal = st.Legal(st.ToMove(), legal)
		_, err := m.Apply(pol.Choose(st, st.ToMove(), legal))
		require.NoError(t, err)
	}
	return m
}

func step(k engine.Step) func(*dungeon.State) bool {
	return func(s *dungeon.State) bool { return s.Game().Public.Step == k }
}

// Bad moves are refused with an *Error whose code and message name the
// problem, leaving the state as it was and drawing nothing.
func TestMoveRefusals(t *testing.T) {
	m := playUntil(t, "refusals", func(s *dungeon.State) bool {
		me, _ := s.Game().Public.Player(s.Game().Public.Awaiting)
		return s.Game().Public.Step == engine.StepManage && len(me.Items) > 0
	})
	st := m.State()
	to := st.ToMove()
	other := (to + 1) % 4
	me, _ := st.(*dungeon.State).Game().Public.Player(st.(*dungeon.State).UID(to))
	n := int64(len(me.Items))
	for _, c := range []struct {
		name string
		m    game.Move
		code game.Code
		want string
	}{
		{"unknown kind", game.Move{Seat: to, Kind: "fly"}, game.CodeInvalidAction, `unknown move kind "fly"`},
		{"a lobby kind", game.Move{Seat: to, Kind: "start"}, game.CodeInvalidAction, `unknown move kind "start"`},
		{"wrong seat", game.Move{Seat: other, Kind: "endManage"}, game.CodeNotYourTurn, "awaits seat"},
		{"no such seat", game.Move{Seat: 4, Kind: "endManage"}, game.CodeUnknownPlayer, "no seat 4"},
		{"negative seat", game.Move{Seat: -1, Kind: "endManage"}, game.CodeUnknownPlayer, "no seat -1"},
		{"item out of range", game.Move{Seat: to, Kind: "dropItem", Args: [4]int64{64}}, game.CodeInvalidAction, "item 64 is outside [0, 63]"},
		{"negative item", game.Move{Seat: to, Kind: "dropItem", Args: [4]int64{-1}}, game.CodeInvalidAction, "item -1 is outside"},
		{"item not held", game.Move{Seat: to, Kind: "dropItem", Args: [4]int64{n}}, game.CodeInvalidAction, "holds no item"},
		{"an argument too many", game.Move{Seat: to, Kind: "dropItem", Args: [4]int64{0, 1}}, game.CodeInvalidAction, "takes 1 arguments"},
		{"arguments on endManage", game.Move{Seat: to, Kind: "endManage", Args: [4]int64{1}}, game.CodeInvalidAction, "takes 0 arguments"},
		{"another step's kind", game.Move{Seat: to, Kind: "move"}, game.CodeInvalidAction, "wrong_step"},
		{"target out of range", game.Move{Seat: to, Kind: "offerDuel", Args: [4]int64{5}}, game.CodeInvalidAction, "no seat 5"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := match.StateBytes(st)
			rnd := &counting{Rand: game.FromStream(mustSeeded(t, "probe"))}
			marker := game.Event{To: game.All, Type: "marker"}
			ev, err := st.Apply(c.m, rnd, []game.Event{marker})
			var ge *game.Error
			require.True(t, errors.As(err, &ge), "%v", err)
			require.Equal(t, c.code, ge.Code, "%v", err)
			require.ErrorContains(t, err, c.want)
			require.Equal(t, before, match.StateBytes(st))
			require.Zero(t, rnd.n)
			require.Equal(t, []game.Event{marker}, ev)
		})
	}
	// The match's own guards say the same of a kind it does not have.
	_, err := m.Apply(game.Move{Seat: to, Kind: "abandon"})
	require.ErrorIs(t, err, game.CodeInvalidAction)
}

// A finished game refuses every move with game_over.
func TestMoveAfterTheEnd(t *testing.T) {
	m := playUntil(t, "end", func(s *dungeon.State) bool { return s.ToMove() == game.Nobody })
	_, err := m.State().Apply(game.Move{Seat: 0, Kind: "move"}, game.FromStream(mustSeeded(t, "x")), nil)
	require.ErrorIs(t, err, game.CodeGameOver)
	require.True(t, m.State().Outcome().Over)
	require.Empty(t, m.State().Legal(0, nil))
}

// Setup refuses a seat count the ruleset does not take, a class the
// dungeon has not, two options, another game's ruleset and a server seed
// the Rand cannot draw, with bad_setup or bad_ruleset naming it; so does
// SetupAgain (game.Resetter), after which the state sets up again.
func TestSetupRefusals(t *testing.T) {
	rnd := game.FromStream(mustSeeded(t, "setup"))
	r := dungeon.DefaultRules()
	again, _, err := dungeon.Def.Setup(r, make([]game.Seat, 3), rnd, nil)
	require.NoError(t, err)
	for _, c := range []struct {
		seats []game.Seat
		code  game.Code
		want  string
	}{
		{make([]game.Seat, 1), game.CodeBadSetup, "2 to 6 seats, not 1"},
		{make([]game.Seat, 7), game.CodeBadSetup, "2 to 6 seats, not 7"},
		{[]game.Seat{{Options: []string{"wizard"}}, {}}, game.CodeBadSetup, `seat 0: unknown class "wizard"`},
		{[]game.Seat{{}, {Options: []string{"monk", "scout"}}}, game.CodeBadSetup, "seat 1: one option"},
	} {
		_, ev, err := dungeon.Def.Setup(r, c.seats, rnd, nil)
		require.ErrorIs(t, err, c.code)
		require.ErrorContains(t, err, c.want)
		require.Empty(t, ev)
		ev, err = again.(*dungeon.State).SetupAgain(r, c.seats, rnd, nil)
		require.ErrorIs(t, err, c.code)
		require.ErrorContains(t, err, c.want)
		require.Empty(t, ev)
	}
	_, _, err = dungeon.Def.Setup(otherRules{}, make([]game.Seat, 2), rnd, nil)
	require.ErrorIs(t, err, game.CodeBadRuleset)
	_, err = again.(*dungeon.State).SetupAgain(otherRules{}, make([]game.Seat, 2), rnd, nil)
	require.ErrorIs(t, err, game.CodeBadRuleset)
	_, _, err = dungeon.Def.Setup(r, make([]game.Seat, 2), refusing{}, nil)
	require.ErrorIs(t, err, game.CodeBadSetup)
	require.ErrorContains(t, err, "the server seed: ")
	require.ErrorContains(t, err, rng.ErrRange.Error())
	ev, err := again.(*dungeon.State).SetupAgain(r, make([]game.Seat, 2), rnd, nil)
	require.NoError(t, err)
	require.NotEmpty(t, ev)
	require.Equal(t, 2, again.(*dungeon.State).NumSeats())
	require.Contains(t, []int{0, 1}, again.ToMove(), "the set-up game awaits one of its two seats")
}

// refusing is a Rand that is no seeded stream and whose draws all fail,
// as a stream out of words.
type refusing struct{ game.Rand }

func (refusing) UniformInt(int64, int64, rng.Tag, *rng.Ctx) (int64, error) {
	return 0, fmt.Errorf("%w: out of words", rng.ErrRange)
}

type otherRules struct{}

func (otherRules) Game() string          { return "pig" }
func (otherRules) CanonicalJSON() []byte { return []byte("{}") }
func (otherRules) Hash() string          { return "" }

// Seats without options take the default rotation; a seat's class is its
// option.
func TestSeatClasses(t *testing.T) {
	st, _, err := dungeon.Def.Setup(dungeon.DefaultRules(), []game.Seat{{}, {Options: []string{"scout"}}, {}},
		game.FromStream(mustSeeded(t, "classes")), nil)
	require.NoError(t, err)
	p := st.(*dungeon.State).Game().Public
	var got []engine.Class
	for _, pl := range p.Players {
		got = append(got, pl.Class)
	}
	require.Equal(t, []engine.Class{engine.ClassWarrior, engine.ClassScout, engine.ClassDuelist}, got)
}
