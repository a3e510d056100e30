package table_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

func uid(i int) string { return fmt.Sprintf("u%d", i) }

// lobby makes the table g in s with n seats, joined by uids u0..u(n-1)
// (seat i by uid i, with opts[i] if given), and started by the owner u0.
func lobby(t *testing.T, s *table.Memory, def game.Definition, g string, mode rng.Mode, seed string, n int, opts []map[string]string) {
	t.Helper()
	_, err := s.Create(g, def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: mode, Seed: seed, Seats: n})
	require.NoError(t, err)
	v := uint64(1)
	for i := range n {
		a := table.Action{Actor: uid(i), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: i}
		if opts != nil {
			a.Options = opts[i]
		}
		res, err := s.Do(g, a)
		require.NoError(t, err)
		v = res.Version
	}
	_, err = s.Do(g, table.Action{Actor: uid(0), ActionID: "start", Version: v, Kind: table.KindStart})
	require.NoError(t, err)
}

// playOut plays the table g to its end: the uid of the seat awaited
// picks uniformly among its view's legal moves (match's random bot on
// bots) and sends it as JSON. It returns the moves, as the table's
// readers saw them.
func playOut(t *testing.T, s *table.Memory, def game.Definition, g string, bots *rng.Stream, max int) []game.Move {
	t.Helper()
	bot := match.NewRandom(bots)
	var moves []game.Move
	for range max {
		pub, err := s.View(g, "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			return moves
		}
		who := pub.Seats[pub.ToMove].UID
		v, err := s.View(g, who)
		require.NoError(t, err)
		require.NotEmpty(t, v.Legal)
		mv := bot.Choose(nil, v.Seat, v.Legal)
		res, err := s.Do(g, table.Action{Actor: who, ActionID: fmt.Sprintf("m%d", len(moves)), Version: v.Version,
			Kind: table.KindMove, Move: game.AppendMoveJSON(nil, def.Kinds(), mv)})
		require.NoError(t, err)
		require.Equal(t, v.Version+1, res.Version)
		moves = append(moves, mv)
	}
	t.Fatalf("no end in %d moves", max)
	return nil
}

// The reference is match: the same moves through match.New and Apply on
// the same seed give the same final state bytes and the same game log.
func checkAgainstMatch(t *testing.T, def game.Definition, n int, opts []map[string]string, seats []game.Seat) {
	s := table.NewMemory()
	for k := range 3 {
		g := fmt.Sprintf("g%d", k)
		seed := fmt.Sprintf("table-%s-%d", def.Name(), k)
		lobby(t, s, def, g, rng.ModeSeeded, seed, n, opts)
		bots, err := rng.NewSeeded(seed + "/bots")
		require.NoError(t, err)
		moves := playOut(t, s, def, g, bots, 5000)

		m, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: seats})
		require.NoError(t, err)
		for _, mv := range moves {
			_, err := m.Apply(mv)
			require.NoError(t, err)
		}
		require.True(t, m.Over())
		st, err := s.StateBytes(g)
		require.NoError(t, err)
		require.Equal(t, match.StateBytes(m.State()), st, "game %d", k)

		pub, err := s.View(g, "")
		require.NoError(t, err)
		require.Equal(t, storetest.PublicEvents(m), storetest.GameEvents(pub.Log))
		o := m.State().Outcome()
		require.Equal(t, &table.Outcome{Winners: o.Winners, Payoffs: o.Payoffs}, pub.Outcome)
		require.Equal(t, uint64(1+n+1+len(moves)), pub.Version)
		require.Greater(t, len(moves), 10)

		// Control: the same moves on another seed do not give these bytes.
		other, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: seed + "x", Seats: seats})
		require.NoError(t, err)
		var refused error
		for _, mv := range moves {
			if _, refused = other.Apply(mv); refused != nil {
				break
			}
		}
		require.True(t, refused != nil || string(match.StateBytes(other.State())) != string(st))
	}
}

func TestPigThroughTheTableIsMatchs(t *testing.T) {
	checkAgainstMatch(t, pig.Def, 2, nil, make([]game.Seat, 2))
}

func TestDungeonThroughTheTableIsMatchs(t *testing.T) {
	classes := []string{"scout", "warrior", "duelist", "monk"}
	var opts []map[string]string
	var seats []game.Seat
	for _, c := range classes {
		opts = append(opts, map[string]string{"class": c})
		seats = append(seats, game.Seat{Options: []string{c}})
	}
	checkAgainstMatch(t, dungeon.Def, 4, opts, seats)
}

// A crypto table plays to its end too (its draws are the server's: no
// reference to compare with here).
func TestCryptoTablePlays(t *testing.T) {
	s := table.NewMemory()
	lobby(t, s, pig.Def, "c", rng.ModeCrypto, "", 3, nil)
	bots, err := rng.NewSeeded("crypto/bots")
	require.NoError(t, err)
	playOut(t, s, pig.Def, "c", bots, 5000)
	pub, err := s.View("c", "")
	require.NoError(t, err)
	require.Len(t, pub.Outcome.Winners, 1)
}
