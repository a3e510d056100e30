package table_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/eights"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// eightsRules is a small Crazy Eights deck for four seats: 8 ranks in 3
// suits, hands of 5, so that 3 cards are left to draw and the discards
// are reshuffled early and often.
var eightsRules = []byte(`{"ranks":8,"suits":3,"hand":5,"maxMoves":500}`)

// eightsTable plays a four-seat Crazy Eights table in mode to its end by
// random legal moves (bots on seed/bots), saved and restored after every
// action when restore is set, and returns it.
func eightsTable(t *testing.T, mode rng.Mode, seed string, restore bool) *table.Table {
	t.Helper()
	req := table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: mode, Seed: seed, Seats: 4, Rules: eightsRules}
	switch mode {
	case rng.ModeFair:
		req.Seed, req.ServerSeed = "", serverSeed
	case rng.ModeCrypto:
		req.Seed = ""
	}
	tb, res, err := table.Create(eights.Def, req)
	require.NoError(t, err)
	step := func(a table.Action) {
		t.Helper()
		res, err = tb.Do(a)
		require.NoError(t, err)
		if restore {
			tb = roundTrip(t, eights.Def, tb)
		}
	}
	for i := range 4 {
		entropy := "" // a fair table's seat brings its own, made of the seed here
		if mode == rng.ModeFair {
			entropy = hex.EncodeToString(fmt.Appendf(nil, "%s/%d", seed, i))
		}
		step(table.Action{Actor: uid(i), ActionID: "j", Version: res.Version, Kind: table.KindJoin, Seat: i, Entropy: entropy})
	}
	step(table.Action{Actor: uid(0), ActionID: "s", Version: res.Version, Kind: table.KindStart})
	bots, err := rng.NewSeeded(seed + "/bots")
	require.NoError(t, err)
	bot := match.NewRandom(bots)
	for i := 0; tb.Phase() != table.PhaseFinished; i++ {
		require.Less(t, i, 500, "a game of Crazy Eights ends within its move cap")
		pub := tb.Public()
		v := tb.View(pub.Seats[pub.ToMove].UID)
		mv := bot.Choose(nil, v.Seat, v.Legal)
		step(table.Action{Actor: uid(v.Seat), ActionID: fmt.Sprintf("m%d", i), Version: v.Version, Kind: table.KindMove,
			Move: game.AppendMoveJSON(nil, eights.Def.Kinds(), mv)})
	}
	return tb
}

// A Crazy Eights table shuffles its deck more than once: the deal (k 0,
// tag eights.deal, 24 cards) and each reshuffle of the discards (k 1, 2,
// ..., tag deck.reshuffle.eights, as many cards as the Reshuffled event
// says), each committed in the log when it is shuffled, in order. The
// record reveals each order, which opens its published commitment
// (computed here with crypto/sha256 from the documented bytes), and
// whose first card is the one the seat that drew next was dealt (its
// Drawn event); the record checks clean, and a record whose reshuffle
// order was changed (the server dealing from another order than it
// committed to) is refused. Seeded (saved and restored after every
// action), fair and crypto tables.
func TestEightsCommitsEveryReshuffle(t *testing.T) {
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeFair, rng.ModeCrypto} {
		t.Run(string(mode), func(t *testing.T) {
			var tb *table.Table
			var cs []table.Event
			var seed string
			for g := 0; len(cs) < 3; g++ { // a game with two reshuffles at least (a crypto game is a new one each run)
				require.Less(t, g, 1000, "no game of 1,000 reshuffled twice (about one in 30 does)")
				seed = fmt.Sprintf("eights-%s-%d", mode, g)
				tb = eightsTable(t, mode, seed, mode == rng.ModeSeeded)
				cs = commitments(tb.View("").Log)
			}
			rec, err := tb.Record(uid(2))
			require.NoError(t, err)
			require.NotNil(t, rec.Decks)
			require.Len(t, rec.Decks.Shuffles, len(cs))
			key, err := hex.DecodeString(rec.Decks.SaltKeyHex)
			require.NoError(t, err)
			if mode != rng.ModeCrypto {
				require.Equal(t, hex.EncodeToString(wantSaltKey(t, mode, seed)), rec.Decks.SaltKeyHex)
			}
			// The log's Reshuffled events and each Drawn after one, in
			// order.
			var sizes, firsts []int
			wantFirst := false
			for _, line := range rec.Log {
				var e struct {
					Type  string
					Cards int
					Card  int
				}
				require.NoError(t, json.Unmarshal(line, &e))
				switch {
				case e.Type == eights.EventReshuffled:
					sizes, wantFirst = append(sizes, e.Cards), true
				case e.Type == eights.EventDrawn && wantFirst:
					firsts, wantFirst = append(firsts, e.Card), false
				}
			}
			require.Len(t, sizes, len(cs)-1)
			for k, c := range cs {
				s := rec.Decks.Shuffles[k]
				require.Equal(t, k, s.K)
				require.Equal(t, int64(k), c.Vals[0], "k counts the shuffles from 0")
				tag, n := string(eights.TagDeal), 24
				if k > 0 {
					tag, n = "deck.reshuffle.eights", sizes[k-1]
					require.Equal(t, firsts[k-1], s.Order[0], "shuffle %d: the card drawn first is the order's first", k)
				}
				require.Equal(t, int64(n), c.Vals[1], "shuffle %d's cards", k)
				require.Equal(t, []string{eights.DeckID, tag}, c.Options[:2])
				require.Equal(t, string(s.Tag), tag)
				require.Len(t, s.Order, n)
				salt, commit := wantCommitment(key, uint32(k), eights.DeckID, s.Order)
				require.Equal(t, salt, s.SaltHex)
				require.Equal(t, commit, c.Options[2], "shuffle %d: the published commitment opens to the revealed order", k)
				require.Equal(t, commit, s.CommitmentHex)
			}
			d, err := match.CheckRecord(eights.Def, rec)
			require.NoError(t, err)
			require.NoError(t, d)
			published := make([]string, len(cs))
			for i, c := range cs {
				published[i] = c.Options[2]
			}
			require.NoError(t, match.CheckPublishedDecks(rec, published))

			// A reshuffle's order changed: the replay draws another.
			k := 1
			for len(rec.Decks.Shuffles[k].Order) < 2 {
				k++
			}
			bad := *rec
			var decks match.RecordDecks
			b, err := json.Marshal(rec.Decks)
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &decks))
			o := decks.Shuffles[k].Order
			o[0], o[1] = o[1], o[0]
			bad.Decks = &decks
			d, err = match.CheckRecord(eights.Def, &bad)
			require.NoError(t, err)
			require.ErrorContains(t, d, "the replay makes")
		})
	}
}
