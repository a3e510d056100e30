package export_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/export/exporttest"
	"github.com/fairboard/fairboard/rng"
)

// Judge gives the three verdicts gamectl verify's exit codes stand for.
func TestJudge(t *testing.T) {
	x := game(t, rng.ModeFair, 2)
	v := export.Judge(encode(t, x))
	require.Equal(t, "ok", v.Status, v.Message)
	require.Equal(t, 0, v.Code)
	require.Contains(t, v.Message, "fair game")

	i := exporttest.Find(t, x, engine.EvDiceRolled)
	e := exporttest.Event(t, x, i)
	e.Value = e.Value%e.Sides + 1
	exporttest.SetEvent(x, i, e)
	v = export.Judge(encode(t, x))
	require.Equal(t, export.Verdict{Status: "diverged", Code: 1, Message: v.Message}, v)
	require.Contains(t, v.Message, "DiceRolled.value")

	v = export.Judge([]byte(`{"notes": 1}`))
	require.Equal(t, "invalid", v.Status)
	require.Equal(t, 2, v.Code)
	require.Equal(t, map[string]any{"status": "invalid", "code": 2, "message": v.Message}, v.Map())
}
