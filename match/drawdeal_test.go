package match_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// leducToPublic plays a two-seat Leduc match to its public card: seat 0
// and seat 1 call (check) the first round.
func leducToPublic(t *testing.T, m *match.Match) {
	t.Helper()
	for range 2 {
		_, err := m.Apply(game.Move{Seat: m.State().ToMove(), Kind: leduc.KindCall})
		require.NoError(t, err)
	}
}

// cardsDealt returns, from the match's log, the card each seat was dealt
// (its Dealt event) and the public card (-1 before it is dealt).
func cardsDealt(m *match.Match, seats int) (hole []int, public int) {
	hole, public = make([]int, seats), -1
	for _, e := range m.Events() {
		switch e.Type {
		case leduc.EventDealt:
			hole[e.To] = int(e.Vals[0])
		case leduc.EventPublicCard:
			public = int(e.Vals[0])
		}
	}
	return hole, public
}

// A crypto match that deals its draws shuffles Leduc's deck at the first
// card and deals every card from that order by position: the seats'
// cards are positions 0 and 1, the public card position 2. The order is
// a named-deck shuffle (what a table commits to), the record says
// dealDraws and replays, and a record that hides the flag, or puts it
// on a seeded game, does not.
func TestDealtDrawsComeFromTheShuffledOrder(t *testing.T) {
	for range 20 { // 20 crypto deals: the positions hold whatever the shuffle made
		var audit []rng.Entry
		m, err := match.New(leduc.Def, match.Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, 2), DealDraws: true,
			Auditor: rng.AuditorFunc(func(e rng.Entry) { audit = append(audit, e) })})
		require.NoError(t, err)
		sh := m.DeckShuffles()
		require.Len(t, sh, 1, "one shuffle at the first card")
		require.Equal(t, leduc.Name, sh[0].DeckID)
		require.ElementsMatch(t, []int{0, 1, 2, 3, 4, 5}, sh[0].Order, "the whole deck of 2(2+1) cards")
		hole, public := cardsDealt(m, 2)
		require.Equal(t, sh[0].Order[:2], hole, "seat i's card is position i")
		require.Equal(t, -1, public)
		leducToPublic(t, m)
		_, public = cardsDealt(m, 2)
		require.Equal(t, sh[0].Order[2], public, "the public card is position 2")
		require.Len(t, m.DeckShuffles(), 1, "no shuffle after the first card")

		rec, err := match.NewRecord(m, audit)
		require.NoError(t, err)
		require.True(t, rec.DealDraws)
		d, err := match.CheckRecord(leduc.Def, rec)
		require.NoError(t, err)
		require.NoError(t, d)
		b, err := json.Marshal(rec)
		require.NoError(t, err)
		back, err := match.ReadRecord(b)
		require.NoError(t, err)
		require.True(t, back.DealDraws, "the flag survives the record's JSON")

		rec.DealDraws = false // the draws replayed as UniformInts: another game, or none
		d, err = match.CheckRecord(leduc.Def, rec)
		require.True(t, d != nil || err != nil, "a record whose draws were dealt replays without the flag")
	}
}

func TestDealtDrawsRefusals(t *testing.T) {
	seats := make([]game.Seat, 2)
	_, err := match.New(leduc.Def, match.Config{Mode: rng.ModeSeeded, Seed: "x", Seats: seats, DealDraws: true})
	require.ErrorContains(t, err, "dealt draws are for a crypto match")
	_, err = match.New(leduc.Def, match.Config{Mode: rng.ModeCrypto, Seats: seats, DealDraws: true, Lean: true})
	require.ErrorContains(t, err, "dealt draws are for a crypto match")

	m, err := match.New(leduc.Def, match.Config{Mode: rng.ModeCrypto, Seats: seats, DealDraws: true})
	require.NoError(t, err)
	rec, err := match.NewRecord(m, nil)
	require.NoError(t, err)
	rec.Mode, rec.Seed, rec.Draws = rng.ModeSeeded, "x", nil
	b, err := json.Marshal(rec)
	require.NoError(t, err)
	_, err = match.ReadRecord(b)
	require.ErrorContains(t, err, "a seeded record with dealDraws")
}

// Without DealDraws a crypto match draws each card as before (a
// UniformInt over the cards left): no shuffle, no flag in its record.
func TestUndealtDrawsAsBefore(t *testing.T) {
	m, err := match.New(leduc.Def, match.Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, 2)})
	require.NoError(t, err)
	leducToPublic(t, m)
	require.Empty(t, m.DeckShuffles())
	require.Len(t, m.Draws(), 3, "three UniformInts: two seats' cards and the public card")
	rec, err := match.NewRecord(m, nil)
	require.NoError(t, err)
	require.False(t, rec.DealDraws)
}

// A match restored from a snapshot taken after the seats' cards deals
// the public card from the same order, though its crypto stream is a new
// one: the snapshot keeps the order (Snapshot.Dealt). Control: the
// snapshot without it cannot deal the public card.
func TestDealtDrawsGoOnFromASnapshot(t *testing.T) {
	for range 10 {
		cfg := match.Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, 2), DealDraws: true}
		m, err := match.New(leduc.Def, cfg)
		require.NoError(t, err)
		sn, err := m.Snapshot()
		require.NoError(t, err)
		require.Equal(t, []match.DealtDeck{{DeckID: leduc.Name, Order: m.DeckShuffles()[0].Order}}, sn.Dealt)
		h := match.History{Moves: m.Moves(), Draws: m.Draws(), Events: m.Events()}
		r, err := match.FromSnapshot(leduc.Def, cfg, sn, h)
		require.NoError(t, err)
		leducToPublic(t, r)
		_, public := cardsDealt(r, 2)
		require.Equal(t, m.DeckShuffles()[0].Order[2], public)

		sn.Dealt = nil
		r, err = match.FromSnapshot(leduc.Def, cfg, sn, h)
		require.NoError(t, err)
		_, err = r.Apply(game.Move{Seat: r.State().ToMove(), Kind: leduc.KindCall})
		require.NoError(t, err)
		_, err = r.Apply(game.Move{Seat: r.State().ToMove(), Kind: leduc.KindCall})
		require.ErrorContains(t, err, "drawn before its position 0", "control: without the order the deck cannot go on")
	}
}

func TestDealtSnapshotRefusals(t *testing.T) {
	cfg := match.Config{Mode: rng.ModeCrypto, Seats: make([]game.Seat, 2), DealDraws: true}
	m, err := match.New(leduc.Def, cfg)
	require.NoError(t, err)
	sn, err := m.Snapshot()
	require.NoError(t, err)
	h := match.History{Moves: m.Moves(), Draws: m.Draws(), Events: m.Events()}
	good := sn.Dealt[0]
	for name, c := range map[string]struct {
		dealt []match.DealtDeck
		cfg   match.Config
		want  string
	}{
		"without DealDraws": {[]match.DealtDeck{good}, match.Config{Mode: rng.ModeCrypto, Seats: cfg.Seats}, "does not deal its draws"},
		"no id":             {[]match.DealtDeck{{Order: good.Order}}, cfg, "an id of 1 to 256 bytes"},
		"no cards":          {[]match.DealtDeck{{DeckID: "leduc"}}, cfg, "0 cards"},
		"twice":             {[]match.DealtDeck{good, good}, cfg, "twice"},
		"a card twice":      {[]match.DealtDeck{{DeckID: "leduc", Order: []int{0, 0, 1, 2, 3, 4}}}, cfg, "not a permutation of 0..5"},
		"an id too long":    {[]match.DealtDeck{{DeckID: strings.Repeat("d", 257), Order: good.Order}}, cfg, "an id of 1 to 256 bytes"},
		"too many cards":    {[]match.DealtDeck{{DeckID: "big", Order: make([]int, match.MaxDeckCards+1)}}, cfg, "4097 cards"},
		"a card past":       {[]match.DealtDeck{{DeckID: "leduc", Order: []int{0, 1, 2, 3, 4, 6}}}, cfg, "not a permutation"},
		"a negative card":   {[]match.DealtDeck{{DeckID: "leduc", Order: []int{0, 1, 2, 3, 4, -1}}}, cfg, "not a permutation"},
	} {
		s := *sn
		s.Dealt = c.dealt
		_, err := match.FromSnapshot(leduc.Def, c.cfg, &s, h)
		require.ErrorContains(t, err, c.want, name)
	}
	// At the edges: an id of 256 bytes, decks of 1 and of MaxDeckCards
	// cards are taken; a crypto match without DealDraws restores with no
	// dealt deck.
	big := make([]int, match.MaxDeckCards)
	for i := range big {
		big[i] = len(big) - 1 - i
	}
	s := *sn
	s.Dealt = []match.DealtDeck{good, {DeckID: strings.Repeat("d", 256), Order: []int{0}}, {DeckID: "big", Order: big}}
	_, err = match.FromSnapshot(leduc.Def, cfg, &s, h)
	require.NoError(t, err)
	plain, err := match.New(leduc.Def, match.Config{Mode: rng.ModeCrypto, Seats: cfg.Seats})
	require.NoError(t, err)
	psn, err := plain.Snapshot()
	require.NoError(t, err)
	require.Empty(t, psn.Dealt)
	_, err = match.FromSnapshot(leduc.Def, match.Config{Mode: rng.ModeCrypto, Seats: cfg.Seats}, psn,
		match.History{Moves: plain.Moves(), Draws: plain.Draws(), Events: plain.Events()})
	require.NoError(t, err)
}
