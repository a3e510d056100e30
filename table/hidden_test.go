package table_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

var readers = []string{uid(0), uid(1), uid(2), uid(3), "u9", ""}

// leakIn returns a description of the first card of another seat than
// seat (ever held, from held) found in text, or "".
func leakIn(text string, seat int, held []map[string]bool) string {
	for s, cards := range held {
		if s == seat {
			continue
		}
		for c := range cards {
			if strings.Contains(text, c) {
				return fmt.Sprintf("seat %d's card %s", s, c)
			}
		}
	}
	return ""
}

// hiddenLeak plays many random games of h through a table, with actions
// from random uids (legal moves, illegal ones, stale ones, lobby
// actions), and after each checks every reader's view, and the actor's
// result or error, for a card that another seat holds or held. It
// returns the first leak found, or "", and the moves applied.
func hiddenLeak(t *testing.T, h hide, games int) (string, int) {
	r, err := rng.NewSeeded(fmt.Sprintf("hidden %+v", h))
	require.NoError(t, err)
	pick := func(n int) int {
		v, err := r.UniformInt(0, int64(n-1), "test.pick", nil)
		require.NoError(t, err)
		return int(v)
	}
	applied := 0
	moves := []string{`{"kind":"keep"}`, `{"kind":"swap"}`, `{"kind":"fly"}`, `{"kind":"swap","n":1}`}
	for g := range games {
		s := table.NewMemory()
		id := fmt.Sprintf("h%d", g)
		mode, seed := rng.ModeSeeded, fmt.Sprintf("hide-%d", g)
		if g%2 == 1 {
			mode, seed = rng.ModeCrypto, ""
		}
		_, err := s.Create(id, h, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: mode, Seed: seed, Seats: 2 + g%3})
		require.NoError(t, err)
		var held []map[string]bool
		for i := 0; i < 400; i++ {
			pub, err := s.View(id, "")
			require.NoError(t, err)
			if pub.Phase == table.PhaseFinished {
				break
			}
			a := table.Action{Actor: readers[pick(5)], ActionID: fmt.Sprintf("a%d", i), Version: pub.Version}
			if pick(8) == 0 {
				a.Version--
			}
			switch {
			case pub.Phase == table.PhaseLobby && pick(6) == 0:
				a.Kind = table.KindLeave
			case pub.Phase == table.PhaseLobby && pick(4) == 0:
				a.Actor, a.Kind = uid(0), table.KindStart
			case pub.Phase == table.PhaseLobby:
				a.Kind, a.Seat = table.KindJoin, pick(len(pub.Seats))
			case pick(40) == 0:
				a.Actor, a.Kind = uid(0), table.KindAbandon
			default:
				a.Kind, a.Move = table.KindMove, []byte(moves[pick(len(moves))])
				if pick(2) == 0 {
					a.Actor = pub.Seats[pub.ToMove].UID
				}
			}
			res, err := s.Do(id, a)
			if err == nil && a.Kind == table.KindMove {
				applied++
			}
			if retry := pick(5) == 0; retry && err == nil {
				res, err = s.Do(id, a)
			}
			st, serr := s.StateBytes(id)
			require.NoError(t, serr)
			if st != nil {
				if held == nil {
					held = make([]map[string]bool, len(pub.Seats))
					for k := range held {
						held[k] = map[string]bool{}
					}
				}
				for k, c := range cardsOf(st) {
					held[k][c] = true
				}
			}
			actorView, verr := s.View(id, a.Actor)
			require.NoError(t, verr)
			if leak := leakIn(fmt.Sprintf("%+v %v", res, err), actorView.Seat, held); leak != "" {
				return fmt.Sprintf("game %d, action %d: the %s of %s holds %s", g, i, a.Kind, a.Actor, leak), applied
			}
			for _, u := range readers {
				v, err := s.View(id, u)
				require.NoError(t, err)
				for _, e := range v.Log {
					require.True(t, e.To == -1 || e.To == v.Seat && v.Seat != table.NoSeat, "%q reads an event addressed to seat %d", u, e.To)
				}
				o, state := v.Outcome, v.State
				v.Outcome, v.State = nil, nil // printed as text, not as numbers
				if leak := leakIn(fmt.Sprintf("%+v %+v %s", *v, o, state), v.Seat, held); leak != "" {
					return fmt.Sprintf("game %d, action %d: the view of %q holds %s", g, i, u, leak), applied
				}
			}
		}
	}
	return "", applied
}

// No reader ever reads another seat's card, in views, results or errors;
// each broken variant of the game is caught by the same check.
func TestHiddenInformation(t *testing.T) {
	leak, applied := hiddenLeak(t, hide{}, 200)
	require.Empty(t, leak)
	require.Greater(t, applied, 1000, "the games were played")
	leak, _ = hiddenLeak(t, hide{leakView: true}, 200)
	require.Contains(t, leak, "the view of")
	leak, _ = hiddenLeak(t, hide{leakEvent: true}, 200)
	require.NotEmpty(t, leak)
	t.Logf("%d moves applied; the event leak: %s", applied, leak)
}
