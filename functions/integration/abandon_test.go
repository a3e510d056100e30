package integration

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
)

// errStop stops a game played by functest.Play.
var errStop = errors.New("stop here")

// TestAbandonedFairGamesRevealAndExport (issue 9, section 2: "when the
// game finishes (or is abandoned), the server reveals"): fair games
// abandoned by their owner through act, one in play and one in its lobby,
// on both emulators. Another player's abandon is refused (not_owner). The
// owner's abandon answers GameFinished{outcome: abandoned} and
// FairnessRevealed; the game document read over Firestore REST with a
// seated player's token shows the server seed, which opens the commitment
// the document showed before, and the contributions; the log's last
// document is the reveal; exportGame gives a seated player an export that
// verifies (the game in its lobby with no game seed and no shuffle).
func TestAbandonedFairGamesRevealAndExport(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	ps := players(t, 3)
	entropy := []string{"", "a1b2c3d4", "00ff00ff00ff"}
	for _, c := range []struct {
		id     string
		stopAt uint64 // the version at which the owner abandons
	}{{"abandon-play", 20}, {"abandon-lobby", 3}} {
		t.Run(c.id, func(t *testing.T) {
			g := functest.Game{ID: c.id, Mode: "fair", Entropy: entropy,
				After: func(_ string, _ functest.Player, res json.RawMessage) error {
					var r functest.Result
					if err := json.Unmarshal(res, &r); err != nil {
						return err
					}
					if r.Version == c.stopAt {
						return errStop
					}
					return nil
				}}
			_, _, err := functest.Play(ctx, e.c, g, ps, eng.Rules())
			require.ErrorIs(t, err, errStop)

			tok := ps[1].Token
			before := restField(t, restGet(t, "/games/"+c.id, tok), "fairness", "commitmentHex")
			require.Len(t, before, 64)
			abandon := map[string]any{"gameId": c.id, "actionId": "abandon", "kind": "abandon"}
			err = e.c.Call(ctx, "act", ps[1].Token, abandon, nil)
			st, code := code(err)
			require.Equal(t, []string{"PERMISSION_DENIED", "not_owner"}, []string{st, code}, "%v", err)

			var r functest.Result
			require.NoError(t, e.c.Call(ctx, "act", ps[0].Token, abandon, &r))
			require.GreaterOrEqual(t, len(r.Events), 2)
			fin, rev := r.Events[len(r.Events)-2], r.Events[len(r.Events)-1]
			require.Equal(t, engine.EvGameFinished, fin.Type)
			require.Equal(t, "abandoned", fin.Outcome)
			require.Equal(t, engine.EvFairnessRevealed, rev.Type)

			doc := restGet(t, "/games/"+c.id, tok)
			require.Equal(t, "true", restField(t, doc, "fairness", "revealed"))
			seed := restField(t, doc, "fairness", "serverSeedHex")
			require.Equal(t, before, commitmentOf(t, seed), "the revealed server seed opens the commitment shown before")
			require.Equal(t, before, restField(t, doc, "fairness", "commitmentHex"))
			docs := restLogAfter(t, c.id, rev.Seq-1, tok)
			require.Len(t, docs, 1)
			require.Equal(t, "FairnessRevealed", restField(t, docs[0].raw, "type"))
			require.Contains(t, string(docs[0].raw), seed)

			var raw json.RawMessage
			require.NoError(t, e.c.Call(ctx, "exportGame", ps[1].Token, map[string]any{"gameId": c.id}, &raw))
			rep, err := export.Verify(raw)
			require.NoError(t, err)
			require.True(t, rep.Replayed)
			x, err := export.Decode(raw)
			require.NoError(t, err)
			require.Equal(t, seed, x.Fairness.ServerSeedHex)
			seated := int(min(c.stopAt, uint64(len(ps)+1))) - 1
			require.Equal(t, entropy[:seated], x.Fairness.ContributionsHex)
			require.Equal(t, engine.ActAbandon, x.Actions[len(x.Actions)-1].Kind)
			if c.stopAt <= uint64(len(ps)) {
				require.Empty(t, x.Fairness.GameSeedHex, "abandoned in its lobby")
				require.Empty(t, x.Fairness.Shuffles)
			} else {
				require.Len(t, x.Fairness.GameSeedHex, 64)
				require.NotEmpty(t, x.Fairness.Shuffles)
			}
			t.Logf("%s: %d actions replayed", c.id, rep.Actions)
		})
	}
}
