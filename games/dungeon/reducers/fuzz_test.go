package reducers_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

// reach plays a seeded bot game for k actions after start and returns the
// game and its stream.
func reach(t testing.TB, seed string, k int) (*engine.Game, *rng.Stream) {
	eng := newEngine()
	r := bot.NewRunner(eng)
	r.MaxActions = k
	g := &engine.Game{}
	s, err := rng.NewSeeded(seed)
	if err != nil {
		t.Skip("seed is not UTF-8")
	}
	seats := mix(len(seed))
	_ = r.PlayGame(g, s, seed, seats) // stops at k actions (or at the end)
	return g, s
}

var kinds = append(engine.ActionKinds, "bogus")

// decodeAction builds an arbitrary action from fuzz bytes.
func decodeAction(g *engine.Game, b []byte) engine.Action {
	at := func(i int) int {
		if i < len(b) {
			return int(b[i])
		}
		return 0
	}
	uids := []string{"", "p1", "p2", "p3", "p4", "p5", "p6", "zz"}
	a := engine.Action{Kind: kinds[at(0)%len(kinds)], Actor: uids[at(1)%len(uids)], Target: uids[at(2)%len(uids)],
		Seat: at(3)%9 - 1, Class: engine.Class([]string{"warrior", "monk", "duelist", "scout", "mage"}[at(4)%5])}
	if at(1)&0x80 != 0 {
		a.Actor = g.Public.Awaiting
	}
	cards := rules.Cards()
	a.CardID = cards[at(5)%len(cards)].ID
	if at(5)&0x80 != 0 {
		if pl, _ := g.Public.Player(a.Actor); pl != nil && len(pl.Items) > 0 {
			a.CardID = pl.Items[at(6)%len(pl.Items)]
		}
	}
	if at(7)%4 == 1 {
		a.Version = g.Public.Version + uint64(at(8)%3)
	}
	if at(7)%4 == 2 {
		a.ID = g.Public.LastActionID
	}
	a.Mode = []string{"", "seeded", "crypto", "x"}[at(9)%4]
	a.Seed = []string{"", "s"}[at(10)%2]
	return a
}

func FuzzDispatch(f *testing.F) {
	for i := range 8 {
		f.Add(fmt.Sprint("fz", i), uint16(i*7), []byte{byte(i), 0x80, 2, 3, 4, 0x85, 0, 0})
	}
	f.Fuzz(func(t *testing.T, seed string, k uint16, data []byte) {
		g, s := reach(t, seed, 3+int(k)%400)
		eng := newEngine()
		for len(data) > 0 {
			a := decodeAction(g, data)
			data = data[min(len(data), 11):]
			before, _ := g.CanonicalJSON()
			seqBefore := s.Seq()
			ev, err := eng.Dispatch(g, &a, s, nil)
			if err != nil {
				var e *engine.Error
				if !errors.As(err, &e) {
					t.Fatalf("%+v: error %v is not an *engine.Error", a, err)
				}
				after, _ := g.CanonicalJSON()
				if !bytes.Equal(before, after) || len(ev) != 0 || s.Seq() != seqBefore {
					t.Fatalf("%+v rejected (%v) but changed the game", a, err)
				}
				continue
			}
			if g.Public.Phase == engine.PhaseFinished {
				return
			}
		}
	})
}

// TestRejectionsLeaveStateUnchanged runs the fuzz body over many seeds and
// every action kind from many reachable states.
func TestRejectionsLeaveStateUnchanged(t *testing.T) {
	eng := newEngine()
	rejected := map[engine.Code]int{}
	for i := range 60 {
		g, s := reach(t, fmt.Sprint("rej-", i), 5+i*7)
		for j := range 40 {
			data := []byte{byte(j), byte(j * 37), byte(i), byte(j), byte(i + j), byte(j * 13), byte(i), byte(j % 5), byte(i), byte(j), byte(i)}
			a := decodeAction(g, data)
			before, _ := g.CanonicalJSON()
			_, err := eng.Dispatch(g, &a, s, nil)
			if err == nil {
				continue
			}
			var e *engine.Error
			if !errors.As(err, &e) {
				t.Fatalf("%v is not an *engine.Error", err)
			}
			rejected[e.Code]++
			if after, _ := g.CanonicalJSON(); !bytes.Equal(before, after) {
				t.Fatalf("%+v rejected (%v) but changed the game", a, err)
			}
		}
	}
	for _, c := range []engine.Code{engine.CodeNotYourTurn, engine.CodeWrongStep, engine.CodeUnknownPlayer,
		engine.CodeAlreadyStarted, engine.CodeStaleVersion, engine.CodeInvalidAction, engine.CodeAlreadyCreated} {
		if rejected[c] == 0 {
			t.Errorf("no action was rejected with %s (%v)", c, rejected)
		}
	}
}
