package dungeon_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// The default ruleset is the engine's: its hash, its canonical JSON (whose
// SHA-256 is the hash, and which decodes to the same ruleset), and the
// embedded default.json decodes to it too.
func TestDefaultRuleset(t *testing.T) {
	r := dungeon.Def.DefaultRuleset()
	require.Equal(t, "dungeon", r.Game())
	require.Equal(t, engine.DefaultRules().Hash(), r.Hash())
	require.Equal(t, game.HashJSON(r.CanonicalJSON()), r.Hash())
	for _, data := range [][]byte{r.CanonicalJSON(), engine.DefaultRulesJSON()} {
		d, err := dungeon.Def.DecodeRuleset(data)
		require.NoError(t, err)
		require.Equal(t, r.Hash(), d.Hash())
	}
}

// Every Param's default is the default ruleset's number at its path, read
// by sim's own path reader from default.json.
func TestParamsDefaults(t *testing.T) {
	for _, p := range dungeon.Def.Params() {
		v, err := sim.ParamValue(engine.DefaultRulesJSON(), p.Path)
		require.NoError(t, err, p.Path)
		require.Equal(t, v, p.Default, p.Path)
	}
}

// Every Param's range is the engine's to accept: each number at its
// minimum and its maximum decodes (game.WithNumber), and so do all of
// them at their minimum together, and at their maximum together; just
// outside the range is refused with bad_ruleset naming the path.
func TestParamsRanges(t *testing.T) {
	def := dungeon.Def
	base := def.DefaultRuleset()
	ps := def.Params()
	allMin, allMax := base, base
	for _, p := range ps {
		for _, v := range []float64{p.Min, p.Max} {
			_, err := game.WithNumber(def, base, p.Path, v)
			require.NoError(t, err, "%s = %g", p.Path, v)
		}
		for _, v := range []float64{p.Min - 1, p.Max + 1, p.Min + 0.5} {
			_, err := game.WithNumber(def, base, p.Path, v)
			require.ErrorIs(t, err, game.CodeBadRuleset, "%s = %g", p.Path, v)
			require.ErrorContains(t, err, p.Path)
		}
		var err error
		allMin, err = game.WithNumber(def, allMin, p.Path, p.Min)
		require.NoError(t, err, p.Path)
		allMax, err = game.WithNumber(def, allMax, p.Path, p.Max)
		require.NoError(t, err, p.Path)
	}
	// Each extreme ruleset plays: whole random games under it, through the
	// machinery, end with every state checked at the end.
	for _, r := range []game.Ruleset{allMin, allMax} {
		for _, seed := range []string{"extreme-1", "extreme-2"} {
			m, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 6), Rules: r})
			require.NoError(t, err)
			bots := match.NewRandom(mustSeeded(t, seed+"/bots"))
			var legal []game.Move
			for n := 0; !m.Over(); n++ {
				require.Less(t, n, 1_000_000, "a game that does not end")
				st := m.State()
				legal = st.Legal(st.ToMove(), legal)
				_, err := m.Apply(bots.Choose(st, st.ToMove(), legal))
				require.NoError(t, err)
			}
			require.NoError(t, m.State().Check())
		}
	}
}

// A bad ruleset is refused with an *Error of bad_ruleset naming the
// problem: a field the engine does not know, a repeated key, trailing
// data, a number the engine's validation refuses, a Param out of its
// range, more seats than the definition takes.
func TestDecodeRulesetRefusals(t *testing.T) {
	def := engine.DefaultRulesJSON()
	set := func(path string, v float64) []byte {
		b, err := sim.ParamsJSON(def, sim.Param{Path: path, Value: v})
		require.NoError(t, err)
		return b
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"unknown field", bytes.Replace(def, []byte(`"startHp"`), []byte(`"startHP2": 3, "startHp"`), 1), "startHP2"},
		{"repeated key", bytes.Replace(def, []byte(`"startHp": 10`), []byte(`"startHp": 10, "startHp": 9`), 1), "startHp"},
		{"trailing data", append(append([]byte(nil), def...), "{}"...), "after"},
		{"engine validation", set("maxHp", 0), "maxHp"},
		{"param range", set("dice.move", 101), "dice.move"},
		{"too many seats", set("maxPlayers", 8), "maxPlayers 8: the dungeon seats at most 6"},
		{"too few seats", set("minPlayers", 1), "minPlayers"},
		{"not JSON", []byte("{"), "decoding"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := dungeon.Def.DecodeRuleset(c.data)
			var ge *game.Error
			require.True(t, errors.As(err, &ge), "%v", err)
			require.Equal(t, game.CodeBadRuleset, ge.Code)
			require.ErrorContains(t, err, c.want)
		})
	}
}

// The canonical JSON is encoding/json of the engine ruleset: it has every
// top-level key of default.json.
func TestCanonicalJSONKeys(t *testing.T) {
	var want, got map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(engine.DefaultRulesJSON(), &want))
	require.NoError(t, json.Unmarshal(dungeon.DefaultRules().CanonicalJSON(), &got))
	for k := range want {
		require.Contains(t, got, k)
	}
}
