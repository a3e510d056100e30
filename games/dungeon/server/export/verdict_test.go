package export_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	def "github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export/exporttest"
	"github.com/fairboard/fairboard/rng"
)

// The dungeon's definition checks its exports (game.ExportVerifier) and
// gives the three verdicts gamectl verify's exit codes stand for: a
// fair game verifies, a changed roll diverges, and what is no export is
// invalid, a *def.NotAnExport.
func TestVerifyExportVerdicts(t *testing.T) {
	v, ok := dungeon.Def.(def.ExportVerifier)
	require.True(t, ok, "the dungeon checks its exports")
	x := game(t, rng.ModeFair, 2)
	got := def.JudgeExport(v, encode(t, x))
	require.Equal(t, "ok", got.Status, got.Message)
	require.Equal(t, 0, got.Code)
	require.Contains(t, got.Message, "fair game")

	i := exporttest.Find(t, x, engine.EvDiceRolled)
	e := exporttest.Event(t, x, i)
	e.Value = e.Value%e.Sides + 1
	exporttest.SetEvent(x, i, e)
	got = def.JudgeExport(v, encode(t, x))
	require.Equal(t, def.Verdict{Status: "diverged", Code: 1, Message: got.Message}, got)
	require.Contains(t, got.Message, "DiceRolled.value")

	_, d, err := v.VerifyExport([]byte(`{"notes": 1}`))
	require.Nil(t, d)
	var bad *def.NotAnExport
	require.ErrorAs(t, err, &bad)
	got = def.JudgeExport(v, []byte(`{"notes": 1}`))
	require.Equal(t, "invalid", got.Status)
	require.Equal(t, 2, got.Code)
	require.Equal(t, map[string]any{"status": "invalid", "code": 2, "message": err.Error()}, got.Map())
}
