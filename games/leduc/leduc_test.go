package leduc_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
)

// Cards: 0 Js, 1 Jh, 2 Qs, 3 Qh, 4 Ks, 5 Kh.
const (
	js, jh, qs, qh, ks, kh = 0, 1, 2, 3, 4, 5
)

// deal sets a hand up with the deal's draws: seat 0 takes card d0 of the
// six, seat 1 card d1 of the five left, in ascending order.
func deal(t *testing.T, d0, d1 int64) (*leduc.State, []game.Event) {
	t.Helper()
	script := game.Script(d0, d1)
	st, ev, err := leduc.Def.Setup(leduc.Rules{}, make([]game.Seat, 2), script, nil)
	require.NoError(t, err)
	require.True(t, script.Done())
	require.Equal(t, []string{"leduc.deal", "leduc.deal"}, tags(script))
	return st.(*leduc.State), ev
}

func tags(s *game.Scripted) []string {
	var out []string
	for _, t := range s.Calls {
		out = append(out, string(t))
	}
	return out
}

var kindOf = map[byte]string{'c': leduc.KindCall, 'r': leduc.KindRaise, 'f': leduc.KindFold}

// play applies the moves of line in turn, the seat to move each time; a
// move that ends round 1 takes pub (the index of the public card among
// the four cards left, ascending) and only it draws.
func play(t *testing.T, st *leduc.State, line string, pub int64) []game.Event {
	t.Helper()
	var all []game.Event
	for i := range len(line) {
		if line[i] == '/' {
			continue
		}
		seat := st.ToMove()
		require.NotEqual(t, game.Nobody, seat, "move %d of %q", i, line)
		script := game.Script()
		if i+1 < len(line) && line[i+1] == '/' {
			script = game.Script(pub)
		}
		ev, err := st.Apply(game.Move{Seat: seat, Kind: kindOf[line[i]]}, script, nil)
		require.NoError(t, err, "move %d of %q", i, line)
		require.True(t, script.Done(), "move %d of %q: the public card is drawn exactly when round 1 ends", i, line)
		require.NoError(t, st.Check())
		all = append(all, ev...)
	}
	return all
}

// Whole hands, their payoffs worked by hand from OpenSpiel's rules: each
// seat antes 1; a raise matches, then adds 2 (round 1) or 4 (round 2); a
// fold loses what the folder put in; at a showdown a pair with the public
// card beats any single card, else the higher rank, and equal ranks split.
func TestHands(t *testing.T) {
	for _, c := range []struct {
		name         string
		d0, d1       int64 // the deal's draws
		card0, card1 int
		line         string // round 1, '/' where the public card comes, round 2
		pub          int64
		public       int
		pay0, pay1   float64
		winners      []int
		pot          int
		last         game.Event
	}{
		// (0, 4): seat 0 Js; of Jh Qs Qh Ks Kh, seat 1 takes Kh.
		{"raise-fold", 0, 4, js, kh, "rf", 0, leduc.NoCard, 1, -1, []int{0}, 4,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{0, 4}}},
		{"check-raise-fold", 0, 4, js, kh, "crf", 0, leduc.NoCard, -1, 1, []int{1}, 4,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{1, 4}}},
		{"raise-reraise-fold", 0, 4, js, kh, "rrf", 0, leduc.NoCard, -3, 3, []int{1}, 8,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{1, 8}}},
		{"check-raise-reraise-fold", 0, 4, js, kh, "crrf", 0, leduc.NoCard, 3, -3, []int{0}, 8,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{0, 8}}},
		// Left after Js, Kh: Jh Qs Qh Ks; index 0 is Jh, a pair for seat 0.
		{"checks-pair-wins", 0, 4, js, kh, "cc/cc", 0, jh, 1, -1, []int{0}, 2,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{0, 2}}},
		// Index 2 is Qh: no pair, the King wins.
		{"checks-higher-wins", 0, 4, js, kh, "cc/cc", 2, qh, -1, 1, []int{1}, 2,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{1, 2}}},
		// Two raises a round, both called: 1 + 2 + 2 + 4 + 4 = 13 each.
		{"capped-both-rounds", 0, 4, js, kh, "rrc/rrc", 3, ks, -13, 13, []int{1}, 26,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{1, 26}}},
		{"fold-in-round-2", 0, 4, js, kh, "rc/crf", 3, ks, -3, 3, []int{1}, 10,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{1, 10}}},
		// (2, 4): seat 0 Qs; of Js Jh Qh Ks Kh, seat 1 takes Kh; left Js Jh
		// Qh Ks, index 2 is Qh: seat 0's pair of Queens beats the King.
		{"pair-beats-king", 2, 4, qs, kh, "crc/rc", 2, qh, 7, -7, []int{0}, 14,
			game.Event{To: game.All, Type: leduc.EventWon, Vals: [4]int64{0, 14}}},
		// (0, 0): seat 0 Js, seat 1 Jh; left Qs Qh Ks Kh, index 3 is Kh:
		// equal ranks split a pot of 1 + 2 + 4 each.
		{"equal-ranks-split", 0, 0, js, jh, "cc/rc", 3, kh, 0, 0, nil, 10,
			game.Event{To: game.All, Type: leduc.EventSplit, Vals: [4]int64{10}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, ev := deal(t, c.d0, c.d1)
			require.Equal(t, []game.Event{
				{To: 0, Type: leduc.EventDealt, Vals: [4]int64{int64(c.card0)}},
				{To: 1, Type: leduc.EventDealt, Vals: [4]int64{int64(c.card1)}},
			}, ev)
			ev = play(t, st, c.line, c.pub)
			o := st.Outcome()
			require.True(t, o.Over)
			require.Equal(t, game.Nobody, st.ToMove())
			require.Equal(t, []float64{c.pay0, c.pay1}, o.Payoffs)
			require.Equal(t, c.winners, o.Winners)
			require.Equal(t, c.pot, st.Pot())
			require.Equal(t, c.public, st.PublicCard())
			require.Equal(t, c.last, ev[len(ev)-1])
			shown := false
			for _, e := range ev {
				require.Equal(t, game.All, e.To)
				if e.Type == leduc.EventShowdown {
					shown = true
					require.Equal(t, [4]int64{int64(c.card0), int64(c.card1)}, e.Vals)
				}
				if e.Type == leduc.EventPublicCard {
					require.Equal(t, int64(c.public), e.Vals[0])
				}
			}
			require.Equal(t, c.line[len(c.line)-1] != 'f', shown, "a showdown shows both cards, a fold nothing")
			_, err := st.Apply(game.Move{Seat: 0, Kind: leduc.KindCall}, game.Script(), nil)
			require.ErrorIs(t, err, game.CodeGameOver)
		})
	}
}

// The events and the pot after each move of a line, by hand.
func TestEvents(t *testing.T) {
	st, _ := deal(t, 0, 4)
	require.Equal(t, []game.Event{
		{To: game.All, Type: leduc.EventChecked, Vals: [4]int64{0}},
		{To: game.All, Type: leduc.EventRaised, Vals: [4]int64{1, 4}},
		{To: game.All, Type: leduc.EventRaised, Vals: [4]int64{0, 8}},
		{To: game.All, Type: leduc.EventCalled, Vals: [4]int64{1, 10}},
		{To: game.All, Type: leduc.EventPublicCard, Vals: [4]int64{ks}},
		{To: game.All, Type: leduc.EventRaised, Vals: [4]int64{0, 14}},
		{To: game.All, Type: leduc.EventCalled, Vals: [4]int64{1, 18}},
		{To: game.All, Type: leduc.EventShowdown, Vals: [4]int64{js, kh}},
		{To: game.All, Type: leduc.EventWon, Vals: [4]int64{1, 18}},
	}, play(t, st, "crrc/rc", 3))
	require.Equal(t, [2]int{9, 9}, [2]int{st.In(0), st.In(1)})
	require.Equal(t, "crrc", st.Sequence(1))
	require.Equal(t, "rc", st.Sequence(2))
}

// legalKinds lists the kinds the seat to move may play.
func legalKinds(st game.State) []string {
	var out []string
	for _, m := range st.Legal(st.ToMove(), nil) {
		out = append(out, m.Kind)
	}
	return out
}

// Fold only when facing a raise; at most two raises a round, the count
// starting again in round 2; the other seat has no moves.
func TestLegal(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"", []string{"call", "raise"}},
		{"c", []string{"call", "raise"}},
		{"r", []string{"fold", "call", "raise"}},
		{"cr", []string{"fold", "call", "raise"}},
		{"rr", []string{"fold", "call"}},
		{"crr", []string{"fold", "call"}},
		{"rrc/", []string{"call", "raise"}},
		{"rrc/r", []string{"fold", "call", "raise"}},
		{"rrc/rr", []string{"fold", "call"}},
		{"rrc/crr", []string{"fold", "call"}},
	} {
		st, _ := deal(t, 0, 4)
		play(t, st, c.line, 0)
		require.Equal(t, c.want, legalKinds(st), c.line)
		require.Empty(t, st.Legal(1-st.ToMove(), nil), c.line)
	}
}

// Every refusal leaves the state as it was and draws nothing.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		line string
		move game.Move
		code game.Code
		msg  string
	}{
		{"", game.Move{Seat: 0, Kind: leduc.KindFold}, game.CodeInvalidAction, "nothing to fold against"},
		{"c", game.Move{Seat: 1, Kind: leduc.KindFold}, game.CodeInvalidAction, "nothing to fold against"},
		{"rr", game.Move{Seat: 0, Kind: leduc.KindRaise}, game.CodeInvalidAction, "at most two raises a round"},
		{"rrc/crr", game.Move{Seat: 1, Kind: leduc.KindRaise}, game.CodeInvalidAction, "at most two raises a round"},
		{"", game.Move{Seat: 1, Kind: leduc.KindCall}, game.CodeNotYourTurn, "seat 0's turn"},
		{"", game.Move{Seat: 2, Kind: leduc.KindCall}, game.CodeUnknownPlayer, "no seat 2"},
		{"", game.Move{Seat: -1, Kind: leduc.KindCall}, game.CodeUnknownPlayer, "no seat -1"},
		{"", game.Move{Seat: 0, Kind: "bet"}, game.CodeInvalidAction, `unknown move kind "bet"`},
		{"", game.Move{Seat: 0, Kind: leduc.KindRaise, Args: [4]int64{2}}, game.CodeInvalidAction, "takes no arguments"},
		{"rf", game.Move{Seat: 0, Kind: leduc.KindCall}, game.CodeGameOver, "over"},
	} {
		t.Run(fmt.Sprintf("%s-%s", c.line, c.move.Kind), func(t *testing.T) {
			st, _ := deal(t, 0, 4)
			play(t, st, c.line, 0)
			before := *st
			script := game.Script(0)
			ev := []game.Event{{Type: "x"}}
			got, err := st.Apply(c.move, script, ev)
			require.ErrorIs(t, err, c.code)
			require.ErrorContains(t, err, c.msg)
			require.Equal(t, ev, got)
			require.Equal(t, before, *st)
			require.Zero(t, script.Next)
		})
	}
}

// The parts, the view and the information-state key, by hand.
func TestPartsAndInfoKey(t *testing.T) {
	st, _ := deal(t, 2, 4) // Qs, Kh
	require.Equal(t, `{"round":1,"round1":"","round2":"","publicCard":null,"in":[1,1],"pot":2,"toMove":0}`, string(st.AppendPublic(nil)))
	require.Equal(t, `{"card":"Kh"}`, string(st.AppendPrivate(nil, 1)))
	require.Equal(t, `{"deck":["Js","Jh","Qh","Ks"]}`, string(st.AppendSecret(nil)))
	require.Equal(t, `{"public":{"round":1,"round1":"","round2":"","publicCard":null,"in":[1,1],"pot":2,"toMove":0},"private":{"card":"Qs"}}`,
		string(st.AppendView(nil, 0)))
	require.Equal(t, "Qs:", string(st.AppendInfoKey(nil, 0)))
	play(t, st, "cr", 0)
	require.Equal(t, "Qs:cr", string(st.AppendInfoKey(nil, 0)))
	require.Equal(t, "Kh:cr", string(st.AppendInfoKey(nil, 1)))
	play(t, st, "c/r", 2) // Qh
	require.Equal(t, `{"round":2,"round1":"crc","round2":"r","publicCard":"Qh","in":[7,3],"pot":10,"toMove":1}`, string(st.AppendPublic(nil)))
	require.Equal(t, `{"deck":["Js","Jh","Ks"]}`, string(st.AppendSecret(nil)))
	require.Equal(t, "Qs:crc/Qh:r", string(st.AppendInfoKey(nil, 0)))
	require.Equal(t, "Kh:crc/Qh:r", string(st.AppendInfoKey(nil, 1)))
	play(t, st, "c", 0)
	require.Equal(t, `{"round":2,"round1":"crc","round2":"rc","publicCard":"Qh","in":[7,7],"pot":14,"toMove":-1,"shown":["Qs","Kh"]}`, string(st.AppendPublic(nil)))
	require.Equal(t, "Qs:crc/Qh:rc|Kh", string(st.AppendInfoKey(nil, 0)))
	require.Equal(t, "Kh:crc/Qh:rc|Qs", string(st.AppendInfoKey(nil, 1)))
}

// Sample deals the other card again among the cards the seat does not
// see; after a showdown there is nothing to deal.
func TestSample(t *testing.T) {
	st, _ := deal(t, 2, 4) // Qs, Kh
	play(t, st, "cc/", 2)  // public Qh
	// Seat 0 sees Qs and Qh: the other card is one of Js Jh Ks Kh.
	for i, want := range []int{js, jh, ks, kh} {
		script := game.Script(int64(i))
		sm := st.Sample(0, script).(*leduc.State)
		require.True(t, script.Done())
		require.Equal(t, []string{"leduc.sample"}, tags(script))
		require.Equal(t, want, sm.Card(1))
		require.Equal(t, qs, sm.Card(0))
		require.Equal(t, string(st.AppendView(nil, 0)), string(sm.AppendView(nil, 0)))
		require.Equal(t, string(st.AppendInfoKey(nil, 0)), string(sm.AppendInfoKey(nil, 0)))
		require.NoError(t, sm.Check())
	}
	require.Equal(t, kh, st.Card(1), "the sample is a copy")
	play(t, st, "cc", 0)
	script := game.Script()
	sm := st.Sample(1, script).(*leduc.State)
	require.Zero(t, len(script.Calls))
	require.Equal(t, *st, *sm)
}

// ChanceOutcomes lists the public card's four draws for the call that
// ends round 1, and nothing for any other move.
func TestChanceOutcomes(t *testing.T) {
	st, _ := deal(t, 0, 4)
	outs, ok := st.ChanceOutcomes(game.Move{Seat: 0, Kind: leduc.KindCall})
	require.True(t, ok)
	require.Empty(t, outs)
	play(t, st, "r", 0)
	outs, ok = st.ChanceOutcomes(game.Move{Seat: 1, Kind: leduc.KindCall})
	require.True(t, ok)
	require.Equal(t, []game.Chance{{Draws: []int64{0}, P: 0.25}, {Draws: []int64{1}, P: 0.25}, {Draws: []int64{2}, P: 0.25}, {Draws: []int64{3}, P: 0.25}}, outs)
	outs, _ = st.ChanceOutcomes(game.Move{Seat: 1, Kind: leduc.KindRaise})
	require.Empty(t, outs)
}

func TestAtAndCheck(t *testing.T) {
	st, err := leduc.At(js, kh, ks, "rrc", "rr")
	require.NoError(t, err)
	require.Equal(t, []string{"fold", "call"}, legalKinds(st))
	for _, bad := range []struct {
		c0, c1, pub int
		r1, r2      string
		want        string
	}{
		{js, js, leduc.NoCard, "", "", "distinct"},
		{js, 6, leduc.NoCard, "", "", "card 6"},
		{js, kh, kh, "cc", "", "distinct"},
		{js, kh, leduc.NoCard, "cc", "", "the public card"},
		{js, kh, ks, "c", "", "does not deal the public card"},
		{js, kh, ks, "rrr", "", "at most two raises"},
		{js, kh, ks, "x", "", "not c, r or f"},
		{js, kh, leduc.NoCard, "rf", "c", "hand over in round 1"},
	} {
		_, err := leduc.At(bad.c0, bad.c1, bad.pub, bad.r1, bad.r2)
		require.ErrorContains(t, err, bad.want, bad)
	}
}

func TestDefinition(t *testing.T) {
	require.NoError(t, game.ValidateDefinition(leduc.Def))
	_, err := leduc.Def.DecodeRuleset([]byte(`{"ante":1}`))
	require.ErrorIs(t, err, game.CodeBadRuleset)
	r, err := leduc.Def.DecodeRuleset([]byte(`{}`))
	require.NoError(t, err)
	require.Equal(t, "{}", string(r.CanonicalJSON()))
	for _, n := range []int{0, 1, 11} {
		_, _, err = leduc.Def.Setup(leduc.Rules{}, make([]game.Seat, n), game.Script(), nil)
		require.ErrorIs(t, err, game.CodeBadSetup, n)
		require.ErrorContains(t, err, fmt.Sprintf("takes 2 to 10 seats, not %d", n))
	}
	require.Equal(t, game.Seats{Min: 2, Max: 10, Default: 2}, leduc.Def.Seats())
	_, _, err = leduc.Def.Setup(leduc.Rules{}, []game.Seat{{Options: []string{"x"}}, {}}, game.Script(), nil)
	require.ErrorIs(t, err, game.CodeBadSetup)
	require.Equal(t, []string{"random", "mcts:N", "caller", "raiser"}, match.BotNames(leduc.Def))
	h := leduc.Def.(game.Helper).Help(leduc.Rules{})
	require.Contains(t, h.Summary, "public card")
}

// The styles, OpenSpiel's always-call and always-raise policies.
func TestStyles(t *testing.T) {
	st, _ := deal(t, 0, 4)
	styles := leduc.Def.Styles()
	caller, raiser := styles[0].New(0), styles[1].New(0)
	play(t, st, "rr", 0)
	legal := st.Legal(0, nil)
	require.Equal(t, leduc.KindCall, caller.Choose(st, 0, legal).Kind)
	require.Equal(t, leduc.KindCall, raiser.Choose(st, 0, legal).Kind, "no third raise: call")
	st, _ = deal(t, 0, 4)
	legal = st.Legal(0, nil)
	require.Equal(t, leduc.KindCall, caller.Choose(st, 0, legal).Kind)
	require.Equal(t, leduc.KindRaise, raiser.Choose(st, 0, legal).Kind)
}
