package service_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service/trustlesstest"
	"github.com/fairboard/fairboard/internal/checks"
)

// crossGameControls runs TestCrossGameReplayRefused's positive controls
// (trustlesstest.CrossGameReplays), each on a fresh pair of twin games:
// with the checks it names off, the replay is refused with the next
// check's code or taken into B (B's start applied; A's reveal staged in
// B).
func crossGameControls(t *testing.T) {
	for k, c := range trustlesstest.CrossGameReplays {
		t.Run(c.Name, func(t *testing.T) {
			for _, x := range c.Off {
				checks.Off(t, x)
			}
			svc, mem, _ := tlService(t)
			ctx := context.Background()
			a := trustlesstest.New(t, svc, fmt.Sprint("tl-atkc-a", k), []string{"p1", "p2"}, 0)
			b := twinTable(t, a, fmt.Sprint("tl-atkc-b", k))
			start := engine.Action{Kind: engine.ActStart, Actor: "p1", Version: a.State.Version, ID: "start"}
			require.NoError(t, a.Seats[0].Sign(&start))
			if !c.Reveal {
				replayed := start
				replayed.ID = "replayed-start"
				v := b.State.Version
				_, err := svc.Do(ctx, b.GameID, replayed)
				require.NoError(t, err, "with %v off, A's start is taken in B", c.Off)
				b.Sync(t)
				require.Greater(t, b.State.Version, v, "B moved")
				require.NotNil(t, b.State.Trustless.Pending, "B started by A's start")
				return
			}
			_, err := svc.Do(ctx, a.GameID, start)
			require.NoError(t, err)
			a.Sync(t)
			b.Start(t)
			rv, err := a.Seats[0].Reveal(a.State, 0)
			require.NoError(t, err)
			rv.ID = "replayed-r1"
			if c.Moved {
				pd := b.State.Trustless.Pending
				rv.Digest, rv.Transcript = pd.Digest.String(), pd.Transcript.String()
			}
			before := snapshot(t, mem, b.GameID, 1)
			res, err := svc.Reveal(ctx, b.GameID, rv)
			if c.Then != "" {
				require.ErrorIs(t, err, c.Then, "with %v off, refused by the next check", c.Off)
				require.Equal(t, before, snapshot(t, mem, b.GameID, 1), "B unchanged")
				return
			}
			require.NoError(t, err, "with %v off, A's reveal is taken in B", c.Off)
			require.True(t, res.Staged)
			staged, err := mem.Staged(ctx, b.GameID, 1)
			require.NoError(t, err)
			require.Len(t, staged, 1)
			require.Equal(t, "p1", staged[0].Actor, "A's reveal staged as p1's in B")
			require.Equal(t, rv.Link, staged[0].Link, "with A's link")
		})
	}
}
