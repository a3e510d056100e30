package pig_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.json from a new seeded game")

// golden is a seeded Pig game pinned for replay and for a second
// implementation: its moves in canonical bytes (what a signature covers),
// the log, the rng audit entries and the final state's hash.
type golden struct {
	Comment     string            `json:"comment"`
	Seed        string            `json:"seed"`
	Seats       int               `json:"seats"`
	Rules       json.RawMessage   `json:"rules"`
	Moves       []string          `json:"moves"`
	Log         []json.RawMessage `json:"log"`
	Audit       []json.RawMessage `json:"audit"`
	StateSHA256 string            `json:"stateSha256"`
}

const goldenPath = "testdata/golden.json"

// record plays g's game (or, with moves, replays them) with the audit on.
func record(t *testing.T, seed string, seats int, moves []game.Move) (*match.Match, []rng.Entry) {
	t.Helper()
	var audit []rng.Entry
	cfg := match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, seats),
		Auditor: rng.AuditorFunc(func(e rng.Entry) { audit = append(audit, e) })}
	if moves != nil {
		m, err := match.Replay(pig.Def, cfg, moves, nil)
		require.NoError(t, err)
		return m, audit
	}
	m, err := match.New(pig.Def, cfg)
	require.NoError(t, err)
	bs, _ := rng.NewSeeded(seed + "/bots")
	bots := []game.Policy{pig.HoldAt(8), pig.HoldAt(15), nil}
	random := match.NewRandom(bs)
	for !m.Over() {
		seat := m.State().ToMove()
		legal := m.State().Legal(seat, nil)
		mv := random.Choose(m.State(), seat, legal)
		if bots[seat] != nil {
			mv = bots[seat].Choose(m.State(), seat, legal)
		}
		_, err := m.Apply(mv)
		require.NoError(t, err)
	}
	return m, audit
}

// The golden game replays byte for byte: log, audit entries, state.
// Rewritten only by "go test ./games/pig -run Golden -update"; never by
// hand (a second implementation checks itself against it).
func TestGolden(t *testing.T) {
	if *update {
		m, audit := record(t, "pig-golden-01", 3, nil)
		g := golden{Comment: "written by go test ./games/pig -run Golden -update: do not edit by hand", Seed: "pig-golden-01", Seats: 3,
			Rules: pig.DefaultRules().CanonicalJSON()}
		fill(&g, m, audit)
		b, err := json.MarshalIndent(g, "", " ")
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(goldenPath, append(b, '\n'), 0o644))
	}
	b, err := os.ReadFile(goldenPath)
	require.NoError(t, err)
	var want golden
	require.NoError(t, json.Unmarshal(b, &want))
	require.JSONEq(t, string(pig.DefaultRules().CanonicalJSON()), string(want.Rules))
	var moves []game.Move
	for _, s := range want.Moves {
		var v struct {
			Seat int    `json:"seat"`
			Kind string `json:"kind"`
		}
		require.NoError(t, json.Unmarshal([]byte(s), &v))
		mv := game.Move{Seat: v.Seat, Kind: v.Kind}
		require.Equal(t, s, string(game.AppendMoveCanonical(nil, pig.Def.Kinds(), mv)), "canonical bytes")
		moves = append(moves, mv)
	}
	m, audit := record(t, want.Seed, want.Seats, moves)
	var got golden
	fill(&got, m, audit)
	require.Equal(t, len(want.Log), len(got.Log))
	for i := range want.Log {
		require.JSONEq(t, string(want.Log[i]), string(got.Log[i]), "log entry %d", i+1)
	}
	require.Equal(t, len(want.Audit), len(got.Audit))
	for i := range want.Audit {
		require.JSONEq(t, string(want.Audit[i]), string(got.Audit[i]), "audit entry %d", i+1)
	}
	require.Equal(t, want.StateSHA256, got.StateSHA256)
	require.True(t, m.Over())
	require.Greater(t, len(want.Moves), 50)
}

func fill(g *golden, m *match.Match, audit []rng.Entry) {
	for _, mv := range m.Moves() {
		g.Moves = append(g.Moves, string(game.AppendMoveCanonical(nil, pig.Def.Kinds(), mv)))
	}
	for _, line := range strings.Split(strings.TrimSpace(string(m.LogJSON())), "\n") {
		g.Log = append(g.Log, json.RawMessage(line))
	}
	for _, e := range audit {
		b, _ := e.MarshalJSON()
		g.Audit = append(g.Audit, b)
	}
	h := sha256.Sum256(match.StateBytes(m.State()))
	g.StateSHA256 = hex.EncodeToString(h[:])
}
