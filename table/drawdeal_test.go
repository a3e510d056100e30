package table_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/leduc"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// leducTable plays a two-seat Leduc table in mode to its end by random
// legal moves, saved and restored (from its snapshot) after every action.
// It returns the table and the start's result.
func leducTable(t *testing.T, mode rng.Mode, seed string) (*table.Table, *table.Result) {
	t.Helper()
	req := table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: mode, Seed: seed}
	if mode == rng.ModeCrypto {
		req.Seed = ""
	}
	tb, res, err := table.Create(leduc.Def, req)
	require.NoError(t, err)
	for i := range 2 {
		res, err = tb.Do(table.Action{Actor: uid(i), ActionID: "j", Version: res.Version, Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
		tb = roundTrip(t, leduc.Def, tb)
	}
	start, err := tb.Do(table.Action{Actor: uid(0), ActionID: "s", Version: res.Version, Kind: table.KindStart})
	require.NoError(t, err)
	tb = roundTrip(t, leduc.Def, tb)
	bots, err := rng.NewSeeded(seed + "/bots")
	require.NoError(t, err)
	bot := match.NewRandom(bots)
	for i := 0; tb.Phase() != table.PhaseFinished; i++ {
		require.Less(t, i, 40, "a hand of Leduc hold'em ends")
		pub := tb.Public()
		v := tb.View(pub.Seats[pub.ToMove].UID)
		mv := bot.Choose(nil, v.Seat, v.Legal)
		_, err := tb.Do(table.Action{Actor: uid(v.Seat), ActionID: fmt.Sprintf("m%d", i), Version: v.Version, Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, leduc.Def.Kinds(), mv)})
		require.NoError(t, err)
		tb = roundTrip(t, leduc.Def, tb)
	}
	return tb, start
}

// A crypto Leduc table deals its cards, drawn one at a time, from an
// order it shuffles and commits to at the first card: the start
// publishes the commitment (k 0, the 6 cards, deck "leduc", tag
// leduc.deal), SHA-256 over the documented bytes computed here opens to
// the order the record reveals, and the seats' cards and the public card
// are positions 0, 1 and 2 of that order, though the table is saved
// and restored from its snapshot between the hole cards and the public
// card. The record says dealDraws and checks clean. A seeded table,
// whose seed binds its draws, publishes nothing and deals as before.
func TestCryptoLeducCommitsItsDrawnDeck(t *testing.T) {
	publicSeen := false
	for g := range 8 {
		tb, start := leducTable(t, rng.ModeCrypto, fmt.Sprint("dealt-", g))
		cs := commitments(start.Events)
		require.Len(t, cs, 1, "the start's result holds the commitment")
		c := cs[0]
		require.Equal(t, [game.MaxVals]int64{0, 6}, c.Vals)
		require.Equal(t, []string{leduc.Name, string(leduc.TagDeal)}, c.Options[:2])
		require.Equal(t, cs, commitments(tb.View("").Log), "one commitment for the hand")

		rec, err := tb.Record(uid(1))
		require.NoError(t, err)
		require.True(t, rec.DealDraws)
		require.NotNil(t, rec.Decks)
		require.Len(t, rec.Decks.Shuffles, 1)
		s := rec.Decks.Shuffles[0]
		key, err := hex.DecodeString(rec.Decks.SaltKeyHex)
		require.NoError(t, err)
		_, commit := wantCommitment(key, 0, leduc.Name, s.Order)
		require.Equal(t, commit, c.Options[2], "the published commitment opens to the revealed order")

		dealt, public := map[int]int{}, -1
		for _, line := range rec.Log {
			var e struct {
				Type     string
				To, Card int
			}
			require.NoError(t, json.Unmarshal(line, &e))
			switch e.Type {
			case leduc.EventDealt:
				dealt[e.To] = e.Card
			case leduc.EventPublicCard:
				public = e.Card
			}
		}
		require.Equal(t, map[int]int{0: s.Order[0], 1: s.Order[1]}, dealt, "the seats' cards are positions 0 and 1")
		if public >= 0 {
			publicSeen = true
			require.Equal(t, s.Order[2], public, "the public card is position 2")
		}
		d, err := match.CheckRecord(leduc.Def, rec)
		require.NoError(t, err)
		require.NoError(t, d)
		require.NoError(t, match.CheckPublishedDecks(rec, []string{c.Options[2]}))
	}
	require.True(t, publicSeen, "no hand reached the public card: the test misses its draw")

	tb, start := leducTable(t, rng.ModeSeeded, "dealt-seeded")
	require.Empty(t, commitments(start.Events), "a seeded table's seed binds its draws")
	rec, err := tb.Record(uid(0))
	require.NoError(t, err)
	require.False(t, rec.DealDraws)
	require.Nil(t, rec.Decks)
}
