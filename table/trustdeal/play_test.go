package trustdeal_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// Whole 2-player trustless Kuhn hands of bot clients: every hand ends
// settled by the rules, the two seats' cards (each opened on its own
// device) are two distinct cards of J, Q, K, the payoffs are those of
// Kuhn's rules written again here over those cards and the betting, the
// record verifies, and its recomputation gives the same cards at the
// seats' positions. Over 60 hands each of the six deals comes up.
func TestTrustlessKuhnHands(t *testing.T) {
	deals := map[[2]int]int{}
	for h := range uint64(60) {
		x := newHand(t, h)
		v, err := trustdeal.Play(x.srv, x.seats, randomChooser(h), 40)
		require.NoError(t, err, "hand %d", h)
		require.Nil(t, v.Forfeit)
		c0, c1 := x.seats[0].Cards()[0], x.seats[1].Cards()[1]
		require.Len(t, x.seats[0].Cards(), 1)
		require.Len(t, x.seats[1].Cards(), 1)
		require.True(t, c0 != c1 && c0 >= kuhn.Jack && c0 <= kuhn.King && c1 >= kuhn.Jack && c1 <= kuhn.King, "cards %d %d", c0, c1)
		deals[[2]int{c0, c1}]++
		require.Equal(t, kuhnPayoffs(c0, c1, history(v.Moves)), v.Payoffs, "hand %d: cards %d %d, %s", h, c0, c1, history(v.Moves))
		cards, err := match.VerifyDeal(kuhn.Def, nil, copyRecord(t, x.srv.Record()))
		require.NoError(t, err)
		require.Equal(t, []int{c0, c1}, cards[:2])
	}
	require.Len(t, deals, 6, "deals seen: %v", deals)
}

// tap is a Hand that checks, after every action, that nothing the server
// has received (every key of every action, accepted or not) with the
// passes opens a card before the game opens it to all (a move that shows
// it is pending, or has been applied), and that the
// server's game state holds no card: its private parts and its secret
// are Hidden until a showdown shows the seats' cards.
type tap struct {
	x       *hand
	seen    []*mentalpoker.KeyMessage
	leak    error
	restore error
}

func (p *tap) View() *trustdeal.View { return p.x.srv.View() }

func (p *tap) Do(a trustdeal.Action) error {
	p.seen = append(p.seen, a.Keys...)
	err := p.x.srv.Do(a)
	if p.leak == nil {
		p.leak = p.check()
	}
	if p.restore == nil {
		p.restore = p.restored()
	}
	return err
}

// restored checks that the hand made again from its log is the same:
// its view, every key it holds (staged included) and its record.
func (p *tap) restored() error {
	r, err := trustdeal.Restore(p.x.cfg, p.x.srv.Log())
	if err != nil {
		return err
	}
	for _, pair := range [][2]any{{r.View(), p.x.srv.View()}, {r.Held(), p.x.srv.Held()}, {r.Record(), p.x.srv.Record()}} {
		a, _ := json.Marshal(pair[0])
		b, _ := json.Marshal(pair[1])
		if string(a) != string(b) {
			return fmt.Errorf("restored %s, saved %s", a, b)
		}
	}
	return nil
}

func (p *tap) check() error {
	v := p.x.srv.View()
	if v.Phase == trustdeal.PhaseReveal || v.Phase == trustdeal.PhaseDone {
		return nil // the end of the hand opens every card, by design
	}
	tb, _ := p.x.seats[0].Protocol()
	shadow, err := mentalpoker.NewTable(p.x.cfg.GameID, p.x.cfg.Hand, tb.Cards(), p.x.cfg.Keys)
	if err != nil {
		return err
	}
	for _, m := range v.Passes {
		if err := shadow.Accept(m); err != nil {
			return err
		}
	}
	if shadow.Dealt() {
		for _, k := range append(slices.Clone(p.seen), p.x.srv.Held()...) {
			_ = shadow.AcceptKey(k) // a key the server refused it still saw
		}
	}
	opened := map[int]bool{} // shown, or asked for by the pending move
	for _, o := range v.Opened {
		opened[o.Position] = true
	}
	for _, pos := range v.Open {
		opened[pos] = true
	}
	for pos := range tb.Cards() {
		if c, err := shadow.OpenPublic(pos); err == nil && !opened[pos] {
			return fmt.Errorf("the server can open position %d (card %d) before the game shows it", pos, c)
		}
	}
	priv, secret := p.x.srv.ServerState()
	hidden, hiddenSecret := fmt.Sprintf(`{"card":%d}`, game.Hidden), fmt.Sprintf(`{"undealt":%d}`, game.Hidden)
	if p.x.cfg.Def.Name() == "leduc" {
		hidden, hiddenSecret = `{"card":null}`, secret // Leduc's secret is the deck's remainder, no card's place
	}
	for s, b := range priv {
		if b != hidden && !opened[s] {
			return fmt.Errorf("the server's state holds seat %d's card: %s", s, b)
		}
	}
	if secret != hiddenSecret {
		return fmt.Errorf("the server's state holds the undealt card: %s", secret)
	}
	return nil
}

// The server never holds a card before the game opens it, in whole hands
// that reach a showdown and hands that end in a fold (and a hand restored
// from its log after any action is the same hand); the positive
// control, a client that leaks its own key with its deal keys (which the
// server refuses, but has received), is caught by the same check.
func TestServerNeverHoldsACard(t *testing.T) {
	for h := range uint64(12) {
		x := newHand(t, 100+h)
		p := &tap{x: x}
		choose := randomChooser(h)
		if h%2 == 0 {
			choose = betAll
		}
		_, err := trustdeal.Play(p, x.seats, choose, 40)
		require.NoError(t, err)
		require.NoError(t, p.leak, "hand %d", h)
		require.NoError(t, p.restore, "hand %d", h)
	}
	x := newHand(t, 200)
	x.seats[1].Leak = true
	p := &tap{x: x}
	_, err := trustdeal.Play(p, x.seats, betAll, 40)
	require.ErrorIs(t, err, trustdeal.ErrNotDue, "the server refuses the leaked key")
	require.ErrorContains(t, p.leak, "before the game shows it", "the leak check catches the leaked key")
}

// A client checks what the server asks of it: keys of positions its own
// replay of the pending move does not open are refused, and so is a key
// of its own card at the deal on the server's side.
func TestSeatRefusesAWrongOpening(t *testing.T) {
	x := newHand(t, 300)
	for x.srv.Phase() != trustdeal.PhasePlay {
		require.True(t, x.step(t, 1, -1))
	}
	require.True(t, x.step(t, 1, -1)) // seat 0 bets
	require.True(t, x.step(t, 1, -1)) // seat 1 calls: the showdown waits
	v := x.srv.View()
	require.Equal(t, trustdeal.PhaseOpen, v.Phase)
	require.Equal(t, []int{0, 1}, v.Open)
	v.Open = []int{0, 2} // a server after the undealt card
	require.NoError(t, x.seats[1].Sync(v))
	_, err := x.seats[1].Act(v, betAll)
	require.ErrorContains(t, err, "my replay of the pending move opens [0 1]")
}

// A client reveals its keys only at the end of the hand: a server that
// asks mid-hand (a view in PhaseReveal while its replay awaits a move) is
// refused.
func TestSeatRefusesAnEarlyReveal(t *testing.T) {
	x := newHand(t, 302)
	for x.srv.Phase() != trustdeal.PhasePlay {
		require.True(t, x.step(t, 1, -1))
	}
	v := x.srv.View()
	v.Phase = trustdeal.PhaseReveal
	require.NoError(t, x.seats[1].Sync(v))
	_, err := x.seats[1].Act(v, betAll)
	require.ErrorContains(t, err, "not over")
}

// The protocol's refusals while keys are due name their seat.
func TestKeysAreChecked(t *testing.T) {
	x := newHand(t, 301)
	for x.srv.Phase() != trustdeal.PhaseDeal {
		require.True(t, x.step(t, 1, -1))
	}
	require.NoError(t, x.seats[0].Sync(x.srv.View()))
	tb, ms := x.seats[0].Protocol()
	k, err := ms.Key(tb, 1) // seat 0's key of seat 1's card
	require.NoError(t, err)
	k.Key[0] ^= 1
	err = x.srv.Do(trustdeal.Action{Seat: 0, At: 1, Keys: []*mentalpoker.KeyMessage{k}})
	require.Equal(t, 0, culprit(t, err, mentalpoker.ErrSignature))
	require.Equal(t, trustdeal.PhaseDeal, x.srv.Phase())
	k, _ = ms.Key(tb, 0) // its own card
	require.ErrorIs(t, x.srv.Do(trustdeal.Action{Seat: 0, At: 1, Keys: []*mentalpoker.KeyMessage{k}}), trustdeal.ErrNotDue)
	require.ErrorIs(t, x.srv.Do(trustdeal.Action{Seat: 0, At: 1, Move: &game.Move{Seat: 0, Kind: kuhn.KindBet}}), trustdeal.ErrPhase)
}
