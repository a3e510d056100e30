package play_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// The page's help, safe defaults and your-turn title (issue 30, items 4,
// 7 and 8), in Chromium on the in-memory store: "How to play" shows the
// game's rules from its definition; a bad address is explained with the
// way back; a full game tells a newcomer so, and its owner to start; an
// irreversible action comes last and asks first (Enter twice keeps the
// item); a guest is warned before signing out of a seat; a page in the
// background says when it is the player's move; the end says "You won".
func TestSafeDefaultsInChromium(t *testing.T) {
	pageTest(t, false)
	srv := newDevServer(t)
	b := chrome.Browser(t)

	// A bad address.
	alice := newPlayer(t, b, "Alice", browser.Desktop, srv.URL+"/play/")
	alice.signInDev()

	// How to play, one click away: the game's own help, with the
	// ruleset's numbers (GAME_RULES.md's defaults, written here by hand).
	alice.Click("#help-open")
	alice.WaitFor(`document.getElementById("help").open`)
	help := alice.String(`document.getElementById("help-body").textContent`)
	for _, want := range []string{"Your turn", "Classes", "Warrior+1 attack in fights and duels.", "Scout+1 to every movement roll.",
		"Relic", "Earthquake!", "Knocked out", "Duels", "After 40 rounds it ends anyway"} {
		require.Contains(t, help, want)
	}
	require.Equal(t, "help-title", alice.String(`document.activeElement.id`), "the help opens at its top")
	alice.shot("safety-help")
	alice.CheckAxe("the help") // a modal covers the page behind it: no layout check there
	alice.Key(kb.Escape)
	alice.WaitFor(`!document.getElementById("help").open`)
	alice.open(srv.URL, "no-such-game")
	alice.WaitFor(`document.getElementById("game").dataset.openError === "not_found"`)
	require.Contains(t, alice.String(`document.getElementById("turn").textContent`), "There is no game with this id, or it is not open to you.")
	require.Equal(t, "true", alice.String(`String(document.getElementById("share").hidden)`), "no invitation to a game that is not there")
	require.Equal(t, "leave", alice.String(`document.activeElement.id`), "the way back has the focus")
	require.Equal(t, "none", alice.String(`getComputedStyle(document.querySelector("#game .main")).display`), "no empty board")
	alice.shot("safety-bad-address")
	alice.checkScreen("a bad address")
	alice.Click("#leave")
	alice.screen("lobby")

	// A full game: six seats taken, a seventh player turned away in words.
	classes := []string{"warrior", "monk", "duelist", "scout"}
	id := alice.create("crypto", "warrior")
	var others []*player
	for i, name := range []string{"Bob", "Carol", "Dave", "Erin", "Frank"} {
		p := newPlayer(t, b, name, browser.Phone, srv.URL+"/play/")
		p.signInDev()
		p.open(srv.URL, id)
		p.join(i+1, classes[(i+1)%len(classes)])
		others = append(others, p)
	}
	alice.WaitFor(`document.querySelectorAll("#players li").length === 6`)
	require.Equal(t, "All 6 seats are taken: start the game.", alice.String(`document.getElementById("turn").textContent`))
	others[0].WaitFor(`document.getElementById("turn").textContent === "All 6 seats are taken: waiting for the owner to start the game."`)
	grace := newPlayer(t, b, "Grace", browser.Phone, srv.URL+"/play/")
	grace.signInDev()
	grace.open(srv.URL, id)
	grace.WaitFor(`document.getElementById("turn").textContent.startsWith("Every seat of this game is taken")`)
	require.Equal(t, "true", grace.String(`String(document.getElementById("join").hidden)`), "no seat is offered")
	grace.shot("safety-full-game-phone")
	grace.checkScreen("a full game")

	// A two-player game, Bob as a guest: play until someone may drop an
	// item; the drop is never the first button.
	bob := newPlayer(t, b, "Bob", browser.Phone, srv.URL+"/play/")
	bob.screen("signin")
	bob.Eval(`document.getElementById("guest").click()`, nil) // the development server's guest: hidden, as its Firebase sign-in is
	bob.screen("lobby")
	require.Contains(t, bob.String(`document.getElementById("who").textContent`), "as guest")
	alice.Navigate(srv.URL + "/play/")
	alice.screen("lobby")
	// Polled pages: the other page is waited for at each change of turn,
	// not after every action (a poll a second).
	m := &match{t: t, base: srv.URL, players: []*player{alice, bob}, atTurns: true}
	m.lobby("crypto", nil)
	require.Equal(t, "true", alice.String(`String(document.getElementById("share").hidden)`), "no invitation once the game has started")
	// The fairness records (here the sealed shuffles) are in the log,
	// collapsed until asked for.
	shuffled := `getComputedStyle(document.querySelector('#log li[data-type="DeckShuffled"]')).display`
	require.Equal(t, "none", alice.String(shuffled))
	alice.Click("#log-protocol")
	require.Equal(t, "list-item", alice.String(shuffled))
	require.Equal(t, "true", alice.String(`document.getElementById("log-protocol").getAttribute("aria-pressed")`))
	alice.Click("#log-protocol")
	require.Equal(t, "none", alice.String(shuffled))
	var dropper *player
	m.stopWhen = func() bool {
		p := m.byUID(alice.String(`document.getElementById("game").dataset.awaiting`))
		if p == nil {
			return false
		}
		p.WaitFor(`document.getElementById("game").dataset.mine === "1" || document.getElementById("game").dataset.phase === "finished"`)
		bs := p.offered()
		var drops int
		for i, x := range bs {
			if irreversible[x.Kind] {
				drops++
				if drops < len(bs) {
					require.NotZero(t, i, "an irreversible action first: %v", bs)
				}
			}
		}
		if drops > 0 && drops < len(bs) {
			dropper = p
			return true
		}
		return false
	}
	m.play(600)
	require.NotNil(t, dropper, "no item could be dropped in the game")

	// Enter twice on the drop keeps the item: the first asks, with "No,
	// keep it" focused; the second cancels.
	v := dropper.state().Version
	bs := dropper.offered()
	var drop button
	for _, x := range bs {
		if irreversible[x.Kind] {
			drop = x
			break
		}
	}
	dropper.Eval(fmt.Sprintf(`document.querySelectorAll("#action-buttons button")[%d].focus()`, drop.Index), nil)
	dropper.Key(kb.Enter)
	dropper.WaitFor(`document.activeElement && document.activeElement.id === "confirm-no"`)
	require.Contains(t, dropper.String(`document.getElementById("confirm-text").textContent`), "? It cannot be undone.")
	dropper.shot("safety-confirm-drop")
	dropper.Key(kb.Enter)
	dropper.WaitFor(`!document.getElementById("confirm-no") && document.querySelectorAll("#action-buttons button").length > 0`)
	require.Equal(t, v, dropper.state().Version, "nothing was sent")
	require.True(t, func() bool {
		var first string
		dropper.Eval(`document.activeElement.dataset.kind || ""`, &first)
		return first != "" && !irreversible[first]
	}(), "the focus is back on the first, harmless action")
	// Confirmed, it is sent once.
	dropper.Click(fmt.Sprintf(`#action-buttons button:nth-child(%d)`, drop.Index+1))
	dropper.Click("#confirm-yes")
	before, _ := strconv.Atoi(v)
	dropper.WaitFor(fmt.Sprintf(`+document.getElementById("game").dataset.version > %d && document.getElementById("game").dataset.pending === ""`, before))
	// What just happened: the drop shows on the dropper's card, and in
	// "Just now".
	dropper.WaitFor(`(document.querySelector("#players li.me").dataset.changed || "").includes("−")`)
	require.Contains(t, dropper.String(`document.getElementById("recent").textContent`), "dropped")
	// At 1280 px "Just now" is beside the board, above the fold; on a
	// phone the board comes before the players.
	var recentTop, boardTop, playersTop, innerH float64
	alice.Eval(`document.getElementById("recent-box").getBoundingClientRect().top + scrollY`, &recentTop)
	alice.Eval(`document.getElementById("board").getBoundingClientRect().top + scrollY`, &boardTop)
	alice.Eval(`innerHeight`, &innerH)
	require.Less(t, recentTop, innerH, "\"Just now\" is above the fold at 1280 px")
	require.InDelta(t, boardTop, recentTop, 80, "beside the board, not below it")
	bob.Eval(`document.getElementById("board").getBoundingClientRect().top`, &boardTop)
	bob.Eval(`document.querySelector(".players-box").getBoundingClientRect().top`, &playersTop)
	require.Less(t, boardTop, playersTop, "on a phone the board comes before the players")
	alice.shot("safety-just-now-desktop")

	// Bob's page in the background says when the game waits for him.
	m.stopWhen = func() bool { return alice.String(`document.getElementById("game").dataset.awaiting`) == bob.uid }
	m.stopAfter = 0
	m.play(600)
	if alice.state().Phase != "finished" {
		bob.SetHidden(true)
		bob.WaitFor(`document.title === "Your move — fairboard"`)
		bob.SetHidden(false)
		bob.WaitFor(`document.title === "fairboard: play"`)
		alice.SetHidden(true)
		require.Equal(t, "fairboard: play", alice.String(`document.title`), "not Alice's move: nothing to say")
		alice.SetHidden(false)

		// The guest is warned before signing out of a seat.
		bob.Click("#signout")
		bob.WaitFor(`!document.getElementById("signout-warning").hidden && document.activeElement.id === "signout-cancel"`)
		bob.shot("safety-guest-signout-phone")
		bob.Click("#signout-cancel")
		bob.WaitFor(`document.getElementById("signout-warning").hidden`)
		require.Equal(t, "game", bob.String(`document.body.dataset.screen`))
	}

	// To the end: the winner reads "You won".
	m.stopWhen = nil
	m.play(3000)
	for _, p := range m.players {
		p.WaitFor(`!document.getElementById("end").hidden`)
	}
	won := 0
	for _, p := range m.players {
		res := p.String(`document.getElementById("result").textContent`)
		if strings.HasPrefix(res, "You won after ") {
			won++
		} else {
			require.Regexp(t, `^\S.* won after \d+ rounds\.$`, res, "the other player reads who won")
		}
	}
	require.Equal(t, 1, won, "exactly the winner reads \"You won\"")
	// The whole log in the game's words: no deck id, enemy code or
	// outcome code of the engine's.
	for _, p := range m.players {
		require.NotRegexp(t, `treasure\.t\d|enemy\.t\d|\dxT\d|Loot:|knockedOut|finalTile|roundLimit|leftFinalTile`, p.String(`document.getElementById("log").textContent`))
	}
	for _, p := range append(m.players, grace) {
		p.CheckConsole(expectedConsole...)
	}
}
