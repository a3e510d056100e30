package dungeon_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/match/matchtest"
	"github.com/fairboard/fairboard/rng"
)

// publicSansFairness is the public state's JSON without what a quiet
// state leaves out (engine.Dispatcher.Lean): the fairness reveal's salts.
func publicSansFairness(t *testing.T, st game.State) string {
	t.Helper()
	p := st.(*dungeon.State).Game().Public
	p.Fairness = nil
	b, err := json.Marshal(&p)
	require.NoError(t, err)
	return string(b)
}

// A lean match makes the dungeon's state quiet (game.Quieter): it plays
// the same game as a full match, move for move, to the same public state
// (but for the fairness reveal's salts), while its moves yield no events;
// the full match's do (the control that the lean match is quiet), and a
// clone of a quiet state is not quiet.
func TestQuietPlaysTheSameGame(t *testing.T) {
	for i := range 12 {
		seed := "quiet#" + strconv.Itoa(i)
		cfg := match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2+i%3)}
		loud, err := match.New(dungeon.Def, cfg)
		require.NoError(t, err)
		cfg.Lean = true
		quiet, err := match.New(dungeon.Def, cfg)
		require.NoError(t, err)
		var bots []match.Bot
		for s := range cfg.Seats {
			b, err := match.NewBot(dungeon.Def, []string{"cautious", "aggressive"}[s%2], nil)
			require.NoError(t, err)
			bots = append(bots, b)
		}
		var legal []game.Move
		loudEvents, moves, cloneEvents := 0, 0, 0
		for !loud.Over() {
			st := loud.State()
			seat := st.ToMove()
			legal = st.Legal(seat, legal)
			mv := bots[seat].Choose(st, seat, legal)
			require.Equal(t, seat, quiet.State().ToMove(), "%s move %d", seed, moves)
			require.Equal(t, legal, quiet.State().Legal(seat, nil), "%s move %d", seed, moves)
			if ev, err := quiet.State().Clone().Apply(mv, game.FromStream(mustSeeded(t, seed+"/clone")), nil); err == nil {
				cloneEvents += len(ev)
			}
			ev, err := loud.Apply(mv)
			require.NoError(t, err)
			loudEvents += len(ev)
			ev, err = quiet.Apply(mv)
			require.NoError(t, err)
			require.Empty(t, ev, "%s move %d: a quiet state's events", seed, moves)
			moves++
		}
		require.True(t, quiet.Over(), seed)
		require.Positive(t, loudEvents, seed)
		require.Positive(t, cloneEvents, "%s: a clone of a quiet state is not quiet", seed)
		require.Equal(t, publicSansFairness(t, loud.State()), publicSansFairness(t, quiet.State()), seed)
		require.Equal(t, loud.State().Outcome(), quiet.State().Outcome(), seed)
	}
}

// A style's Policy keeps its view between moves (styles.go): one Policy
// playing a second game chooses exactly as a fresh one does.
func TestPolicyKeepsNothingBetweenGames(t *testing.T) {
	reused, err := match.NewBot(dungeon.Def, "aggressive", nil)
	require.NoError(t, err)
	play := func(seed string, b match.Bot) []game.Move {
		m, err := match.New(dungeon.Def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 3)})
		require.NoError(t, err)
		var out, legal []game.Move
		for !m.Over() {
			st := m.State()
			seat := st.ToMove()
			legal = st.Legal(seat, legal)
			mv := b.Choose(st, seat, legal)
			_, err := m.Apply(mv)
			require.NoError(t, err)
			out = append(out, mv)
		}
		return out
	}
	play("policy#a", reused)
	fresh, err := match.NewBot(dungeon.Def, "aggressive", nil)
	require.NoError(t, err)
	require.Equal(t, play("policy#b", fresh), play("policy#b", reused))
}

// A style chooses without the legal list (game.DirectPolicy, which the
// simulations' loop asks) exactly the move it chooses from the list, at
// every state of whole games, for both styles and every seat.
func TestDirectChoosesAsTheList(t *testing.T) {
	var pols []game.DirectPolicy
	for _, st := range dungeon.Def.Styles() {
		p, ok := st.New(st.Default).(game.DirectPolicy)
		require.True(t, ok, st.Name)
		pols = append(pols, p)
	}
	states := 0
	for i := range 6 {
		m, err := match.New(dungeon.Def, match.Config{Mode: rng.ModeSeeded, Seed: "direct#" + strconv.Itoa(i), Seats: make([]game.Seat, 3+i%3)})
		require.NoError(t, err)
		var legal []game.Move
		for !m.Over() {
			st := m.State()
			seat := st.ToMove()
			legal = st.Legal(seat, legal)
			for _, p := range pols {
				require.Equal(t, p.Choose(st, seat, legal), p.ChooseDirect(st, seat), "move %d", states)
			}
			_, err := m.Apply(pols[seat%2].Choose(st, seat, legal))
			require.NoError(t, err)
			states++
		}
	}
	require.Greater(t, states, 300)
}

// A lean match that Reset carries from game to game (the dungeon's
// SetupAgain: its engine game reset, its set-up on the lean dispatcher)
// plays every game as a fresh match: the seats awaited, the legal moves,
// the outcome, the positions and the public part (but for the fairness
// reveal's salts), over 2 to 6 seats, dealt classes, and a change of
// ruleset between games (the dispatcher made again, lean).
func TestResetPlaysAsNew(t *testing.T) {
	other, err := game.WithNumber(dungeon.Def, dungeon.Def.DefaultRuleset(), "capacity", 2)
	require.NoError(t, err)
	var cfgs []match.Config
	for i := range 10 {
		seats := make([]game.Seat, 2+i%5)
		if i%3 == 1 {
			for s := range seats {
				seats[s].Options = []string{string(engine.Classes[(s+i)%len(engine.Classes)])}
			}
		}
		cfg := match.Config{Mode: rng.ModeSeeded, Seed: "reset#" + strconv.Itoa(i), Seats: seats, Lean: true}
		if i%4 == 2 {
			cfg.Rules = other
		}
		cfgs = append(cfgs, cfg)
	}
	pub := func(st game.State) []byte { return []byte(publicSansFairness(t, st)) }
	require.NoError(t, matchtest.CheckReset(dungeon.Def, cfgs, "cautious", pub))
	require.NoError(t, matchtest.CheckReset(dungeon.Def, cfgs[:4], "aggressive", pub))
}
