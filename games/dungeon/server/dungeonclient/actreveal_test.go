package dungeonclient_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
)

// sleeper sleeps whenever it may and otherwise plays as cautious: after a
// restart it would choose another action than a move.
type sleeper struct{}

func (sleeper) Name() string { return "sleeper" }
func (sleeper) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	if p.Step == engine.StepMoveOrSleep {
		return engine.Action{Kind: engine.ActSleep, Actor: uid}
	}
	return policy.Cautious{}.Choose(p, r, uid)
}

// TestActWithItsRevealRefusedThenSentAgain: a server that refuses an
// action sent with its reveal (the link has left: the index can serve no
// other action) stops the client with an error that says so; the client
// resumed from its secrets file sends that same action with that same
// reveal again, never another action at that version (its new policy
// would sleep), and the game goes on to its end.
func TestActWithItsRevealRefusedThenSentAgain(t *testing.T) {
	d, url := newDouble(t)
	type sent struct {
		a  engine.Action
		rv functions.ActReveal
	}
	var mu sync.Mutex
	var acts []sent
	refused := false
	d.actReveal = func(a engine.Action, rv functions.ActReveal) error {
		mu.Lock()
		defer mu.Unlock()
		acts = append(acts, sent{a, rv})
		if !refused && rv.Index >= 2 {
			refused = true
			return &callable.Error{Status: callable.StatusFailedPrecondition, Message: "the game moved on", Details: map[string]string{"code": string(engine.CodeStaleVersion)}}
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	require.NoError(t, devFunctions(url, "p1").Call(ctx, "createGame", map[string]any{"gameId": "tl-double", "mode": "trustless"}, nil))
	dir := t.TempDir()
	cfg := func(uid string) dungeonclient.Config {
		return dungeonclient.Config{Functions: devFunctions(url, uid), UID: uid, GameID: "tl-double",
			SecretsFile: filepath.Join(dir, uid+".json"), Retry: 10 * time.Millisecond, PollEvery: 5 * time.Millisecond}
	}
	cs := make([]*dungeonclient.Client, 2)
	for i := range cs {
		c, err := dungeonclient.Join(ctx, cfg(policy.UID(i)), i, engine.Classes[i], false)
		require.NoError(t, err)
		cs[i] = c
	}
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	play := func(c *dungeonclient.Client, pol policy.Policy) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- c.Play(ctx, pol, func(p *engine.Public) bool { return len(p.Players) == 2 })
		}()
	}
	for _, c := range cs {
		play(c, policy.Cautious{})
	}
	err := <-errs
	require.Error(t, err)
	require.Contains(t, err.Error(), "that index can serve no other action")
	var lie *client.Lie
	require.False(t, errors.As(err, &lie), "a refusal is not a lie")
	mu.Lock()
	first := acts[len(acts)-1]
	mu.Unlock()
	who := first.a.Actor
	// The stopped seat's client, resumed from its file, with a policy that
	// would sleep where the first chose to move.
	r, err := dungeonclient.Resume(ctx, cfg(who))
	require.NoError(t, err)
	play(r, sleeper{})
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Equal(t, engine.PhaseFinished, d.g.Public.Phase)
	mu.Lock()
	defer mu.Unlock()
	n := 0
	for _, x := range acts {
		if x.a.Actor == who && x.a.Version == first.a.Version {
			n++
			require.Equal(t, first, x, "the action sent at version %d", first.a.Version)
		}
	}
	require.Equal(t, 2, n, "the action with its reveal, refused, then sent again")
}
