package table_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/kuhn/kuhndraw"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/table/trustseat"
)

// dealLobby creates the trustless Kuhn table g, joins two trustseat
// seats and starts it.
func dealLobby(t *testing.T, m *table.Memory, g string) []*trustseat.Seat {
	t.Helper()
	return dealLobbyOf(t, m, kuhn.Def, g)
}

// dealLobbyOf is dealLobby for def (Kuhn or Leduc).
func dealLobbyOf(t *testing.T, m *table.Memory, def game.Definition, g string) []*trustseat.Seat {
	t.Helper()
	_, err := m.Create(g, def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeTrustless, Seats: 2})
	require.NoError(t, err)
	v, err := m.View(g, "")
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(def, g, uid(i), i, v.Trustless.ChainLength)
		require.NoError(t, err)
		_, err = m.Do(g, seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = m.Do(g, table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	return seats
}

// kuhnSettle is Kuhn's settlement written again (OpenSpiel's rules):
// antes of 1, a 'b' adds a chip for the seat acting, "bp" and "pbp" are
// folds, every other end a showdown of the higher card; the winner wins
// what the loser put in.
func kuhnSettle(c0, c1 int, hist string) []float64 {
	in := [2]float64{1, 1}
	for i, ch := range hist {
		if ch == 'b' {
			in[i%2]++
		}
	}
	w := 1
	if hist == "bp" || hist != "pbp" && c0 > c1 {
		w = 0
	}
	out := make([]float64, 2)
	out[w], out[1-w] = in[1-w], -in[1-w]
	return out
}

// Whole trustless Kuhn games at a table.Memory with trustseat bot
// clients: the seats shuffle and deal by mental poker (passes, deal keys,
// staged showdown keys, end-of-hand reveals, all through table.Do), each
// opens its own card on its device, the outcome is Kuhn's settlement
// written again here over those cards and the betting, and the record
// (its trustless section carrying the deal) passes match.CheckRecord,
// through its JSON. While the game is played, no view of the table (the
// public one, either seat's) and no saved form of it holds a seat's
// card before the showdown: every card is game.Hidden in the state.
func TestTrustlessKuhnTable(t *testing.T) {
	for g := range 12 {
		m := table.NewMemory()
		id := fmt.Sprintf("tl-kuhn-%d", g)
		seats := dealLobby(t, m, id)
		r := randomPicker(t, fmt.Sprint("tl-kuhn-", g))
		hist := ""
		stop := func(v *table.View) bool {
			if v.Phase == table.PhasePlaying {
				require.NoError(t, noCard(m, id))
			}
			return false
		}
		v, err := trustseat.Play(memSrv{m, id}, seats, func(v *table.View) game.Move {
			mv := r(v.Legal)
			hist += map[string]string{kuhn.KindPass: "p", kuhn.KindBet: "b"}[mv.Kind]
			return mv
		}, stop, 60)
		require.NoError(t, err, "game %d", g)
		require.Equal(t, table.PhaseFinished, v.Phase)
		c0, c1 := seats[0].Cards()[0], seats[1].Cards()[1]
		require.NotEqual(t, c0, c1)
		require.Equal(t, kuhnSettle(c0, c1, hist), v.Outcome.Payoffs, "cards %d %d, %s", c0, c1, hist)
		rec, err := m.Record(id, uid(0))
		require.NoError(t, err)
		require.NotNil(t, rec.Trustless.Deal)
		b, err := json.Marshal(rec)
		require.NoError(t, err)
		back, err := match.ReadRecord(b)
		require.NoError(t, err)
		div, err := match.CheckRecord(kuhn.Def, back)
		require.NoError(t, err)
		require.NoError(t, div)
	}
}

// noCard checks that no view of the table holds a seat's card while it
// is hidden: the state's private parts say "card":-1 until a showdown
// shows both, and no Dealt event is in any log.
func noCard(m *table.Memory, id string) error {
	for _, who := range []string{"", uid(0), uid(1)} {
		v, err := m.View(id, who)
		if err != nil {
			return err
		}
		if strings.Contains(string(v.State), `"shown"`) {
			continue
		}
		if who != "" && !strings.Contains(string(v.State), `"private":{"card":-1}`) {
			return fmt.Errorf("seat %s's view holds its card: %s", who, v.State)
		}
		for _, e := range v.Log {
			if e.Type == kuhn.EventDealt {
				return fmt.Errorf("%q's log holds a Dealt event", who)
			}
		}
	}
	return nil
}

// The positive control of noCard: a crypto-mode Kuhn table, whose server
// deals and shows each seat its card, fails it.
func TestNoCardCatchesADealtCard(t *testing.T) {
	m := table.NewMemory()
	_, err := m.Create("ck", kuhn.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeCrypto, Seats: 2})
	require.NoError(t, err)
	for i := range 2 {
		_, err = m.Do("ck", table.Action{Actor: uid(i), ActionID: "join", Version: uint64(1 + i), Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
	}
	_, err = m.Do("ck", table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	require.ErrorContains(t, noCard(m, "ck"), "holds its card")
}

// Whole trustless Leduc games at a table.Memory with trustseat bots:
// each settles as Leduc's rules (leduc.At) settle the cards the seats
// opened on their devices with the public card and the betting, and the
// record passes CheckRecord through its JSON.
func TestTrustlessLeducTable(t *testing.T) {
	for g := range 8 {
		m := table.NewMemory()
		id := fmt.Sprintf("tl-leduc-%d", g)
		seats := dealLobbyOf(t, m, leduc.Def, id)
		r := randomPicker(t, fmt.Sprint("tl-leduc-", g))
		v, err := trustseat.Play(memSrv{m, id}, seats, func(v *table.View) game.Move { return r(v.Legal) }, nil, 80)
		require.NoError(t, err, "game %d", g)
		require.Equal(t, table.PhaseFinished, v.Phase)
		require.False(t, v.Outcome.Abandoned)
		rec, err := m.Record(id, uid(0))
		require.NoError(t, err)
		b, err := json.Marshal(rec)
		require.NoError(t, err)
		back, err := match.ReadRecord(b)
		require.NoError(t, err)
		div, err := match.CheckRecord(leduc.Def, back)
		require.NoError(t, err)
		require.NoError(t, div)
		c0, c1 := seats[0].Cards()[0], seats[1].Cards()[1]
		public := leduc.NoCard
		for _, o := range rec.Trustless.Deal.Opened {
			if o.Position == 2 {
				public = o.Card
			}
		}
		seq, round := [2]string{}, 0
		for _, mv := range rec.Trustless.Deal.Moves {
			seq[round] += map[string]string{leduc.KindFold: "f", leduc.KindCall: "c", leduc.KindRaise: "r"}[mv.Kind]
			if round == 0 && roundOver(seq[0]) {
				round = 1
			}
		}
		want, err := leduc.At(c0, c1, public, seq[0], seq[1])
		require.NoError(t, err, "cards %d %d public %d, %q %q", c0, c1, public, seq[0], seq[1])
		require.Equal(t, want.Outcome().Payoffs, v.Outcome.Payoffs)
	}
}

// roundOver reports whether a first round's betting has ended in a call:
// "cc", or a raise answered by a call.
func roundOver(seq string) bool {
	return seq == "cc" || len(seq) >= 2 && seq[len(seq)-1] == 'c' && seq[len(seq)-2] == 'r'
}

// randomPicker picks uniformly among legal moves with a seeded stream
// (match's random bot).
func randomPicker(t *testing.T, seed string) func([]game.Move) game.Move {
	s, err := rng.NewSeeded(seed)
	require.NoError(t, err)
	bot := match.NewRandom(s)
	return func(legal []game.Move) game.Move { return bot.Choose(nil, 0, legal) }
}

// A card drawn to a seat after the setup, at a table (kuhndraw: seat 0
// draws the undealt card at its first turn): the table waits for the
// other seat's key as it does after the deal, the drawer's client opens
// the card, the other's does not, the hand plays on to a record that
// verifies, and the end's recomputation opens the card the drawer saw.
func TestPrivateDrawAtATable(t *testing.T) {
	m := table.NewMemory()
	seats := dealLobbyOf(t, m, kuhndraw.Def, "tl-draw")
	waited := false
	stop := func(v *table.View) bool {
		if v.Phase == table.PhasePlaying && len(v.Trustless.Moves) == 1 && v.Trustless.Deal.Phase == trustdeal.PhaseDeal {
			waited = true
		}
		return false
	}
	v, err := trustseat.Play(memSrv{m, "tl-draw"}, seats, func(v *table.View) game.Move {
		for _, mv := range v.Legal {
			if mv.Kind == kuhndraw.KindDraw {
				return mv
			}
		}
		return v.Legal[0]
	}, stop, 60)
	require.NoError(t, err)
	require.True(t, waited, "after the draw the table waited for the other seat's key")
	require.Equal(t, table.PhaseFinished, v.Phase)
	drawn, ok := seats[0].Cards()[2]
	require.True(t, ok, "the drawer opened its card")
	_, ok = seats[1].Cards()[2]
	require.False(t, ok, "the other seat did not")
	rec, err := m.Record("tl-draw", uid(1))
	require.NoError(t, err)
	div, err := match.CheckRecord(kuhndraw.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	cards, err := match.VerifyDeal(kuhndraw.Def, nil, rec.Trustless.Deal)
	require.NoError(t, err)
	require.Equal(t, drawn, cards[2])
}
