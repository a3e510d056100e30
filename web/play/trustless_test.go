package play_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/web/play/bundle"
)

// settledRound: the page shows no reveal round open.
const settledRound = `document.getElementById("trust-deadline").dataset.deadline === ""`

// trustState is what a page shows of a trustless game.
type trustState struct {
	Round, Deadline, Waiting, Key, Place, Background string
	Sent                                             int
}

func (p *player) trust() trustState {
	var s trustState
	p.Eval(`(() => { const d = (id) => document.getElementById(id); return {
  round: d("trust-round").textContent, deadline: d("trust-deadline").textContent, waiting: d("trust-round").dataset.waiting || "",
  key: d("trust-key").textContent, place: d("trust-key").dataset.place || "", background: d("trust-background").hidden ? "" : d("trust-background").textContent,
  sent: +(document.body.dataset.revealsSent || 0) }; })()`, &s)
	return s
}

// A trustless game played by two players through their pages, to its
// end, on the emulators: each seat's chain and key are drawn and kept in
// its browser, every action is signed there, every reveal is made by the
// page after checking the applied action with the engine's WebAssembly,
// and the game is verified in the page. Alice plays in two tabs (one
// Web Lock and one IndexedDB record per seat: exactly one reveal per
// index reaches the server) and signs in on a second device too (which
// says the seat's key is elsewhere and never reveals); Bob goes offline
// while a round waits for him (the round, whom it waits for and the
// deadline are shown and photographed), and reloads mid-game.
func TestTrustlessGameInChromium(t *testing.T) {
	pageTest(t, true)
	srv := emuServer(t)
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	alice := newPlayer(t, b, "alice", browser.Desktop, url)
	bob := newPlayer(t, b, "bob", browser.Phone, url)
	email := "alice-tl-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com"
	alice.signInEmail(email, "correct horse battery")
	bob.signInGuest()

	m := &match{t: t, base: srv.URL, players: []*player{alice, bob}, settled: settledRound}
	id := m.lobby("trustless", func() {
		require.Contains(t, alice.String(`document.getElementById("mode-line").textContent`), "Mode: trustless")
		require.Equal(t, "here", alice.trust().Place)
	})
	require.Contains(t, bob.trust().Key, "non-extractable WebCrypto Ed25519 key")

	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range []*player{alice, bob} {
				t.Logf("%s: status %q, trust %+v, problem %q", p.name, p.String(`document.getElementById("action-status").textContent`), p.trust(), p.state().Problem)
			}
		}
	})
	// Alice's second tab: the same browser context (the same IndexedDB and
	// Web Locks), following the same game and revealing when due.
	tab2 := &player{Page: alice.NewTab(t), t: t, name: "alice, second tab", uid: alice.uid}
	tab2.SetViewport(browser.Desktop)
	tab2.Navigate(url + "#game=" + id)
	tab2.screen("game")
	tab2.WaitFor(`document.getElementById("trust-key").dataset.place === "here"`)

	// Alice's second device: her account, without the seat's secrets.
	other := newPlayer(t, b, "alice elsewhere", browser.Desktop, url)
	other.screen("signin")
	other.Type("#email", email)
	other.Type("#password", "correct horse battery")
	other.Click("#email-signin")
	other.screen("lobby")
	other.open(srv.URL, id)
	other.screen("game")
	other.WaitFor(`document.getElementById("trust-key").dataset.place === "elsewhere"`)
	require.Contains(t, strings.ToLower(other.trust().Key), "this seat's key is on another device")
	require.Empty(t, other.offered(), "no action without the seat's key")

	m.onMove = func(n int, _ *player, _ button) {
		switch n {
		case 8:
			// Bob reloads: the page takes his seat's secrets from IndexedDB,
			// replays the log and plays on.
			bob.Reload()
			bob.screen("game")
			bob.WaitFor(`document.getElementById("trust-key").dataset.place === "here" && document.getElementById("game").dataset.phase === "playing"`)
			require.Empty(t, bob.state().Problem)
			ready, first := bob.String(`document.body.dataset.readyMs`), bob.String(`document.body.dataset.firstBoardMs`)
			t.Logf("after a reload mid-game: engine and config ready %s ms after the navigation started, first board at %s ms", ready, first)
		case 30:
			bob.shot("t2-trustless-board-390")
			bob.checkScreen("trustless board at 390 px")
		}
	}
	// Play until Alice may roll and move (an action that draws)...
	m.stopWhen = func() bool { return aliceMayMove(alice) }
	played := m.play(3000)
	require.Equal(t, "playing", alice.state().Phase)
	// ...with Bob offline: the round waits for his reveal, and every page
	// says so, with the deadline counting down.
	offline(t, bob, true)
	bob.WaitFor(`document.getElementById("net").dataset.state === "offline"`)
	alice.Click(`#action-buttons button[data-kind="move"]`)
	for _, p := range []*player{alice, tab2, other} {
		p.WaitFor(`document.getElementById("trust-round").dataset.waiting === ` + strconv.Quote(bob.uid))
		ts := p.trust()
		require.Contains(t, ts.Round, "waits for the reveals of")
		require.Regexp(t, `Reveal deadline: \d+ s left`, ts.Deadline)
	}
	// Alice's second tab goes to the background (document.hidden, as a
	// phone's browser sets it, set here through DevTools): it says what
	// will happen to the deadline; its title says no reveal is due (hers
	// is in).
	tab2.Eval(`Object.defineProperty(document, "hidden", {configurable: true, get: () => true}); document.dispatchEvent(new Event("visibilitychange")); true`, nil)
	tab2.WaitFor(`document.getElementById("trust-background").textContent.startsWith("This page is in the background")`)
	require.Contains(t, tab2.trust().Background, "if its deadline passes first, the server aborts the game")
	require.Equal(t, "fairboard: play", tab2.String(`document.title`))
	tab2.Eval(`delete document.hidden; document.dispatchEvent(new Event("visibilitychange")); true`, nil)
	tab2.WaitFor(`document.getElementById("trust-background").textContent.startsWith("Keep this page open")`)
	alice.shot("t1-trustless-round-waiting-1280")
	other.shot("t1b-trustless-key-elsewhere-1280")
	alice.checkScreen("trustless round waiting at 1280 px")
	require.Empty(t, alice.offered(), "the game takes nothing but reveals while a round is open")
	offline(t, bob, false)
	for _, p := range m.players {
		p.WaitFor(settledRound)
	}
	m.stopWhen = nil
	n := played + 1 + m.play(3000)
	t.Logf("trustless game %s: %d actions", id, n)
	alice.shot("t3-trustless-end-1280")
	status, msg := bob.verifyInPage()
	require.Equal(t, "ok", status, msg)
	require.Contains(t, msg, "trustless")
	status, msg = alice.verifyInPage()
	require.Equal(t, "ok", status, msg)

	// Exactly one reveal per seat and index reached the server (by the
	// reveal function, or with the action that drew), though Alice's two
	// tabs both followed the game; her other device sent none.
	calls, acted := srv.revealCalls(), srv.actRevealCalls()
	require.NotEmpty(t, acted, "the actions that drew went with their reveals")
	for c, k := range revealCounts(append(slices.Clone(calls), acted...)) {
		require.Equal(t, 1, k, "reveal %q reached the server %d times", c, k)
	}
	var aliceSeat int
	for _, c := range calls {
		if strings.HasPrefix(c, "0 ") {
			aliceSeat++
		}
	}
	t1, t2 := alice.trust().Sent, tab2.trust().Sent
	t.Logf("%d reveals, and %d with their actions; Alice's: %d, sent by her first tab %d and her second %d", len(calls), len(acted), aliceSeat, t1, t2)
	require.Equal(t, aliceSeat, t1+t2, "every reveal of Alice's seat came from one of her tabs, once")
	require.NotZero(t, t2, "the second tab revealed too (the lock is taken by either)")
	require.Zero(t, other.trust().Sent, "the device without the seat's key never revealed")
	for _, p := range []*player{alice, bob, tab2, other} {
		require.Empty(t, p.state().Problem, p.name)
	}
	alice.CheckConsole(expectedConsole...)
	tab2.CheckConsole(expectedConsole...)
	other.CheckConsole(expectedConsole...)
	bob.CheckConsole(append(expectedConsole, regexp.MustCompile(`net::ERR_INTERNET_DISCONNECTED`),
		regexp.MustCompile(`net::ERR_\w+ \(https://www\.google\.com/images/cleardot\.gif\?`),
		regexp.MustCompile(`@firebase/firestore: Firestore \(.*\): (WebChannelConnection RPC '\w+' stream .* transport errored|Could not reach Cloud Firestore backend)`))...)
	p50, p95 := percentiles(m.latency)
	t.Logf("trustless: click to the board updated (the round closed) on the other player's page: p50 %v, p95 %v over %d actions", p50, p95, len(m.latency))
}

// A tampered applied action, written to the Firestore emulator behind
// the server's back (the last applied action replayed as a new log
// document), is named on every page of the game, which then offers no
// action and reveals nothing more; before it, the same pages found
// nothing wrong (the positive control).
func TestTrustlessTamperedLogInChromium(t *testing.T) {
	pageTest(t, true)
	srv := emuServer(t)
	ann, ben := twoGuests(t, srv)
	m := &match{t: t, base: srv.URL, players: []*player{ann, ben}, settled: settledRound, stopAfter: 6}
	id := m.lobby("trustless", nil)
	m.play(1000)
	for _, p := range m.players {
		p.WaitFor(settledRound)
		require.Empty(t, p.state().Problem, "%s before the tampering", p.name)
	}

	ctx := context.Background()
	fc := emu.Client(t)
	game := fc.Collection("games").Doc(id)
	snap, err := game.Get(ctx)
	require.NoError(t, err)
	last, ok := snap.Data()["logSeq"].(int64)
	require.True(t, ok, "logSeq: %T", snap.Data()["logSeq"])
	// The log document holding the last event, and in it the last
	// applied action's record.
	// (a document per applied action, its id the seq of its last event).
	doc, err := game.Collection("log").Doc(fmt.Sprintf("%020d", last)).Get(ctx)
	require.NoError(t, err)
	evs, _ := doc.Data()["events"].([]any)
	var rec map[string]any
	for _, e := range evs {
		if m, _ := e.(map[string]any); m != nil && (m["type"] == "ActionAccepted" || m["type"] == "RoundRevealed") {
			rec = m
		}
	}
	require.NotNil(t, rec, "the last log document holds an applied action: %v", doc.Data())
	forged := map[string]any{}
	for k, v := range rec {
		forged[k] = v
	}
	forged["seq"] = last + 1
	_, err = game.Collection("log").Doc(fmt.Sprintf("%020d", last+1)).Set(ctx, map[string]any{"events": []any{forged}})
	require.NoError(t, err)

	for _, p := range m.players {
		p.WaitFor(`!document.getElementById("problem").hidden`)
		pr := p.state().Problem
		require.Contains(t, pr, "This game cannot be trusted")
		require.Contains(t, pr, fmt.Sprintf("event %d", last+1), "%s names the forged event", p.name)
		require.Empty(t, p.offered(), "%s offers no action after a lie", p.name)
		t.Logf("%s: %s", p.name, pr)
	}
	ann.shot("t4-trustless-tampered-1280")
	// A page opened afterwards names it too.
	ann.Reload()
	ann.screen("game")
	ann.WaitFor(`!document.getElementById("problem").hidden`)
	require.Contains(t, ann.state().Problem, fmt.Sprintf("event %d", last+1))
	for _, p := range m.players {
		p.CheckConsole(expectedConsole...)
	}
}

// The positive control of the two tabs' check: the page built without
// its seat guard (--define:SEAT_GUARD=false: a reveal the round's markers
// show, or the seat's record holds as acknowledged, is sent again) sends
// an index of Alice's seat twice while a round waits for Bob, and the
// count TestTrustlessGameInChromium requires to be one per seat and index
// catches it.
func TestTrustlessTwoTabsControlInChromium(t *testing.T) {
	var variant []byte
	pageTestAfter(t, true, func() { // the build before the test's turn
		out := filepath.Join(t.TempDir(), "app.js")
		require.NoError(t, bundle.Build(out, "--define:SEAT_GUARD=false"))
		var err error
		variant, err = os.ReadFile(out)
		require.NoError(t, err)
		shipped, err := os.ReadFile("static/app.js")
		require.NoError(t, err)
		require.NotEqual(t, len(shipped), len(variant), "the variant is another page")
	})

	srv := emuServer(t)
	srv.appJS = variant
	alice, bob := twoGuests(t, srv)
	url := srv.URL + "/play/"
	m := &match{t: t, base: srv.URL, players: []*player{alice, bob}, settled: settledRound}
	id := m.lobby("trustless", nil)
	tab2 := &player{Page: alice.NewTab(t), t: t, name: "alice, second tab", uid: alice.uid}
	tab2.SetViewport(browser.Desktop)
	tab2.Navigate(url + "#game=" + id)
	tab2.WaitFor(`document.getElementById("trust-key").dataset.place === "here"`)
	m.stopWhen = func() bool { return aliceMayMove(alice) }
	m.play(200)
	offline(t, bob, true)
	bob.WaitFor(`document.getElementById("net").dataset.state === "offline"`)
	alice.Click(`#action-buttons button[data-kind="move"]`)
	tab2.WaitFor(`document.getElementById("trust-round").dataset.waiting === ` + strconv.Quote(bob.uid))
	// The round stays open while Bob is away: the variant's pages send
	// Alice's reveal again at each thing they read.
	tab2.WaitFor(`+(document.body.dataset.revealsSent || 0) >= 1`)
	require.Eventually(t, func() bool {
		for _, k := range revealCounts(srv.revealCalls()) {
			if k > 1 {
				return true
			}
		}
		return false
	}, 30*time.Second, 100*time.Millisecond, "without the guard, an index of Alice's seat reached the server twice: %v", srv.revealCalls())
	srv.mu.Lock()
	served := srv.variantServed
	srv.mu.Unlock()
	require.GreaterOrEqual(t, served, 3, "every page ran the variant")
	offline(t, bob, false)
}

// aliceMayMove reports whether the page's player may roll and move now
// (an action that draws), waiting for the page to offer its actions.
func aliceMayMove(alice *player) bool {
	if alice.String(`document.getElementById("game").dataset.awaiting`) != alice.uid {
		return false
	}
	alice.WaitFor(`document.getElementById("game").dataset.mine === "1" || document.getElementById("game").dataset.phase === "finished"`)
	for _, b := range alice.offered() {
		if b.Kind == "move" {
			return true
		}
	}
	return false
}

// revealCounts counts the reveal calls per "seat index".
func revealCounts(calls []string) map[string]int {
	n := map[string]int{}
	for _, c := range calls {
		n[c]++
	}
	return n
}

// A reveal whose answer is lost (the server stages it, then the
// connection closes before any byte of the answer) is sent again by the
// page with the same action id: the server answers it as the first time,
// the round closes with one reveal of that seat, and the game goes on
// with no problem on any page.
func TestTrustlessRevealRetriedInChromium(t *testing.T) {
	pageTest(t, true)
	srv := emuServer(t)
	ann, ben := twoGuests(t, srv)
	m := &match{t: t, base: srv.URL, players: []*player{ann, ben}, settled: settledRound, stopAfter: 4}
	srv.mu.Lock()
	srv.loseReveals = 1 // the first reveal: of the start's round
	srv.mu.Unlock()
	m.lobby("trustless", nil)
	m.play(100)
	calls := revealCounts(srv.revealCalls())
	var again []string
	for c, k := range calls {
		if k > 1 {
			again = append(again, c)
		}
	}
	require.Len(t, again, 1, "exactly the reveal whose answer was lost was sent again: %v", srv.revealCalls())
	require.Equal(t, 2, calls[again[0]])
	require.True(t, strings.HasSuffix(again[0], " 1"), "the start's round: %s", again[0])
	for _, p := range m.players {
		require.Empty(t, p.state().Problem, p.name)
		// The log's first round holds one link per seat: the retry was
		// applied once.
		require.Contains(t, p.String(`Array.from(document.querySelectorAll("#log li[data-type=RoundRevealed]")).map((li) => li.textContent).join("|")`),
			"Reveal round 1: every seat's link is revealed (2)")
	}
}

// twoGuests opens the page of srv in a browser for two guests at 1280 px
// (ann and ben), each signed in in a browser context of their own.
func twoGuests(t *testing.T, srv *server) (*player, *player) {
	t.Helper()
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	ann := newPlayer(t, b, "ann", browser.Desktop, url)
	ben := newPlayer(t, b, "ben", browser.Desktop, url)
	ann.signInGuest()
	ben.signInGuest()
	return ann, ben
}
