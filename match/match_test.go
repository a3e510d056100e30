package match_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

func guess(seat int, card int64) game.Move {
	return game.Move{Seat: seat, Kind: "guess", Args: [game.MaxArgs]int64{card}}
}

func newPeek(t *testing.T, seed string) *match.Match {
	t.Helper()
	m, err := match.New(peek{}, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2)})
	require.NoError(t, err)
	return m
}

// The machinery's guards come before the game's, in their order, and a
// refused move leaves the match as it was.
func TestGuards(t *testing.T) {
	m := newPeek(t, "guards")
	st := m.State()
	before, log := match.StateBytes(st), string(m.LogJSON())
	legal := st.Legal(0, nil)
	for _, c := range []struct {
		mv   game.Move
		code game.Code
		msg  string
	}{
		{game.Move{Seat: 0, Kind: "fly"}, game.CodeInvalidAction, `unknown move kind "fly" for peek`},
		{game.Move{Seat: 5, Kind: "fly"}, game.CodeInvalidAction, `unknown move kind "fly"`}, // the kind first
		{guess(2, 1), game.CodeUnknownPlayer, "no seat 2"},
		{guess(-1, 1), game.CodeUnknownPlayer, "no seat -1"},
		{guess(1, 1), game.CodeNotYourTurn, "the game awaits seat 0"},
		{guess(0, 9), game.CodeInvalidAction, "bad guess"}, // the game's own
	} {
		_, err := m.Apply(c.mv)
		require.ErrorIs(t, err, c.code, "%+v", c.mv)
		require.ErrorContains(t, err, c.msg)
		require.Equal(t, before, match.StateBytes(st))
		require.Equal(t, log, string(m.LogJSON()))
		require.Empty(t, m.Moves())
	}
	_, err := m.Apply(legal[0])
	require.NoError(t, err)
	_, err = m.Apply(m.State().Legal(1, nil)[0])
	require.NoError(t, err)
	require.True(t, m.Over())
	_, err = m.Apply(legal[0])
	require.ErrorIs(t, err, game.CodeGameOver)
	require.Equal(t, 1, m.Position(0))
	require.Equal(t, 2, m.Position(1))
}

func TestNewRefusals(t *testing.T) {
	for _, cfg := range []match.Config{
		{Mode: rng.ModeSeeded, Seats: make([]game.Seat, 2)},                              // no seed
		{Mode: rng.ModeSeeded, Seed: "\xff", Seats: make([]game.Seat, 2)},                // not UTF-8
		{Mode: rng.ModeCrypto, Seed: "s", Seats: make([]game.Seat, 2)},                   // a seed in crypto mode
		{Mode: rng.ModeFair, Seats: make([]game.Seat, 2)},                                // no game seed
		{Mode: rng.ModeFair, Seed: strings.Repeat("A", 64), Seats: make([]game.Seat, 2)}, // upper-case
		{Mode: rng.ModeFair, Seed: "ab", Seats: make([]game.Seat, 2)},                    // short
		{Mode: rng.ModeTrustless, Seats: make([]game.Seat, 2)},                           // not yet
		{Mode: rng.ModeSeeded, Seed: "s", Seats: make([]game.Seat, 3)},                   // Setup's own
		{Mode: rng.ModeSeeded, Seed: "s", Seats: make([]game.Seat, 2), Rules: otherRules{}},
	} {
		_, err := match.New(peek{}, cfg)
		require.Error(t, err, "%+v", cfg)
	}
}

type otherRules struct{ peekRules }

func (otherRules) Game() string { return "other" }

// A seeded match replays from its seed, a crypto one from its draws (the
// deal is a shuffle: its swaps are recorded); the audit sees the deck's
// own shuffle.
func TestReplay(t *testing.T) {
	var entries []rng.Entry
	cfg := match.Config{Mode: rng.ModeSeeded, Seed: "replay", Seats: make([]game.Seat, 2),
		Auditor: rng.AuditorFunc(func(e rng.Entry) { entries = append(entries, e) })}
	m, err := match.New(peek{}, cfg)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Equal(t, rng.Tag("peek.deal"), entries[0].Tag)
	require.Equal(t, rng.KindShuffle, entries[0].Kind)
	require.Len(t, m.Draws(), 4) // one swap index per i from 4 down to 1
	play(t, m)
	cfg.Auditor = nil
	r, err := match.Replay(peek{}, cfg, m.Moves(), nil)
	require.NoError(t, err)
	require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
	require.Equal(t, string(m.LogJSON()), string(r.LogJSON()))

	for range 20 {
		c := match.Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, 2)}
		m, err := match.New(peek{}, c)
		require.NoError(t, err)
		play(t, m)
		r, err := match.Replay(peek{}, c, m.Moves(), m.Draws())
		require.NoError(t, err)
		require.Equal(t, match.StateBytes(m.State()), match.StateBytes(r.State()))
		require.Equal(t, string(m.LogJSON()), string(r.LogJSON()))
		_, err = match.Replay(peek{}, c, m.Moves(), append(m.Draws(), 0))
		require.ErrorContains(t, err, "1 of 5 draws left unused")
	}
	_, err = match.Replay(peek{}, cfg, []game.Move{guess(1, 1)}, nil)
	require.ErrorContains(t, err, "move 1 (guess by seat 1)")
	require.ErrorIs(t, err, game.CodeNotYourTurn)
}

func play(t *testing.T, m *match.Match) {
	t.Helper()
	for !m.Over() {
		seat := m.State().ToMove()
		_, err := m.Apply(m.State().Legal(seat, nil)[0])
		require.NoError(t, err)
	}
}

func TestLogJSON(t *testing.T) {
	m := newPeek(t, "log")
	_, err := m.Apply(m.State().Legal(0, nil)[0])
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(m.LogJSON())), "\n")
	require.Len(t, lines, 3)
	require.Regexp(t, `^\{"seq":1,"type":"Dealt","to":0,"card":[1-5]\}$`, lines[0])
	require.Regexp(t, `^\{"seq":3,"type":"Guessed","seat":0,"card":[1-5],"own":0\}$`, lines[2])
}

// The simulation's results and players.csv do not depend on the workers.
func TestSimulateWorkers(t *testing.T) {
	var outs []string
	var results []*match.SimResult
	for _, w := range []int{1, 2, 5} {
		var b bytes.Buffer
		res, err := match.Simulate(context.Background(), match.SimConfig{Def: peek{}, Games: 3000, Seed: "w", Seats: 2,
			Bots: []string{"random"}, Workers: w, Players: &b})
		require.NoError(t, err)
		outs = append(outs, b.String())
		results = append(results, res)
	}
	require.Equal(t, outs[0], outs[1])
	require.Equal(t, outs[0], outs[2])
	require.Equal(t, results[0], results[2])
	lines := strings.Split(outs[0], "\n")
	require.Equal(t, match.PlayersHeader, lines[0])
	require.Regexp(t, `^0,w#0,0,p1,random,1,[01],[01]$`, lines[1])
	require.Regexp(t, `^0,w#0,1,p2,random,2,[01],[01]$`, lines[2])
	require.Len(t, lines, 1+2*3000+1)
	require.EqualValues(t, 3000, results[0].Games)
	// Each random guess is right one time in four.
	for p := range 2 {
		lo, hi := match.Wilson(results[0].Wins[p], results[0].Games)
		require.Less(t, lo, 0.25)
		require.Greater(t, hi, 0.25)
	}
	var sum bytes.Buffer
	results[0].WriteSummary(&sum)
	require.Contains(t, sum.String(), "win rate by position (1 = first to act; fair share 50.0%")
	require.Contains(t, sum.String(), "position 2")
}

func TestSimulateRefusals(t *testing.T) {
	ok := match.SimConfig{Def: peek{}, Games: 1, Seed: "s", Seats: 2, Bots: []string{"random"}, Workers: 1}
	for _, f := range []func(c *match.SimConfig){
		func(c *match.SimConfig) { c.Games = 0 },
		func(c *match.SimConfig) { c.Seed = "" },
		func(c *match.SimConfig) { c.Seats = 3 },
		func(c *match.SimConfig) { c.Bots = []string{"clever"} },
		func(c *match.SimConfig) { c.Workers = 0 },
	} {
		c := ok
		f(&c)
		_, err := match.Simulate(context.Background(), c)
		require.Error(t, err)
	}
	_, err := match.Simulate(context.Background(), ok)
	require.NoError(t, err)
}

func TestBots(t *testing.T) {
	require.Equal(t, []string{"random", "mcts:N"}, match.BotNames(peek{}))
	_, err := match.NewBot(peek{}, "hold:20", nil)
	require.ErrorContains(t, err, `unknown bot "hold:20" for peek (known: random, mcts:N)`)
	_, err = match.NewBot(peek{}, "random", nil)
	require.Error(t, err)
	s, _ := rng.NewSeeded("bots")
	b, err := match.NewBot(peek{}, "random", s)
	require.NoError(t, err)
	require.Equal(t, "random", b.Name())
	legal := []game.Move{guess(0, 1), guess(0, 2), guess(0, 3)}
	var n [3]int
	for range 3000 {
		n[b.Choose(nil, 0, legal).Args[0]-1]++
	}
	for _, k := range n {
		require.InDelta(t, 1000, k, 100) // 1000 +- 5 sd
	}
	require.Equal(t, rng.Tag("bot.random.pick"), match.TagBotRandom)
}

func TestWilson(t *testing.T) {
	lo, hi := match.Wilson(50, 100)
	require.InDelta(t, 0.40383, lo, 1e-5)
	require.InDelta(t, 0.59617, hi, 1e-5)
	lo, hi = match.Wilson(0, 0)
	require.Equal(t, [2]float64{0, 1}, [2]float64{lo, hi})
}

// A run stopped early keeps the games played, in order, and says so.
func TestSimulateInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := match.Simulate(ctx, match.SimConfig{Def: peek{}, Games: 5000, Seed: "stop", Seats: 2, Bots: []string{"random"}, Workers: 2})
	require.NoError(t, err)
	require.EqualValues(t, 0, res.Games)
	require.EqualValues(t, 5000, res.Requested)
	var b bytes.Buffer
	res.WriteSummary(&b)
	require.Contains(t, b.String(), "partial: interrupted after 0 of 5000 games")
}
