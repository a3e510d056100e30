package table_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/table"
)

const serverSeed = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

// fairLobby makes the fair Pig table g, joined by u0 (entropy e0) and u1
// (e1), and started.
func fairLobby(t *testing.T, s *table.Memory, g, e0, e1 string) {
	t.Helper()
	_, err := s.Create(g, pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2})
	require.NoError(t, err)
	v := uint64(1)
	for i, e := range []string{e0, e1} {
		res, err := s.Do(g, table.Action{Actor: uid(i), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: i, Entropy: e})
		require.NoError(t, err)
		v = res.Version
	}
	_, err = s.Do(g, table.Action{Actor: uid(0), ActionID: "start", Version: v, Kind: table.KindStart})
	require.NoError(t, err)
}

// A fair table is the fair protocol: its commitment is
// fair.Commitment(serverSeed) from the create on, its game is the match
// of fair.GameSeed(serverSeed, the seats' entropy) (the same moves give
// the same state bytes), nothing of the server seed or the entropy shows
// before the end, and the end reveals them all, in the view and in the
// record, which replays clean.
func TestFairTableIsTheFairProtocol(t *testing.T) {
	s := table.NewMemory()
	e0 := "C0FFEE" // either case; kept lower-case
	fairLobby(t, s, "f", e0, "")
	seedBytes, err := hex.DecodeString(serverSeed)
	require.NoError(t, err)
	commit := fair.Commitment(seedBytes)
	wantCommit := hex.EncodeToString(commit[:])

	secrets := []string{serverSeed, "c0ffee"}
	view := func(who string) string {
		v, err := s.View("f", who)
		require.NoError(t, err)
		require.NotNil(t, v.Fairness)
		require.Equal(t, wantCommit, v.Fairness.CommitmentHex)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return strings.ToLower(string(b))
	}
	bots, err := rng.NewSeeded("fair/bots")
	require.NoError(t, err)
	bot := match.NewRandom(bots)
	var moves []game.Move
	for range 5000 {
		pub, err := s.View("f", "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			// The positive control of the search below: at the end the
			// same search finds every secret in every view.
			for _, who := range []string{"", uid(0), uid(1)} {
				for _, secret := range secrets {
					require.Contains(t, view(who), secret, "at the end, %q's view", who)
				}
			}
			break
		}
		for _, who := range []string{"", uid(0), uid(1)} {
			for _, secret := range secrets {
				require.NotContains(t, view(who), secret, "in play, %q's view", who)
			}
		}
		who := pub.Seats[pub.ToMove].UID
		v, err := s.View("f", who)
		require.NoError(t, err)
		mv := bot.Choose(nil, v.Seat, v.Legal)
		_, err = s.Do("f", table.Action{Actor: who, ActionID: fmt.Sprintf("m%d", len(moves)), Version: v.Version,
			Kind: table.KindMove, Move: game.AppendMoveJSON(nil, pig.Def.Kinds(), mv)})
		require.NoError(t, err)
		moves = append(moves, mv)
	}
	require.Greater(t, len(moves), 10)

	gs := fair.GameSeed(seedBytes, [][]byte{{0xc0, 0xff, 0xee}, {}})
	m, err := match.New(pig.Def, match.Config{Mode: rng.ModeFair, Seed: hex.EncodeToString(gs[:]), Seats: make([]game.Seat, 2)})
	require.NoError(t, err)
	for _, mv := range moves {
		_, err := m.Apply(mv)
		require.NoError(t, err)
	}
	st, err := s.StateBytes("f")
	require.NoError(t, err)
	require.Equal(t, match.StateBytes(m.State()), st, "the table's game is the fair stream's")

	end, err := s.View("f", "")
	require.NoError(t, err)
	require.Equal(t, &table.Fairness{CommitmentHex: wantCommit, ServerSeedHex: serverSeed,
		ContributionsHex: []string{"c0ffee", ""}, GameSeedHex: hex.EncodeToString(gs[:])}, end.Fairness)

	rec, err := s.Record("f", uid(1))
	require.NoError(t, err)
	require.Equal(t, hex.EncodeToString(gs[:]), rec.Seed)
	d, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, d)
	for name, tamper := range map[string]func(f *match.RecordFairness){
		"server seed":  func(f *match.RecordFairness) { f.ServerSeedHex = strings.Repeat("1", 64) },
		"commitment":   func(f *match.RecordFairness) { f.CommitmentHex = strings.Repeat("2", 64) },
		"contribution": func(f *match.RecordFairness) { f.ContributionsHex = []string{"c0ffef", ""} },
	} {
		bad := *rec
		f := *rec.Fairness
		f.ContributionsHex = append([]string(nil), f.ContributionsHex...)
		tamper(&f)
		bad.Fairness = &f
		d, err := match.CheckRecord(pig.Def, &bad)
		require.NoError(t, err, name)
		require.ErrorContains(t, d, "fairness", name)
	}
	// Malformed fields cannot be checked at all: an error, not a
	// divergence.
	for want, tamper := range map[string]func(f *match.RecordFairness){
		"1 contributions for 2 seats": func(f *match.RecordFairness) { f.ContributionsHex = f.ContributionsHex[:1] },
		"commitmentHex must be":       func(f *match.RecordFairness) { f.CommitmentHex = "ab" },
		"serverSeedHex":               func(f *match.RecordFairness) { f.ServerSeedHex = strings.Repeat("z", 64) },
		"seat 1's contribution":       func(f *match.RecordFairness) { f.ContributionsHex = []string{"", "zzz"} },
	} {
		bad := *rec
		f := *rec.Fairness
		f.ContributionsHex = append([]string(nil), f.ContributionsHex...)
		tamper(&f)
		bad.Fairness = &f
		_, err := match.CheckRecord(pig.Def, &bad)
		require.ErrorContains(t, err, want)
	}
}

// A fair table saved mid-game restores to the same game; the entropy of
// a seat left in the lobby is forgotten (the game seed is made of the
// seats' entropy at start).
func TestFairTableSavesAndForgetsLeavers(t *testing.T) {
	s := table.NewMemory()
	_, err := s.Create("l", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2})
	require.NoError(t, err)
	res, err := s.Do("l", table.Action{Actor: uid(1), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 1, Entropy: "aa"})
	require.NoError(t, err)
	res, err = s.Do("l", table.Action{Actor: uid(1), ActionID: "x", Version: res.Version, Kind: table.KindLeave})
	require.NoError(t, err)
	res, err = s.Do("l", table.Action{Actor: uid(2), ActionID: "j", Version: res.Version, Kind: table.KindJoin, Seat: 1})
	require.NoError(t, err)
	res, err = s.Do("l", table.Action{Actor: uid(0), ActionID: "j", Version: res.Version, Kind: table.KindJoin, Seat: 0, Entropy: "bb"})
	require.NoError(t, err)
	_, err = s.Do("l", table.Action{Actor: uid(0), ActionID: "s", Version: res.Version, Kind: table.KindStart})
	require.NoError(t, err)
	_, err = s.Do("l", table.Action{Actor: uid(0), ActionID: "end", Version: res.Version + 1, Kind: table.KindAbandon})
	require.NoError(t, err)
	v, err := s.View("l", "")
	require.NoError(t, err)
	require.Equal(t, []string{"bb", ""}, v.Fairness.ContributionsHex)
	seedBytes, _ := hex.DecodeString(serverSeed)
	gs := fair.GameSeed(seedBytes, [][]byte{{0xbb}, {}})
	require.Equal(t, hex.EncodeToString(gs[:]), v.Fairness.GameSeedHex)

	// Saved after its start, a fair table restores to the same game and
	// the same commitment.
	tb, res, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2})
	require.NoError(t, err)
	for i, e := range []string{"01", ""} {
		res, err = tb.Do(table.Action{Actor: uid(i), ActionID: "j", Version: res.Version, Kind: table.KindJoin, Seat: i, Entropy: e})
		require.NoError(t, err)
	}
	_, err = tb.Do(table.Action{Actor: uid(0), ActionID: "s", Version: res.Version, Kind: table.KindStart})
	require.NoError(t, err)
	saved, err := tb.Save()
	require.NoError(t, err)
	again, err := table.Restore(pig.Def, saved)
	require.NoError(t, err)
	require.Equal(t, tb.StateBytes(), again.StateBytes())
	require.Equal(t, tb.Public().Fairness, again.Public().Fairness)
	resaved, err := again.Save()
	require.NoError(t, err)
	require.Equal(t, saved, resaved)
}
