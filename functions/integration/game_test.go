package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/internal/emulator"
)

// players returns n bot players p1..pN with Auth emulator tokens; bots
// alternate cautious and aggressive.
func players(t testing.TB, n int) []functest.Player {
	out := make([]functest.Player, n)
	for i, c := range policy.DefaultClasses(n) {
		var p policy.Policy = policy.Cautious{}
		if i%2 == 1 {
			p = policy.Aggressive{}
		}
		out[i] = functest.Player{UID: policy.UID(i), Token: token(t, policy.UID(i)), Seat: bot.Seat{Class: c, Policy: p}}
	}
	return out
}

var (
	gamectlOnce sync.Once
	gamectlBin  string
	gamectlErr  error
)

// gamectl builds the gamectl binary once per test run.
func gamectl(t testing.TB) string {
	t.Helper()
	gamectlOnce.Do(func() {
		root, err := emulator.RepoRoot()
		if err != nil {
			gamectlErr = err
			return
		}
		dir, err := osMkdirTemp()
		if err != nil {
			gamectlErr = err
			return
		}
		gamectlBin = filepath.Join(dir, "gamectl")
		// -tags cloud: serve on the emulators needs Firestore and the Admin SDK.
		cmd := exec.Command("go", "build", "-tags", "cloud", "-o", gamectlBin, "./cmd/gamectl")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			gamectlErr = fmt.Errorf("go build gamectl: %v\n%s", err, out)
		}
	})
	if gamectlErr != nil {
		t.Fatal(gamectlErr)
	}
	return gamectlBin
}

// TestSeededGameOverHTTPMatchesGamectlPlay plays a whole seeded game over
// HTTP (Auth emulator tokens, Firestore emulator store, one transaction
// per action), each action chosen by a bot from getView's state, and
// checks the log equals `gamectl play --json` with the same seed and bots.
func TestSeededGameOverHTTPMatchesGamectlPlay(t *testing.T) {
	e := newEnv(t, nil)
	const seed = "integration-1"
	ps := players(t, 3)
	got, n, err := functest.PlayBots(context.Background(), e.c, "bot-"+seed, seed, ps, eng.Rules())
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(gamectl(t), "play", "--seed", seed, "--players", "3",
		"--bots", "cautious,aggressive,cautious", "--json").Output()
	if err != nil {
		t.Fatalf("gamectl play: %v", err)
	}
	var b bytes.Buffer
	for i := range got {
		b.Write(got[i].AppendJSON(nil))
		b.WriteByte('\n')
	}
	if b.String() != string(out) {
		t.Fatalf("log over HTTP (%d events, %d actions) differs from gamectl play (%d lines)",
			len(got), n, strings.Count(string(out), "\n"))
	}
	if got[len(got)-2].Type != engine.EvGameFinished || got[len(got)-1].Type != engine.EvFairnessRevealed {
		t.Errorf("last events %s, %s; want GameFinished, FairnessRevealed", got[len(got)-2].Type, got[len(got)-1].Type)
	}
	if st := e.st.Stats(); st.Attempts != st.Transactions {
		t.Errorf("sequential play retried transactions: %+v", st)
	}
	t.Logf("%d actions, %d events, %+v", n, len(got), e.st.Stats())
}

// started creates, fills and starts a seeded game with the players.
func started(t *testing.T, e *env, gameID, seed string, ps []functest.Player, audit bool) {
	t.Helper()
	ctx := context.Background()
	must := func(fn, tok string, d map[string]any) {
		t.Helper()
		if err := e.c.Call(ctx, fn, tok, d, nil); err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
	}
	must("createGame", ps[0].Token, map[string]any{"gameId": gameID, "actionId": "create", "mode": "seeded", "seed": seed, "audit": audit})
	for i, p := range ps {
		must("joinGame", p.Token, map[string]any{"gameId": gameID, "actionId": "join-" + p.UID, "seat": i, "class": p.Seat.Class})
	}
	must("startGame", ps[0].Token, map[string]any{"gameId": gameID, "actionId": "start"})
}

func view(t *testing.T, e *env, gameID, tok string) functest.View {
	t.Helper()
	var v functest.View
	if err := e.c.Call(context.Background(), "getView", tok, map[string]any{"gameId": gameID}, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func eventsJSON(ev []engine.Event) string {
	b, _ := json.Marshal(ev)
	return string(b)
}
