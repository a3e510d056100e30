package verify_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/kuhn"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/web/verify/judge"
)

// serverSeed is the fair tables' server seed; its commitment is taken
// from rng/fair's vectors (testdata/vectors.json, written by Node's
// crypto), not from the code under test.
const (
	serverSeed   = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	commitmentOf = "f0801414b8cc0d61808ff1e53fb4c28927019c291603fc3ce7012e67e01b8f82"
)

// playTable plays a table of def to its end on the table package's
// memory store, two seats moved by a seeded random bot, and returns its
// record as exportGame answers it (JSON).
func playTable(t *testing.T, def game.Definition, mode rng.Mode) []byte {
	t.Helper()
	s := table.NewMemory()
	req := table.CreateRequest{Actor: "alice", ActionID: "create", Mode: mode, Seats: 2}
	if mode == rng.ModeFair {
		req.ServerSeed = serverSeed
	}
	_, err := s.Create("g", def, req)
	require.NoError(t, err)
	v := uint64(1)
	for i, who := range []string{"alice", "bob"} {
		a := table.Action{Actor: who, ActionID: "join", Version: v, Kind: table.KindJoin, Seat: i}
		if mode == rng.ModeFair {
			a.Entropy = []string{"c0ffee", ""}[i]
		}
		res, err := s.Do("g", a)
		require.NoError(t, err)
		v = res.Version
	}
	_, err = s.Do("g", table.Action{Actor: "alice", ActionID: "start", Version: v, Kind: table.KindStart})
	require.NoError(t, err)
	bots, err := rng.NewSeeded("verify/bots")
	require.NoError(t, err)
	bot := match.NewRandom(bots)
	for n := 0; ; n++ {
		require.Less(t, n, 5000, "the game never ended")
		pub, err := s.View("g", "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			break
		}
		who := pub.Seats[pub.ToMove].UID
		sv, err := s.View("g", who)
		require.NoError(t, err)
		mv := bot.Choose(nil, sv.Seat, sv.Legal)
		_, err = s.Do("g", table.Action{Actor: who, ActionID: fmt.Sprintf("m%d", n), Version: sv.Version,
			Kind: table.KindMove, Move: game.AppendMoveJSON(nil, def.Kinds(), mv)})
		require.NoError(t, err)
	}
	rec, err := s.Record("g", "bob")
	require.NoError(t, err)
	b, err := json.Marshal(rec)
	require.NoError(t, err)
	return b
}

// editRecord decodes a record's JSON, changes it and encodes it again.
func editRecord(t *testing.T, b []byte, edit func(r *match.Record)) []byte {
	t.Helper()
	r, err := match.ReadRecord(b)
	require.NoError(t, err)
	edit(r)
	out, err := json.Marshal(r)
	require.NoError(t, err)
	return out
}

// changeRoll changes the value of the first Pig roll of the log that is
// not a 1 (a 1 would change the turn total too).
func changeRoll(t *testing.T) func(r *match.Record) {
	return func(r *match.Record) {
		for i, line := range r.Log {
			var e map[string]any
			require.NoError(t, json.Unmarshal(line, &e))
			if e["type"] == "Rolled" && e["value"] != float64(1) && e["value"] != float64(6) {
				e["value"] = e["value"].(float64) + 1
				b, err := json.Marshal(e)
				require.NoError(t, err)
				r.Log[i] = b
				return
			}
		}
		t.Fatal("no roll to change")
	}
}

// The verifier page's entry point (judge.File, what verify.wasm runs)
// on table games' records, as exportGame gives them: a fair Pig game and
// a crypto Kuhn poker hand check out; a changed roll, a server seed that
// does not open the commitment, a changed contribution and a changed
// draw are divergences; a record of a game this verifier does not know,
// a malformed one and a file that is neither record nor export are not
// game files. The exports' verdicts are export.Judge's, unchanged.
func TestJudgeRecords(t *testing.T) {
	pigFair := playTable(t, pig.Def, rng.ModeFair)
	r, err := match.ReadRecord(pigFair)
	require.NoError(t, err)
	require.Equal(t, commitmentOf, r.Fairness.CommitmentHex, "the table's commitment is rng/fair's vector")
	kuhnCrypto := playTable(t, kuhn.Def, rng.ModeCrypto)

	for _, c := range []struct {
		name, status, want string
		data               []byte
	}{
		{"fair pig", "ok", "ok: pig record (fair game): " + fmt.Sprint(len(r.Moves)) + " moves replayed", pigFair},
		{"crypto kuhn", "ok", "ok: kuhn record (crypto game)", kuhnCrypto},
		{"changed roll", "diverged", "diverges at", editRecord(t, pigFair, changeRoll(t))},
		{"other server seed", "diverged", "commitment", editRecord(t, pigFair, func(r *match.Record) {
			r.Fairness.ServerSeedHex = strings.Repeat("5e", 32)
		})},
		{"changed contribution", "diverged", "game seed", editRecord(t, pigFair, func(r *match.Record) {
			r.Fairness.ContributionsHex[0] = "c0ffef"
		})},
		{"changed draw", "", "", editRecord(t, kuhnCrypto, func(r *match.Record) {
			r.Draws[0] = (r.Draws[0] + 1) % 3
		})},
		{"unknown game", "invalid", `unknown game "chess"`, editRecord(t, pigFair, func(r *match.Record) { r.Game = "chess" })},
		{"malformed", "invalid", "not a readable game record", []byte(`{"format":"fairboard-game/v1","game":"pig","extra":1}`)},
		{"neither", "invalid", "not a fairboard-export/v1 export", []byte(`{"notes":"no game"}`)},
	} {
		v := judge.File(c.data)
		if c.status == "" { // a changed draw: a divergence, or a draw the rules refuse
			require.NotEqual(t, "ok", v.Status, "%s: %s", c.name, v.Message)
			continue
		}
		require.Equal(t, c.status, v.Status, "%s: %s", c.name, v.Message)
		require.Contains(t, v.Message, c.want, c.name)
		require.Equal(t, map[string]int{"ok": 0, "diverged": 1, "invalid": 2}[c.status], v.Code, c.name)
		t.Logf("%s: %s: %s", c.name, v.Status, v.Message)
	}

	// The positive control of the commitment check: the commitment and
	// the server seed changed together (the commitment computed here from
	// the new seed) pass the commitment and fail further on, at the game
	// seed.
	other := strings.Repeat("5e", 32)
	ob, err := hex.DecodeString(other)
	require.NoError(t, err)
	oc := fair.Commitment(ob)
	v := judge.File(editRecord(t, pigFair, func(r *match.Record) {
		r.Fairness.ServerSeedHex, r.Fairness.CommitmentHex = other, hex.EncodeToString(oc[:])
	}))
	require.Equal(t, "diverged", v.Status)
	require.NotContains(t, v.Message, "commitment", v.Message)
}

// writeRecords writes a fair Pig game's record and a copy with one roll
// changed, for the page's test.
func writeRecords(t *testing.T, dir string) (good, bad string) {
	t.Helper()
	b := playTable(t, pig.Def, rng.ModeFair)
	good, bad = filepath.Join(dir, "pig-record.json"), filepath.Join(dir, "pig-record-tampered.json")
	require.NoError(t, os.WriteFile(good, b, 0o644))
	require.NoError(t, os.WriteFile(bad, editRecord(t, b, changeRoll(t)), 0o644))
	return good, bad
}
