package table_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// A finished seeded table's record is the record match makes of the same
// seed and moves (the path "gamectl play --record" takes), and it
// replays clean; Kuhn's carries both seats' dealt cards, and its deck's
// shuffle with the commitment the table published (decks_test.go checks
// the bytes), which the match's record, of no table, has not.
func TestTableRecordIsMatchs(t *testing.T) {
	for _, def := range []game.Definition{pig.Def, kuhn.Def} {
		t.Run(def.Name(), func(t *testing.T) {
			s := table.NewMemory()
			seed := "record-" + def.Name()
			lobby(t, s, def, "g", rng.ModeSeeded, seed, 2, nil)
			bots, err := rng.NewSeeded(seed + "/bots")
			require.NoError(t, err)
			moves := playOut(t, s, def, "g", bots, 5000)

			var audit []rng.Entry
			m, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2),
				Auditor: rng.AuditorFunc(func(e rng.Entry) { audit = append(audit, e) })})
			require.NoError(t, err)
			for _, mv := range moves {
				_, err := m.Apply(mv)
				require.NoError(t, err)
			}
			want, err := match.NewRecord(m, audit)
			require.NoError(t, err)
			for _, who := range []string{uid(0), uid(1)} {
				got, err := s.Record("g", who)
				require.NoError(t, err)
				bare := *got
				bare.Decks = nil
				require.Equal(t, jsonOf(t, want), jsonOf(t, &bare))
				require.Equal(t, def == kuhn.Def, got.Decks != nil, "a record has decks when its game shuffled one")
				d, err := match.CheckRecord(def, got)
				require.NoError(t, err)
				require.NoError(t, d)
			}
			if def == kuhn.Def {
				got, err := s.Record("g", uid(0))
				require.NoError(t, err)
				dealt := 0
				for _, line := range got.Log {
					if strings.Contains(string(line), `"`+kuhn.EventDealt+`"`) {
						dealt++
					}
				}
				require.Equal(t, 2, dealt, "each seat's card, opened at the end")
			}
		})
	}
}

// A crypto table's record carries its draws and replays clean; a draw or
// a log line changed is caught.
func TestCryptoTableRecordReplays(t *testing.T) {
	s := table.NewMemory()
	lobby(t, s, pig.Def, "c", rng.ModeCrypto, "", 2, nil)
	bots, err := rng.NewSeeded("crypto-record/bots")
	require.NoError(t, err)
	playOut(t, s, pig.Def, "c", bots, 5000)
	rec, err := s.Record("c", uid(1))
	require.NoError(t, err)
	require.Empty(t, rec.Seed)
	require.NotEmpty(t, rec.Draws)
	d, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, d)

	bad := *rec
	bad.Draws = append([]int64(nil), rec.Draws...)
	bad.Draws[0] = bad.Draws[0]%6 + 1 // another face of the first roll
	d, err = match.CheckRecord(pig.Def, &bad)
	require.True(t, d != nil || err != nil, "a changed draw is caught")

	bad = *rec
	bad.Log = append([]json.RawMessage(nil), rec.Log...)
	bad.Log[len(bad.Log)-1] = json.RawMessage(`{"type":"Won","vals":[0]}`)
	d, err = match.CheckRecord(pig.Def, &bad)
	require.NoError(t, err)
	require.Error(t, d, "a changed log line is caught")
}

// Only a finished game has a record, and only its players and owner get
// it: a stranger is answered as for no table.
func TestTableRecordRefusals(t *testing.T) {
	s := table.NewMemory()
	lobby(t, s, pig.Def, "g", rng.ModeSeeded, "refusals", 2, nil)
	_, err := s.Record("g", uid(0))
	require.ErrorIs(t, err, table.CodeNotFinished, "in play")
	bots, err := rng.NewSeeded("refusals/bots")
	require.NoError(t, err)
	playOut(t, s, pig.Def, "g", bots, 5000)
	_, err = s.Record("g", "stranger")
	require.ErrorIs(t, err, table.CodeNotCreated)
	_, err = s.Record("nope", uid(0))
	require.ErrorIs(t, err, table.CodeNotCreated)

	_, err = s.Create("lobby", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeSeeded, Seed: "x", Seats: 2})
	require.NoError(t, err)
	_, err = s.Do("lobby", table.Action{Actor: uid(0), ActionID: "a", Version: 1, Kind: table.KindAbandon})
	require.NoError(t, err)
	_, err = s.Record("lobby", uid(0))
	require.ErrorIs(t, err, table.CodeNotFinished, "abandoned in its lobby: no game")
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return fmt.Sprint(string(b))
}
