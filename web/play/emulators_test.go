package play_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/names/fsnames"
	"github.com/fairboard/fairboard/tablestore/fstables"
	"github.com/fairboard/fairboard/web/play"
)

// The Firestore emulator enforces the repository's security rules on the
// page's reads, as production does; the functions' admin client bypasses
// them.
var emu = emulator.NewSuite(emulator.Config{Firestore: true, Auth: true, Rules: "firestore.rules"})

// chrome is the one Chromium process of the package's page tests, each
// test's pages in browser contexts of their own (internal/browser.Shared);
// started by the first test that asks for it, stopped after the last.
var chrome = browser.NewShared()

func TestMain(m *testing.M) {
	raiseParallel()
	code := emu.Run(m)
	chrome.Stop()
	os.Exit(code)
}

// emuServer serves the functions on the emulators and the page configured
// for them, in the test's process.
func emuServer(t *testing.T) *server {
	t.Helper()
	emu.Require(t)
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	require.NoError(t, err)
	c := emu.Client(t)
	return newServerNames(t, []store.Store{fsstore.New(c)}, fsnames.New(c), v, func(string) play.Config {
		return play.Config{ProjectID: emu.ProjectID(), APIKey: "emulator-api-key", AuthEmulator: "http://" + emu.Auth().Host,
			FirestoreEmulator: emu.Firestore().Host, Store: play.StoreFirestore}
	})
}

// emuTableServer is emuServer with the table games on the Firestore
// emulator too (tablestore/fstables), which the pages of seated players
// follow by listeners; it returns the table store as well.
func emuTableServer(t *testing.T) (*server, *fstables.Store) {
	t.Helper()
	emu.Require(t)
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	require.NoError(t, err)
	c := emu.Client(t)
	tables := fstables.New(c, registry.Lookup)
	return newServerTables(t, []store.Store{fsstore.New(c)}, fsnames.New(c), tables, v, func(string) play.Config {
		return play.Config{ProjectID: emu.ProjectID(), APIKey: "emulator-api-key", AuthEmulator: "http://" + emu.Auth().Host,
			FirestoreEmulator: emu.Firestore().Host, Store: play.StoreFirestore}
	}), tables
}

// Two players, each in a browser context of their own and signed in on
// the Auth emulator (one with an email account on a desktop, one as a
// guest on a phone), play whole games through the functions on the
// Firestore emulator, reading the board through Firestore listeners; each
// move is a bot's choice among the buttons the page offers. Along the way:
// a third person's join of a seat just taken is refused in words; one
// player reloads and comes back to the same game and seat; one goes
// offline and back; the screens pass the layout, accessibility and console
// checks at 1280 and 390 px; each game is verified in the page at its
// end. The fair game is played by the keyboard alone.
func TestWholeGamesInChromium(t *testing.T) {
	pageTest(t, true)
	srv := emuServer(t)
	b := chrome.Browser(t)
	url := srv.URL + "/play/"

	// The two games run one after the other: side by side on a loaded
	// 2-core machine, a listener of the Firestore emulator was seen to stay
	// silent for over a minute (2 runs in 5), never one after the other.
	var mu sync.Mutex
	var latency []time.Duration
	addLatency := func(ds []time.Duration) {
		mu.Lock()
		latency = append(latency, ds...)
		mu.Unlock()
	}
	t.Run("games", func(t *testing.T) {
		t.Run("crypto", func(t *testing.T) {
			alice := newPlayer(t, b, "alice", browser.Desktop, url)
			bob := newPlayer(t, b, "bob", browser.Phone, url)
			eve := newPlayer(t, b, "eve", browser.Desktop, url)
			alice.screen("signin")
			alice.checkScreen("sign-in at 1280 px")
			bob.screen("signin")
			bob.checkScreen("sign-in at 390 px")
			// A fresh address per run: the emulator keeps its accounts for the
			// whole test binary (-count=N), and other tests run beside this one.
			email := "alice-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "@example.com"
			alice.signInEmail(email, "correct horse battery")
			bob.signInGuest()
			eve.signInGuest()
			alice.checkScreen("lobby at 1280 px")
			bob.checkScreen("lobby at 390 px")
			alice.shot("1-lobby-1280")

			m := &match{t: t, base: srv.URL, players: []*player{alice, bob}}
			id := alice.create("crypto", "warrior")
			alice.uid = alice.String(`document.querySelector("#players li.me").dataset.uid`)
			require.Equal(t, "online", alice.String(`document.getElementById("net").dataset.state`), "no banner on Firestore: the board is live")
			alice.shot("2-game-lobby-1280")
			alice.checkScreen("game lobby at 1280 px")

			// Eve opens the game and sees seat 2 free; Bob takes it first.
			eve.open(srv.URL, id)
			eve.WaitFor(`!document.getElementById("join").hidden`)
			bob.open(srv.URL, id)
			bob.checkScreen("join form at 390 px")
			bob.shot("3-join-390")
			bob.join(1, "monk")
			bob.uid = bob.String(`document.querySelector("#players li.me").dataset.uid`)
			eve.Do(chromedpSetValue("#join-seat", "1"))
			eve.Click("#join-button")
			eve.WaitFor(`document.getElementById("action-status").dataset.code === "seat_taken"`)
			require.Contains(t, eve.String(`document.getElementById("action-status").textContent`), "That seat is taken")
			eve.CheckConsole(expectedConsole...)

			alice.WaitFor(`document.querySelector('#action-buttons button[data-kind="start"]')`)
			alice.act()
			for _, p := range m.players {
				p.WaitFor(`document.getElementById("game").dataset.phase === "playing"`)
			}
			m.onMove = func(n int, who *player, _ button) {
				switch n {
				case 6:
					// A reload comes back to the same game and seat, from the
					// URL, and reads the board again.
					bob.Reload()
					bob.screen("game")
					bob.WaitFor(`document.querySelector("#players li.me") && document.getElementById("game").dataset.phase === "playing"`)
					require.Equal(t, bob.uid, bob.String(`document.querySelector("#players li.me").dataset.uid`))
					// The reloaded log names the players by their default
					// names: "Player" for an email account, "Guest" for a
					// guest, and the first two bytes of SHA-256(uid).
					bob.WaitFor(`document.getElementById("game").dataset.logSeq === "` + alice.state().LogSeq + `"`)
					bob.WaitFor(`document.querySelector("#players li.me strong").textContent === "` + defaultName("Guest", bob.uid) + ` (you)"`)
					checkNamedLog(t, bob, "#log", []string{defaultName("Player", alice.uid), defaultName("Guest", bob.uid) + " (you)"}, []string{alice.uid, bob.uid})
					ms, _ := strconv.Atoi(bob.String(`document.body.dataset.firstBoardMs`))
					ready, _ := strconv.Atoi(bob.String(`document.body.dataset.readyMs`))
					t.Logf("after a reload: engine and config ready %d ms after the navigation started, first board at %d ms", ready, ms)
				case 8:
					// Bob renames (the lobby's form, sent from the game's
					// page): Alice's page, not reloaded, follows through its
					// listener of the game's names, old lines included.
					bob.Eval(`document.getElementById("name-input").value = "Bob the Builder"; document.getElementById("name-form").requestSubmit()`, nil)
					alice.WaitFor(`document.querySelector('#players li[data-uid="` + bob.uid + `"] strong').textContent === "Bob the Builder"`)
					alice.WaitFor(`Array.from(document.querySelectorAll("#log li")).every((li) => !li.textContent.includes("` + defaultName("Guest", bob.uid) + `"))`)
					checkNamedLog(t, alice, "#log", []string{defaultName("Player", alice.uid) + " (you)", "Bob the Builder"}, []string{alice.uid, bob.uid})
					// Offline: the page says so, and comes back.
					offline(t, bob, true)
					bob.WaitFor(`document.getElementById("net").dataset.state === "offline"`)
					require.Contains(t, bob.String(`document.getElementById("net").textContent`), "Offline")
					offline(t, bob, false)
					bob.WaitFor(`document.getElementById("net").dataset.state === "online"`)
				case 20:
					alice.shot("4-board-1280")
					bob.shot("5-board-390")
					alice.checkScreen("board at 1280 px")
					bob.checkScreen("board at 390 px")
				}
			}
			n := m.play(2000)
			t.Logf("crypto game %s: %d actions", id, n)
			alice.shot("6-end-1280")
			bob.shot("7-end-390")
			status, msg := alice.verifyInPage()
			require.Equal(t, "ok", status, msg)
			require.Contains(t, msg, "crypto game")
			alice.shot("8-verified-1280")
			alice.checkScreen("end at 1280 px")
			bob.checkScreen("end at 390 px")
			alice.CheckConsole(expectedConsole...)
			// The offline step: the listeners' requests fail while offline.
			// (The Firestore SDK's connection probe, which the policy allows,
			// cannot reach Google from this closed network either.)
			bob.CheckConsole(append(expectedConsole, regexp.MustCompile(`net::ERR_INTERNET_DISCONNECTED`),
				regexp.MustCompile(`net::ERR_\w+ \(https://www\.google\.com/images/cleardot\.gif\?`),
				regexp.MustCompile(`@firebase/firestore: Firestore \(.*\): (WebChannelConnection RPC '\w+' stream .* transport errored|Could not reach Cloud Firestore backend)`))...)
			addLatency(m.latency)
		})

		t.Run("fair, by keyboard", func(t *testing.T) {
			carol := newPlayer(t, b, "carol", browser.Desktop, url)
			dave := newPlayer(t, b, "dave", browser.Phone, url)
			carol.signInGuest()
			dave.signInGuest()
			carol.keyboard, dave.keyboard = true, true
			m := &match{t: t, base: srv.URL, players: []*player{carol, dave}}
			id := m.lobby("fair", nil)
			require.Contains(t, carol.String(`document.getElementById("mode-line").textContent`), "committed to its seed")
			n := m.play(2000)
			t.Logf("fair game %s: %d actions, by keyboard", id, n)
			status, msg := dave.verifyInPage()
			require.Equal(t, "ok", status, msg)
			require.Contains(t, msg, "fair game")
			dave.shot("9-fair-verified-390")
			for _, p := range m.players {
				p.CheckConsole(expectedConsole...)
			}
			addLatency(m.latency)
		})
	})
	p50, p95 := percentiles(latency)
	t.Logf("click to the board updated on the other player's page: p50 %v, p95 %v over %d actions", p50, p95, len(latency))
}

// offline cuts the page's network (DevTools' network emulation), or
// restores it.
func offline(t *testing.T, p *player, off bool) {
	t.Helper()
	p.Do(chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		conds := []*network.Conditions{}
		if off {
			conds = append(conds, &network.Conditions{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
		}
		if _, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: conds}); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return err
	}))
}

// The log in both layouts, through the listeners: a game played first by
// a server writing the previous release's layout (a document per event),
// then, after a rolling deploy, by one writing a document per action; the
// pages read on across the switch, a page opened after it reads the mixed
// log from the start, and the game is abandoned and verified.
func TestBothLogLayoutsInChromium(t *testing.T) {
	pageTest(t, true)
	emu.Require(t)
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	require.NoError(t, err)
	fc := emu.Client(t)
	srv := newServerStores(t, []store.Store{fsstore.New(fc, fsstore.WithPreviousLayout()), fsstore.New(fc)}, v, func(string) play.Config {
		return play.Config{ProjectID: emu.ProjectID(), APIKey: "emulator-api-key", AuthEmulator: "http://" + emu.Auth().Host,
			FirestoreEmulator: emu.Firestore().Host, Store: play.StoreFirestore}
	})
	ann, ben := twoGuests(t, srv)
	m := &match{t: t, base: srv.URL, players: []*player{ann, ben}}
	id := m.lobby("crypto", nil)
	m.onMove = func(n int, _ *player, _ button) {
		if n == 8 {
			srv.use(1)
		}
	}
	m.stopAfter = 21
	m.play(1000)
	// Firestore holds both layouts now.
	docs, err := fc.Collection("games").Doc(id).Collection("log").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	var perEvent, perAction int
	for _, d := range docs {
		if _, ok := d.Data()["events"]; ok {
			perAction++
		} else {
			perEvent++
		}
	}
	require.NotZero(t, perEvent, "documents of the previous layout")
	require.NotZero(t, perAction, "documents of one action each")
	// Every page shows every event once, in order: Ben's, which read on
	// across the switch, and Ann's after a reload, which reads the mixed
	// log from its start.
	ann.Reload()
	ann.screen("game")
	for _, p := range []*player{ann, ben} {
		p.WaitFor(`document.getElementById("game").dataset.logSeq && document.querySelector("#players li.me")`)
		p.WaitFor(`+document.getElementById("game").dataset.version >= ` + ben.state().Version)
		seqs := p.String(`Array.from(document.querySelectorAll("#log li")).map((li) => li.dataset.seq).join(",")`)
		last := p.String(`document.getElementById("game").dataset.logSeq`)
		n, _ := strconv.Atoi(last)
		want := make([]string, n)
		for i := range want {
			want[i] = strconv.Itoa(i + 1)
		}
		require.Equal(t, strings.Join(want, ","), seqs, "%s's log", p.name)
		require.Empty(t, p.state().Problem)
	}
	ann.Click("#abandon")
	ann.Click("#abandon-confirm")
	status, msg := ben.verifyInPage()
	require.Equal(t, "ok", status, msg)
	t.Logf("%d documents of one event, then %d of one action each", perEvent, perAction)
	for _, p := range m.players {
		p.CheckConsole(expectedConsole...)
	}
}

// defaultName is the name of an account that never chose one (functions,
// names.Default): kind ("Guest" or "Player") and the first two bytes of
// SHA-256(uid) in capital hex.
func defaultName(kind, uid string) string {
	sum := sha256.Sum256([]byte(uid))
	return kind + " " + strings.ToUpper(hex.EncodeToString(sum[:2]))
}
