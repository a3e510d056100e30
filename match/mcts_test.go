package match_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// mcts:N is every game's bot; a bad N, or none, is refused by name.
func TestMCTSNames(t *testing.T) {
	for _, ok := range []string{"mcts:1", "mcts:200", "mcts:1000000"} {
		require.NoError(t, match.CheckBot(peek{}, ok), ok)
	}
	for _, bad := range []string{"mcts:0", "mcts:x", "mcts:1000001", "mcts", "mcts:", "mcts:-3", "mcts:+5", "mcts:07"} {
		err := match.CheckBot(peek{}, bad)
		require.ErrorContains(t, err, `bot "`+bad+`": the search bot is mcts:N, N its simulations per move, a whole number in [1, 1000000]`)
		_, err = match.NewBot(peek{}, bad, nil)
		require.Error(t, err, bad)
	}
	_, err := match.NewBot(peek{}, "mcts:5", nil)
	require.ErrorContains(t, err, "the search bot needs a stream")
	s, _ := rng.NewSeeded("names")
	b, err := match.NewBot(peek{}, "mcts:5", s)
	require.NoError(t, err)
	require.Equal(t, "mcts:5", b.Name())
	require.Equal(t, rng.Tag("bot.mcts.pick"), match.TagMCTSPlayout)
	require.Equal(t, rng.Tag("bot.mcts.expand"), match.TagMCTSExpand)
}

// peekAt is a peek state: seat 0 holds a, seat 1 holds b, and seat 0's
// guess g (0: none yet) is made.
func peekAt(a, b, g int) *peekState {
	s := &peekState{card: [2]int{a, b}}
	for c := 1; c <= 5; c++ {
		if c != a && c != b {
			s.deck = append(s.deck, c)
		}
	}
	if g != 0 {
		s.guess[0], s.turn = g, 1
	}
	return s
}

// hiddenChoices returns, for every view of the seat to move in peek (its
// own card; for seat 1, after seat 0 guessed it), whether the bot newBot makes,
// on a fixed seed, gives the same choice whatever the other seat's hidden
// card; and how often it guessed that hidden card.
func hiddenChoices(t *testing.T, newBot func(s *rng.Stream) match.Bot) (sameView bool, right, total int) {
	t.Helper()
	sameView = true
	for seat := range 2 {
		for own := 1; own <= 5; own++ {
			var want game.Move
			var view []byte
			first := true
			for other := 1; other <= 5; other++ {
				if other == own {
					continue
				}
				// Seat 1 moves after seat 0 guessed seat 1's card (a
				// guess seat 0 may make whatever its own).
				st := peekAt(own, other, 0)
				if seat == 1 {
					st = peekAt(other, own, own)
				}
				v := st.AppendView(nil, seat)
				s, _ := rng.NewSeeded("peek-mcts")
				m := newBot(s).Choose(st, seat, st.Legal(seat, nil))
				total++
				if int(m.Args[0]) == other {
					right++
				}
				if first {
					want, view, first = m, v, false
					continue
				}
				require.Equal(t, string(view), string(v), "the test's states must look the same to the seat")
				if m != want {
					sameView = false
				}
			}
		}
	}
	return sameView, right, total
}

// The search bot never uses what its seat cannot see: in peek, the same
// view with another hidden card gives the same choice on a fixed seed. A
// bot that searches the true state is caught by the same test (it guesses
// the hidden card every time).
func TestMCTSHidesNothingItCannotSee(t *testing.T) {
	same, right, total := hiddenChoices(t, func(s *rng.Stream) match.Bot { return match.NewMCTS(200, s) })
	require.True(t, same, "the search bot's choice depends on a hidden card")
	t.Logf("honest: guessed the hidden card %d of %d times", right, total)
	same, right, total = hiddenChoices(t, func(s *rng.Stream) match.Bot { return match.NewPeekingMCTS(200, s) })
	require.False(t, same, "the positive control must be caught")
	require.Equal(t, total, right, "the peeking bot guesses the hidden card")
}

// A single legal move is returned without a search: the bot draws nothing.
func TestMCTSSingleMove(t *testing.T) {
	s, _ := rng.NewSeeded("single")
	before, err := s.State()
	require.NoError(t, err)
	st := peekAt(1, 2, 0)
	only := st.Legal(0, nil)[2:3]
	require.Equal(t, only[0], match.NewMCTS(1000, s).Choose(st, 0, only))
	after, _ := s.State()
	require.Equal(t, before, after)
}

// The same bot seed gives the same game; the search bot of each seat
// draws from its own stream, "BOTSEED/seat<j>", so a bot seed changes
// its choices and the game's dice stay the game's.
func TestMCTSPlaysDeterministically(t *testing.T) {
	play := func(botSeed string) string {
		m, names, err := match.Play(peek{}, match.PlayConfig{Config: match.Config{Mode: rng.ModeSeeded, Seed: "det", Seats: make([]game.Seat, 2)},
			Bots: []string{"mcts:50"}, BotSeed: botSeed})
		require.NoError(t, err)
		require.Equal(t, []string{"mcts:50", "mcts:50"}, names)
		return string(m.LogJSON())
	}
	require.Equal(t, play(""), play(""))
	require.Equal(t, play("det/bots"), play(""))
	differ := false
	for i := range 10 {
		differ = differ || play("other"+string(rune('0'+i))) != play("")
	}
	require.True(t, differ, "ten bot seeds all gave the same game")
}
