package play_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// itemCase is one game in one mode.
type itemCase struct{ game, mode string }

// itemCases are every game with a page of its own (the dungeon) and
// every game on the generic board (Pig, Kuhn poker, Leduc hold'em), each
// in every mode the page offers it: crypto, fair and trustless (Pig's
// dice from the seats' hash chains, Kuhn's and Leduc's cards dealt by
// mental poker between the pages).
var itemCases = []itemCase{
	{"dungeon", "crypto"}, {"dungeon", "fair"}, {"dungeon", "trustless"},
	{"pig", "crypto"}, {"pig", "fair"}, {"pig", "trustless"},
	{"kuhn", "crypto"}, {"kuhn", "fair"}, {"kuhn", "trustless"},
	{"leduc", "crypto"}, {"leduc", "fair"}, {"leduc", "trustless"},
}

// TestPageItemsInChromium (issue 30, "How it is tested"): for each game
// and mode of itemCases, three people play it through the page: Ada
// (1280 px) and Ben (390 px) name themselves in the lobby's name form;
// Ada creates the game public; Ben's lobby lists it live, under Ada's
// name, and he joins from the list; Ada's page names Ben; Ada starts;
// Cleo (390 px) opens the link and watches read-only; a few moves are
// played by the first button offered, "what just happened" marked and
// the board before the players on a phone, a table game's own board
// (each player's and the spectator's) read against getView (checkBoard,
// in play and at the end); the mover's page in the
// background says "Your move" in its title, the other's does not, and
// neither once back; the first button offered is never an irreversible
// one; "How to play" shows the game's own help; the game ends (by the
// owner's abandon, confirmed first, if it has not ended) and says so in
// the players' terms, Cleo gets no Rematch, Ada and Ben press Rematch
// and land in the same new game, seated; a bad address is explained
// with the way back. Every screen passes the layout and axe checks at
// 1280 and 390 px, shows none of the code's words and no raw account
// id, and is saved as a screenshot at both widths (items-<game>-<mode>-
// <screen>-<width>.png). The dungeon in trustless mode runs on the
// emulators (its seats reveal through Firestore), the rest in memory.
func TestPageItemsInChromium(t *testing.T) {
	t.Parallel()
	for _, c := range itemCases {
		t.Run(c.game+"-"+c.mode, func(t *testing.T) {
			pageTest(t, c.mode == "trustless")
			runItems(t, c)
		})
	}
}

func runItems(t *testing.T, c itemCase) {
	var srv *server
	switch {
	case c.mode == "trustless" && c.game == "dungeon":
		srv = emuServer(t)
	case c.mode == "trustless":
		srv, _ = emuTableServer(t)
	default:
		srv = newDevServer(t)
	}
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	s := surfaceOf(c.game)
	shot := func(p *player, screen, what string) {
		t.Helper()
		checkAt(t, p, fmt.Sprintf("items-%s-%s-%s", c.game, c.mode, screen), fmt.Sprintf("%s (%s, %s)", what, c.game, c.mode))
	}
	ada := newPlayer(t, b, "Ada", browser.Desktop, url)
	ben := newPlayer(t, b, "Ben", browser.Phone, url)
	cleo := newPlayer(t, b, "Cleo", browser.Phone, url)
	names := map[*player]string{ada: "Ada Lovelace", ben: "Ben Okri", cleo: "Cleo Watch"}
	for _, p := range []*player{ada, ben, cleo} {
		if c.mode == "trustless" {
			p.signInGuest()
		} else {
			p.signInDev()
		}
		// As a person would, once the page has read the current name
		// (a name read after the field was filled would replace it).
		p.WaitFor(`document.getElementById("name-ask").textContent !== "Reading your name…"`)
		p.Do(chromedpSetValue("#name-input", names[p]))
		p.Click("#name-save")
		p.WaitFor(`document.getElementById("name-status").textContent.startsWith("Saved")`)
	}

	// Ada creates the game, public; Ben's lobby, open all along, lists it
	// by itself under her name.
	ada.Click(`input[name="visibility"][value="public"]`)
	var id string
	if c.game == "dungeon" {
		id = ada.create(c.mode, "warrior")
	} else {
		id = ada.createTable(c.game, c.mode, nil)
	}
	row := fmt.Sprintf(`#open-games-list li[data-game-id=%q]`, id)
	ben.WaitFor(q(row) + ` && ` + q(row) + `.textContent.includes("Ada Lovelace's game")`)
	ben.Eval(`document.getElementById("open-games").scrollIntoView()`, nil)
	shot(ben, "open-games", "the lobby's open games")
	ben.Click(row + " button")
	if c.game == "dungeon" {
		ben.join(1, "monk")
	} else {
		ben.joinTable()
	}
	ada.WaitFor(q(s.players) + `.textContent.includes("Ben Okri")`)
	ben.WaitFor(q(s.players) + `.textContent.includes("Ada Lovelace")`)
	for _, p := range []*player{ada, ben} {
		p.uid = p.String(q(s.players+" li.me") + `.dataset.uid`)
	}

	// A table full before its start, to a stranger: said so, no join
	// form, the way back to the lobby shown.
	if c.game != "dungeon" {
		cleo.open(srv.URL, id)
		cleo.screen(s.screen)
		cleo.WaitFor(q(s.turn) + `.textContent === "Every seat of this game is taken: you cannot join it."`)
		require.Equal(t, "true", cleo.String(`String(document.getElementById("tg-join").hidden)`), "no join form at a full table")
		require.Equal(t, "false", cleo.String(`String(document.getElementById("tg-leave").hidden)`), "the way back to the lobby")
		require.Equal(t, "true", cleo.String(`String(document.getElementById("tg-share").hidden)`), "no invitation to a full table")
		shot(cleo, "full", "a full table")
	}

	// Ada starts; Cleo watches.
	if c.game == "dungeon" {
		ada.WaitFor(q(`#action-buttons button[data-kind="start"]`))
		ada.act()
	} else {
		ada.WaitFor(shown("#tg-start"))
		ada.Click("#tg-start")
	}
	for _, p := range []*player{ada, ben} {
		p.WaitFor(s.data("phase") + ` !== "lobby"`)
		if c.mode == "trustless" {
			p.WaitFor(settledOf(s), time.Minute)
		}
	}
	if c.game != "dungeon" {
		cleo.Reload() // on the table's page already
	} else {
		cleo.open(srv.URL, id)
	}
	cleo.screen(s.screen)
	cleo.WaitFor(shown(s.watching))
	require.Equal(t, "0", cleo.String(fmt.Sprintf(`String(document.querySelectorAll(%q).length)`, s.moves)), "a spectator has no move")
	shot(cleo, "spectator", "a spectator's view")

	// A few moves, by the first button offered.
	playFirst(t, c, s, []*player{ada, ben}, 4)
	for _, p := range []*player{ada, ben} {
		checkJustHappened(t, p, s)
	}
	if c.game != "dungeon" {
		for _, p := range []*player{ada, ben, cleo} {
			checkBoard(t, srv, c.game, p, "in play")
		}
	}
	shot(ada, "play", "the game in play")
	checkTurnAlert(t, s, []*player{ada, ben})

	// How to play: the game's own help.
	ada.Click("#help-open")
	ada.WaitFor(`document.getElementById("help").open && document.getElementById("help-body").dataset.game === "` + c.game + `"`)
	checkDialogAt(t, ada, fmt.Sprintf("items-%s-%s-help", c.game, c.mode), "the help of "+c.game)
	ada.Key(kb.Escape)
	ada.WaitFor(`!document.getElementById("help").open`)

	// The end: Ada abandons if the game goes on (asked first).
	if ada.String(s.data("phase")) != "finished" {
		ada.WaitFor(shown(s.abandon))
		ada.Click(s.abandon)
		ada.WaitFor(shown(s.confirm) + ` && document.activeElement === ` + q(s.confirm))
		ada.Click(s.confirm)
	}
	for _, p := range []*player{ada, ben, cleo} {
		p.WaitFor(s.data("phase") + ` === "finished" && ` + q(s.result) + `.textContent !== ""`)
	}
	require.Equal(t, "true", cleo.String(`String(`+q(s.rematch)+`.hidden)`), "no rematch for a spectator")
	if c.game != "dungeon" {
		checkBoard(t, srv, c.game, ben, "at the end")
	}
	shot(ben, "end", "the end")

	// Rematch: both land in the same new game, seated.
	for _, p := range []*player{ben, ada} {
		p.WaitFor(shown(s.rematch))
		p.Click(s.rematch)
	}
	for _, p := range []*player{ada, ben} {
		p.WaitFor(q(s.id) + `.textContent !== "` + id + `" && ` + q(s.players+" li.me"))
	}
	next := ada.String(q(s.id) + `.textContent`)
	require.Equal(t, next, ben.String(q(s.id)+`.textContent`), "the same rematch")
	ben.WaitFor(q(s.players) + `.textContent.includes("Ada Lovelace")`)
	if c.mode == "trustless" && c.game != "dungeon" {
		checkTrustlessRematch(t, srv, c, s, []*player{ada, ben})
	}

	// A bad address.
	cleo.open(srv.URL, "no-such-"+c.game)
	cleo.WaitFor(`document.getElementById("game").dataset.openError === "not_found" && document.activeElement.id === "leave"`)
	shot(cleo, "bad-address", "a bad address")
}

// playFirst plays up to n moves (fewer if the game ends), each by the
// page whose move it is, pressing the first button it offers after
// checking it is not an irreversible one; every page then shows the
// move's version; it returns the number of moves made.
func playFirst(t *testing.T, c itemCase, s surface, ps []*player, n int) int {
	t.Helper()
	for i := 0; i < n; i++ {
		mover := waitMover(t, s, ps)
		if mover == nil {
			return i
		}
		first := mover.String(q(s.moves) + `.dataset.kind`)
		require.NotContains(t, []string{"dropItem", "discard"}, first, "the first button is never irreversible")
		v, _ := strconv.Atoi(mover.String(s.data("version")))
		mover.Eval(q(s.moves)+`.scrollIntoView({block: "center"})`, nil)
		mover.Click(s.moves)
		for _, p := range ps {
			p.WaitFor(fmt.Sprintf(`+%s > %d`, s.data("version"), v), time.Minute)
			if c.mode == "trustless" {
				p.WaitFor(settledOf(s), time.Minute)
			}
		}
	}
	return n
}

// waitMover returns the page whose move it is, once it offers its
// buttons, or nil once the game is over. Every page first shows the
// latest version any of them shows (a reveal or a deal's key moves a page
// on without a click), a table with no reveal round open; the first
// page's board then says whose move it is: the dungeon's by uid, a
// table's by seat (none while a trustless deal passes its cards, whose
// next version is then awaited).
func waitMover(t *testing.T, s surface, ps []*player) *player {
	t.Helper()
	first := ps[0]
	for step := 0; ; step++ {
		require.Less(t, step, 200, "the game never waited for a move")
		v := latestVersion(s, ps)
		for _, p := range ps {
			p.WaitFor(fmt.Sprintf(`+%s >= %d`, s.data("version"), v), time.Minute)
		}
		settled := s.data("pending") + ` === ""`
		if s == tableSurface {
			settled += ` && ` + settledOf(s)
		}
		first.WaitFor(settled, time.Minute)
		v, _ = strconv.Atoi(first.String(s.data("version")))
		if first.String(s.data("phase")) == "finished" {
			return nil
		}
		var mover *player
		if s == dungeonSurface {
			awaiting := first.String(s.data("awaiting"))
			for _, p := range ps {
				if p.uid == awaiting {
					mover = p
				}
			}
			require.NotNil(t, mover, "the game waits for someone here")
		} else {
			toMove := first.String(s.data("toMove"))
			for _, p := range ps {
				if p.String(s.data("seat")) == toMove {
					mover = p
				}
			}
		}
		later := fmt.Sprintf(`+%s > %d || %s === "finished"`, s.data("version"), v, s.data("phase"))
		if mover == nil {
			first.WaitFor(later, time.Minute)
			continue
		}
		mover.WaitFor(s.data("mine")+` === "1" || `+later, time.Minute)
		if mover.String(s.data("mine")) == "1" {
			return mover
		}
	}
}

// latestVersion is the latest version the pages show.
func latestVersion(s surface, ps []*player) int {
	v := 0
	for _, p := range ps {
		pv, _ := strconv.Atoi(p.String(s.data("version")))
		v = max(v, pv)
	}
	return v
}

// notes stands in for the browser's notifications, the permission
// granted: each notification's title and body are kept in
// window.__notes, and restore() puts the browser's own back.
const notes = `(() => {
  window.__notes = [];
  const real = window.Notification;
  window.Notification = class { static permission = "granted"; static requestPermission() { return Promise.resolve("granted"); }
    constructor(title, o) { window.__notes.push([title, (o && o.body) || ""]); } };
  window.__restoreNotes = () => { window.Notification = real; };
})()`

// checkTurnAlert: the page whose move it is says so in its title once in
// the background, and not once back, and with the permission granted
// shows one notification naming the game; another page in the
// background says nothing and notifies nothing.
func checkTurnAlert(t *testing.T, s surface, ps []*player) {
	t.Helper()
	mover := waitMover(t, s, ps)
	if mover == nil {
		return
	}
	for _, p := range ps {
		p.Eval(notes, nil)
		p.SetHidden(true)
		if p == mover {
			p.WaitFor(`document.title === "Your move — fairboard"`)
			p.WaitFor(`window.__notes.length === 1 && window.__notes[0][0] === "fairboard: your move" && window.__notes[0][1].includes("waits for your move")`)
		} else {
			require.Equal(t, "fairboard: play", p.String(`document.title`), "not %s's move", p.name)
			require.Equal(t, "0", p.String(`String(window.__notes.length)`), "no notification: not %s's move", p.name)
		}
		p.SetHidden(false)
		p.WaitFor(`document.title === "fairboard: play"`)
		p.Eval(`window.__restoreNotes()`, nil)
	}
}

// settledOf is a JavaScript condition: the page shows no reveal round
// open (the dungeon's, or a trustless table's) and a table's deal is not
// between passes, keys or openings.
func settledOf(s surface) string {
	if s == dungeonSurface {
		return settledRound
	}
	return `!document.getElementById("tg-trust-round").dataset.deadline && !document.getElementById("tg-trust").dataset.dealing`
}

// checkTrustlessRematch: the rematch of a trustless table is trustless,
// each page seated in it with no refusal; the owner starts it, the first
// move is made (the screen checked and saved as items-<game>-trustless-
// rematch-<width>.png), and once the owner has abandoned it (a dealt
// hand in mid-hand: docs/fairness.md, "Abandoned by the owner") each
// page judges its record ok and finds in it
// the chain head and key it drew for the new table (its signed rematch
// join's).
func checkTrustlessRematch(t *testing.T, srv *server, c itemCase, s surface, ps []*player) {
	t.Helper()
	ada := ps[0]
	for _, p := range ps {
		require.Contains(t, p.String(`document.getElementById("tg-mode").textContent`), "Mode: trustless", "%s: the rematch is trustless", p.name)
		require.NotContains(t, p.String(`document.getElementById("tg-status").textContent`), "Refused", "%s's rematch join", p.name)
	}
	ada.WaitFor(shown("#tg-start"))
	ada.Click("#tg-start")
	for _, p := range ps {
		p.WaitFor(s.data("phase")+` === "playing"`, time.Minute)
	}
	require.Equal(t, 1, playFirst(t, c, s, ps, 1), "a first move in the rematch")
	for _, p := range ps {
		require.Equal(t, "false", p.String(`String(!!document.querySelector('[data-key^="private."]'))`),
			"%s: a trustless table's board shows no closed private card (the card is shown opened on the device)", p.name)
		checkBoard(t, srv, c.game, p, "the rematch in play")
	}
	checkAt(t, ada, fmt.Sprintf("items-%s-%s-rematch", c.game, c.mode), fmt.Sprintf("the rematch in play (%s, %s)", c.game, c.mode))
	// The owner abandons the hand in play (a dealt hand too: its deal ends
	// as abandoned, nothing revealed, and its record verifies).
	if ada.String(s.data("phase")) != "finished" {
		ada.WaitFor(shown(s.abandon))
		ada.Click(s.abandon)
		ada.WaitFor(shown(s.confirm))
		ada.Click(s.confirm)
	}
	for _, p := range ps {
		p.WaitFor(s.data("phase")+` === "finished" && !["", "unread"].includes(document.getElementById("tg-trust-end").dataset.status)`, time.Minute)
		require.Equal(t, "ok", p.String(`document.getElementById("tg-trust-end").dataset.status`), p.String(`document.getElementById("tg-trust-checks").textContent`))
		require.Equal(t, "yes", p.String(`document.getElementById("tg-trust-end").dataset.mine`), "%s: the rematch's record holds the seat this page drew for it", p.name)
	}
}
