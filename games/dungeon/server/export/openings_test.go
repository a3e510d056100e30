package export_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/export/exporttest"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

// TestFairOpeningsExport: a fair game with openings exports and verifies
// (every opening is replayed, so each contribution must open its seat's
// commitment), and a copy whose opened contribution was changed, in the
// open action and the reveal alike, is refused.
func TestFairOpeningsExport(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.Record = true
	var contributions []string
	for i := range 3 {
		c := sha256.Sum256([]byte{'c', byte(i)})
		contributions = append(contributions, hex.EncodeToString(c[:]))
	}
	var g engine.Game
	require.NoError(t, r.PlayWith(&g, bot.Config{Create: engine.Action{GameID: "openings", Mode: "fair",
		ServerSeed: serverSeed, Openings: true}, Entropy: contributions}, seats(3)))
	require.True(t, g.Public.Fairness.Openings)
	x, err := export.Build(&g, eng.Rules(), r.Actions(), r.Events())
	require.NoError(t, err)
	good := encode(t, x)
	rep, err := export.Verify(good)
	require.NoError(t, err)
	require.Contains(t, rep.Summary(), "ok: fair game openings")

	bad := mutate(t, good, func(x *export.Export) {
		other := strings.Repeat("ee", 32)
		for i := range x.Actions {
			if x.Actions[i].Kind == engine.ActOpen && x.Actions[i].Actor == "p2" {
				x.Actions[i].Entropy = other
			}
		}
		x.Fairness.ContributionsHex[1] = other
		last := len(x.Log) - 1
		e := exporttest.Event(t, x, last)
		e.Fair.ContributionsHex[1] = other
		exporttest.SetEvent(x, last, e)
	})
	_, err = export.Verify(bad)
	var d *export.Divergence
	require.True(t, errors.As(err, &d), "%v", err)
	require.Contains(t, err.Error(), "the contribution does not open the commitment its seat published at join")
}
