package play_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/internal/browser"
)

// otherTabNote is what a tab that lost a race to another tab of its seat
// says (src/seatact.ts, OTHER_TAB).
const otherTabNote = "This seat moved in another tab; the board is up to date."

// seatBot is a seat of a trustless game played by a Go client (package
// client, a bot policy) through the functions: it signs, reveals and
// checks as the CLI's client does, reading the game with getView.
type seatBot struct {
	uid  string
	done chan error
	// hold, while locked, keeps the bot from choosing its next action
	// (it still reveals): the board stays as it is.
	hold sync.Mutex
}

// heldPolicy is a policy that waits for its bot's hold first.
type heldPolicy struct {
	policy.Policy
	b *seatBot
}

func (h heldPolicy) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	h.b.hold.Lock()
	defer h.b.hold.Unlock()
	return h.Policy.Choose(p, r, uid)
}

// joinBot seats a bot at seat 1 of the game (an anonymous account on the
// Auth emulator) and has it play until the game ends.
//
// The bot is stopped, and its play waited for, before its seat's file and
// directory are removed: a test that ends mid-game (TestTrustlessTabLostRaceInChromium)
// otherwise removed the directory while the bot still wrote there, and
// failed on "directory not empty".
func joinBot(t *testing.T, srv *server, gameID string) *seatBot {
	t.Helper()
	dir := t.TempDir() // first: its removal is the last cleanup
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	uid, tok, err := emu.Auth().SignInAnonymously(ctx)
	require.NoError(t, err)
	cfg := dungeonclient.Config{Functions: &client.Functions{Base: srv.URL, Token: func(context.Context) (string, error) { return tok, nil }},
		UID: uid, GameID: gameID, SecretsFile: filepath.Join(dir, "bot-seat.json"),
		PollEvery: 100 * time.Millisecond, Retry: 50 * time.Millisecond}
	c, err := dungeonclient.Join(ctx, cfg, 1, engine.Classes[1], false)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	b := &seatBot{uid: uid, done: make(chan error, 1)}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		b.done <- c.Play(ctx, heldPolicy{policy.Aggressive{}, b}, nil)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-stopped:
		case <-time.After(browser.Timeout):
			t.Errorf("the bot's client did not stop within %v of its context's end", browser.Timeout)
		}
	})
	return b
}

// finished waits for the bot's play to end and returns its error.
func (b *seatBot) finished(t *testing.T) error {
	t.Helper()
	select {
	case err := <-b.done:
		return err
	case <-time.After(browser.Timeout):
		t.Fatal("the bot's client did not see the game end")
		return nil
	}
}

// twoTabsOfOneSeat: a guest's page creates a trustless game, a second tab
// of the same browser context (the same IndexedDB record and Web Locks)
// opens it, and a bot takes the other seat; the owner's tab starts it
// when start is true.
func twoTabsOfOneSeat(t *testing.T, start bool) (srv *server, tabs [2]*player, b *seatBot) {
	t.Helper()
	t0 := time.Now()
	srv = emuServer(t)
	br := chrome.Browser(t)
	url := srv.URL + "/play/"
	tab1 := newPlayer(t, br, "alice, tab 1", browser.Desktop, url)
	tab1.signInGuest()
	id := tab1.create("trustless", "warrior")
	tab1.uid = tab1.String(`document.querySelector("#players li.me").dataset.uid`)
	tab2 := &player{Page: tab1.NewTab(t), t: t, name: "alice, tab 2", uid: tab1.uid}
	tab2.SetViewport(browser.Desktop)
	tab2.Navigate(url + "#game=" + id)
	tab2.screen("game")
	tab2.WaitFor(`document.getElementById("trust-key").dataset.place === "here"`)
	b = joinBot(t, srv, id)
	tabs = [2]*player{tab1, tab2}
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range tabs {
				t.Logf("%s: status %q, state %+v, trust %+v", p.name, p.String(`document.getElementById("action-status").textContent`), p.state(), p.trust())
			}
		}
	})
	for _, p := range tabs {
		p.WaitFor(`document.querySelectorAll("#players li").length === 2`)
	}
	t.Logf("set up in %v (the emulators' start included, for the package's first test on them)", time.Since(t0).Round(time.Millisecond))
	if start {
		tab1.WaitFor(`document.querySelector('#action-buttons button[data-kind="start"]')`)
		tab1.Click(`#action-buttons button[data-kind="start"]`)
		for _, p := range tabs {
			p.WaitFor(`document.getElementById("game").dataset.phase === "playing"`)
		}
	}
	return srv, tabs, b
}

// tabPrefs are each tab's choice among the offered buttons, by kind (the
// first offered of the list, else the first button): the tabs differ
// where they can (an item used or the step ended; a re-roll or not), so
// that a tab that lost a race sometimes finds its move still legal.
var tabPrefs = [2]string{
	`["start", "resolveCombatRound", "resolveDuelRound", "move", "declineReroll", "endManage", "skipDuel", "discard"]`,
	`["start", "resolveCombatRound", "resolveDuelRound", "useItem", "move", "reroll", "endManage", "skipDuel", "discard"]`,
}

// click clicks the tab's preferred button and returns its kind ("" if
// none is offered).
func click(p *player, prefs string) string { return clickAt(p, prefs, 0) }

// clickAt is click on the board at version v only (any if 0): "" when
// the tab already shows another (the other tab's move came first). An
// irreversible action is confirmed at once (web/play/src/safety.ts).
func clickAt(p *player, prefs string, v int) string {
	var kind string
	p.Eval(fmt.Sprintf(`((prefs, v) => { if (v && +document.getElementById("game").dataset.version !== v) return "";
  const bs = Array.from(document.querySelectorAll("#action-buttons button:not([disabled])"));
  if (!bs.length) return ""; const b = prefs.map((k) => bs.find((x) => x.dataset.kind === k)).find(Boolean) ?? bs[0];
  b.click(); if (["dropItem", "discard"].includes(b.dataset.kind)) document.getElementById("confirm-yes").click();
  return b.dataset.kind; })(%s, %d)`, prefs, v), &kind)
	return kind
}

// seatsMove waits until the game awaits the seat on both tabs (at the
// same version, buttons offered, the first tab with no round open) or has
// finished; it returns that version, or 0 at the end. Either tab may be
// behind the other (a round closed by a reveal while the seat is still
// to move, seen by one tab first): the one behind is waited for until it
// reaches the other's version, and both are read again.
func seatsMove(tabs [2]*player) int {
	const game = `document.getElementById("game").dataset`
	for try := 0; ; try++ {
		require.Less(tabs[0].t, try, 60, "the two tabs never showed the seat's move at one version")
		tabs[0].WaitFor(game + `.phase === "finished" || (` + game + `.mine === "1" && ` + settledRound + `)`)
		s0 := tabs[0].state()
		if s0.Phase == "finished" {
			return 0
		}
		s1 := tabs[1].state()
		v0, _ := strconv.Atoi(s0.Version)
		v1, _ := strconv.Atoi(s1.Version)
		switch {
		case v1 < v0: // the second tab is behind: wait for it
			tabs[1].WaitFor(fmt.Sprintf(`+%s.version >= %d`, game, v0))
		case v1 > v0: // the first tab is behind
			tabs[0].WaitFor(fmt.Sprintf(`+%s.version >= %d`, game, v1))
		case s1.Mine != "1": // the same version, the second tab not yet showing the move
			tabs[1].WaitFor(fmt.Sprintf(`+%[1]s.version !== %[2]d || %[1]s.mine === "1"`, game, v0))
		default:
			if tabs[0].state().Version == s0.Version {
				return v0
			}
		}
	}
}

// settle waits until the tab has no action on its way and shows a game
// past version v, its round closed, and returns its status line; the
// status is never a refusal, nor a problem shown.
func settle(t *testing.T, p *player, v int) string {
	t.Helper()
	p.WaitFor(fmt.Sprintf(`document.getElementById("game").dataset.pending === "" && +document.getElementById("game").dataset.version > %d && (%s)`, v, settledRound))
	status := p.String(`document.getElementById("action-status").textContent`)
	require.NotContains(t, status, "Refused", "%s after version %d", p.name, v)
	require.NotContains(t, status, "failed", "%s after version %d", p.name, v)
	require.Empty(t, p.state().Problem, p.name)
	return status
}

// raceOutcomes counts, over the tabs, the races a tab lost: said (the
// other tab moved) or sent again as a new action.
func raceOutcomes(tabs [2]*player) int {
	n := 0
	for _, p := range tabs {
		var k int
		p.Eval(`+(document.body.dataset.otherTab || 0) + +(document.body.dataset.tabRetries || 0)`, &k)
		n += k
	}
	return n
}

// oneRevealPerIndex: exactly one reveal of each seat and index reached the
// server (by the reveal function, or with the action that drew).
func oneRevealPerIndex(t *testing.T, srv *server) int {
	t.Helper()
	calls := append(srv.revealCalls(), srv.actRevealCalls()...)
	for c, k := range revealCounts(calls) {
		require.Equal(t, 1, k, "reveal %q reached the server %d times", c, k)
	}
	return len(calls)
}

// One trustless seat open in two tabs of a browser, both clicking at
// every move of the seat, at the same instant, through a whole game
// against a bot (a Go client): whichever tab takes the seat's lock
// first acts; the other, once it has the lock, reads the seat's record
// and the game again and either finds its move done or no longer legal
// (it says so: the board is up to date) or still legal (it sends it as a
// new action). No tab is ever left refused or stuck, each reveals from
// the record as it is in the lock (one reveal per seat and index reaches
// the server), the game ends and verifies.
func TestTrustlessTwoTabsRaceInChromium(t *testing.T) {
	pageTest(t, true)
	srv, tabs, b := twoTabsOfOneSeat(t, false)
	races, both, noted := 0, 0, [2]int{}
	kinds := map[string]int{}
	for {
		v := seatsMove(tabs)
		if v == 0 {
			break
		}
		require.Less(t, races, 400, "the game did not end")
		races++
		before := raceOutcomes(tabs)
		var wg sync.WaitGroup
		var got [2]string
		for i, p := range tabs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i] = clickAt(p, tabPrefs[i], v)
			}()
		}
		wg.Wait()
		kinds[got[0]+"/"+got[1]]++
		if got[0] != "" && got[1] != "" {
			both++ // else the late tab's board showed the move made: no race
		}
		var status [2]string
		for i, p := range tabs {
			if status[i] = settle(t, p, v); status[i] == otherTabNote {
				noted[i]++
			}
		}
		if d := raceOutcomes(tabs) - before; got[0] != "" && got[1] != "" && d != 1 {
			t.Errorf("the race at version %d (clicks %q) ended with %d outcomes, not 1 (the loser's note or its new action); statuses %q", v, got, d, status)
		}
	}
	require.NoError(t, b.finished(t))
	st := tabs[0].state()
	var counts [2]struct{ OtherTab, Retries, Reveals string }
	for i, p := range tabs {
		p.Eval(`({otherTab: document.body.dataset.otherTab || "0", retries: document.body.dataset.tabRetries || "0", reveals: document.body.dataset.revealsSent || "0"})`, &counts[i])
	}
	t.Logf("%d moves of the seat, %d clicked in both tabs (clicks tab 1/tab 2: %v); the loser's status read %q just after: tab 1 %d times, tab 2 %d; per tab (1, 2): %+v",
		races, both, kinds, otherTabNote, noted[0], noted[1], counts)
	require.Equal(t, "finished", st.Phase)
	require.Positive(t, noted[0]+noted[1], "a tab that lost a race said so")
	// Each race has one loser, which either said so or sent its move
	// again as a new action (still legal on the fresh board).
	outcomes := 0
	for _, c := range counts {
		o, _ := strconv.Atoi(c.OtherTab)
		r, _ := strconv.Atoi(c.Retries)
		outcomes += o + r
	}
	require.Equal(t, both, outcomes, "every race's loser said the other tab moved, or sent its move again")
	status, msg := tabs[1].verifyInPage()
	require.Equal(t, "ok", status, msg)
	n := oneRevealPerIndex(t, srv)
	t.Logf("%d reveals reached the server, one per seat and index; %d act calls", n, len(srv.actCalls()))
	for _, p := range tabs {
		require.Empty(t, p.state().Problem, p.name)
		p.CheckConsole(expectedConsole...)
	}
}

// The tab that lost a race goes on without a reload: Alice's first tab
// rolls and moves (an action that draws: its reveal goes with it), her
// second tab, clicking "Sleep" on the same board an instant later, waits
// for the seat's lock, finds the move made, and says so in its status
// line (cleared when the game moves on); it then plays the seat's next
// moves alone, a roll among them, each accepted, though its first tab
// revealed for the seat meanwhile (the record in the lock, not a copy
// from before, says which link is next).
func TestTrustlessTabLostRaceInChromium(t *testing.T) {
	pageTest(t, true)
	t0 := time.Now()
	srv, tabs, b := twoTabsOfOneSeat(t, true)
	tab1, tab2 := tabs[0], tabs[1]
	// Tab 1 plays until the seat may roll and move.
	for n := 0; ; n++ {
		require.Less(t, n, 40)
		v := seatsMove(tabs)
		require.NotZero(t, v, "the game ended before the seat could move")
		if slices.ContainsFunc(tab1.offered(), func(b button) bool { return b.Kind == "move" }) {
			break
		}
		click(tab1, tabPrefs[0])
		settle(t, tab1, v)
	}
	v := seatsMove(tabs)
	// Tab 1 clicks first (its click asks for the seat's lock at once),
	// then tab 2, on the board it shows (a click in the page: a mouse
	// click through DevTools takes round trips, and may come after the
	// move has redrawn the board). The bot holds its next move, so
	// that the board stays as the race left it while it is looked at.
	b.hold.Lock()
	require.Equal(t, "move", click(tab1, `["move"]`))
	require.Equal(t, "sleep", click(tab2, `["sleep"]`))
	require.NotEqual(t, otherTabNote, settle(t, tab1, v), "tab 1 made the move")
	require.Equal(t, otherTabNote, settle(t, tab2, v), "tab 2 says the seat moved in another tab")
	require.Equal(t, "1", tab2.String(`document.body.dataset.otherTab || ""`))
	require.Empty(t, tab1.String(`document.body.dataset.otherTab || ""`))
	require.Equal(t, otherTabNote, tab2.String(`document.getElementById("action-status").textContent`), "the note stays while the board does")
	tab2.shot("t5-trustless-tab-lost-race-1280")
	tab2.checkScreen("a tab that lost a race")
	b.hold.Unlock()

	// Tab 2 plays on alone until it has rolled and moved once.
	moved := false
	for n := 0; !moved; n++ {
		require.Less(t, n, 40)
		v := seatsMove(tabs)
		require.NotZero(t, v, "the game ended before tab 2 moved")
		before := len(srv.actCalls())
		kind := click(tab2, `["move", "resolveCombatRound", "resolveDuelRound", "declineReroll", "endManage", "skipDuel", "discard"]`)
		require.NotEmpty(t, kind)
		require.Empty(t, settle(t, tab2, v), "tab 2's %s is answered, and the note is gone once the game moved on", kind)
		require.Greater(t, len(srv.actCalls()), before, "tab 2's %s reached the server", kind)
		moved = kind == "move"
	}
	t.Logf("%v: tab 2 played on after the race, a roll among its moves; reveals sent by tab 1 %d, by tab 2 %d", time.Since(t0).Round(time.Millisecond), tab1.trust().Sent, tab2.trust().Sent)
	oneRevealPerIndex(t, srv)
	for _, p := range tabs {
		require.Empty(t, p.state().Problem, p.name)
		p.CheckConsole(expectedConsole...)
	}
	select {
	case err := <-b.done:
		require.NoError(t, err, "the bot stopped")
	default:
	}
}

// The retry decision of a tab after a refusal (src/seatact.ts), in Node:
// which refusals another tab's progress explains, and when the click is
// sent again as a new action, shown as done, or said as refused.
func TestSeatRaceDecisionInNode(t *testing.T) {
	runNodeTest(t, "seatact")
}
