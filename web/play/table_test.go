package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/browser"
)

// tableView is the part of getView's answer for a table game the test
// reads (functions.TableView).
type tableView struct {
	Game    string `json:"game"`
	Phase   string `json:"phase"`
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
	ToMove  int    `json:"toMove"`
	Seats   []struct {
		UID string `json:"uid"`
	} `json:"seats"`
	State struct {
		Banked    []int `json:"banked"`
		TurnTotal int   `json:"turnTotal"`
	} `json:"state"`
	Legal   []json.RawMessage `json:"legal"`
	Log     []map[string]any  `json:"log"`
	Outcome *struct {
		Abandoned bool  `json:"abandoned"`
		Winners   []int `json:"winners"`
	} `json:"outcome"`
}

// Pig in the browser, on the generic board (docs/play.md, "Other games"):
// on the in-memory server, Alice (desktop) picks Pig in the lobby's Game
// choice and creates a table, Bob (phone) joins by the link, Alice starts,
// and both play to the end by clicking the move buttons their pages
// offer. Every move offered is one the server lists and accepts; the
// page's log, its scores (the rows and Pig's own board's tracks) and the
// server's view agree, and so do Pig's
// rules recomputed from the log; exactly the winner reads "You won".
// The server allows seeded games, and its page offers them for a table
// (not for the dungeon): a second table is seeded (playSeededPig), a
// third abandoned. (The control, a server that does not allow them:
// TestFairOpeningsRefusedInChromium's forceSeeded.)
func TestPigOnGenericBoard(t *testing.T) {
	pageTest(t, false)
	srv := newSeededDevServer(t)
	// A goal of 30 (the page's create form sends no rules): holding at
	// 20, the first turn always passes to the second seat (no roll goes
	// from below 20 to 30), and the game lasts at least 7 moves (the
	// screenshots at the seventh), about 35 on average rather than 105.
	srv.withRules(pigGoal)
	b := chrome.Browser(t)
	alice := newPlayer(t, b, "Alice", browser.Desktop, srv.URL+"/play/")
	bob := newPlayer(t, b, "Bob", browser.Phone, srv.URL+"/play/")
	alice.signInDev()
	bob.signInDev()
	api := &functest.Client{Base: srv.URL}
	view := func(p *player, id string) tableView {
		t.Helper()
		var v tableView
		require.NoError(t, api.Call(context.Background(), "getView", "dev:"+p.uid, map[string]any{"gameId": id}, &v))
		return v
	}

	// The lobby lists the registry's games, the dungeon first and chosen.
	var games []string
	alice.Eval(`Array.from(document.querySelectorAll("#create-game option")).map((o) => o.value)`, &games)
	want := []string{"dungeon"}
	for _, n := range registry.Names() {
		if n != "dungeon" {
			want = append(want, n)
		}
	}
	require.Equal(t, want, games)
	require.Equal(t, "dungeon", alice.String(`document.getElementById("create-game").value`))
	require.True(t, isTrue(alice, `document.getElementById("create-mode-seeded").hidden`), "no seeded dungeon from the lobby")
	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "pig"; s.dispatchEvent(new Event("change")); })()`, nil)
	require.True(t, isTrue(alice, `document.getElementById("create-class").hidden && !document.getElementById("create-seats").hidden`))
	// A table's modes: crypto, fair, for Pig (every part public)
	// trustless, and on this server seeded.
	require.True(t, isTrue(alice, `!document.getElementById("create-mode").hidden && !document.getElementById("create-mode-trustless").hidden && !document.getElementById("create-mode-seeded").hidden`))
	require.Equal(t, "2", alice.String(`document.getElementById("create-seats").value`), "Pig's default seat count")
	alice.shot("pig-lobby-alice-desktop")
	alice.checkScreen("the lobby with Pig chosen at 1280 px")
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	id := alice.String(`document.getElementById("tg-id").textContent`)
	require.Equal(t, "pig", view(alice, id).Game)
	require.True(t, isTrue(alice, `document.getElementById("tg-start").hidden`), "no start before every seat is taken")

	// Bob opens the link and joins the free seat.
	bob.open(srv.URL, id)
	bob.screen("table")
	bob.WaitFor(`!document.getElementById("tg-join").hidden`)
	bob.shot("pig-join-bob-phone")
	bob.checkScreen("Pig's join form at 390 px")
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)

	// Alice's page sees the table full (polling) and starts it.
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	players := map[string]*player{alice.uid: alice, bob.uid: bob}
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
	}

	// Play to the end: each move by the page of the seat to move, among
	// the buttons it offers (hold at a turn total of 20 or more, else roll).
	moves, titled := 0, false
	for ; ; moves++ {
		require.Less(t, moves, 2000, "the game never ended")
		v := view(alice, id)
		if v.Phase == "finished" {
			break
		}
		p := players[v.Seats[v.ToMove].UID]
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d" && document.getElementById("table").dataset.mine === "1"`, v.Version))
		var offered []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-move-buttons button")).map((b) => b.dataset.move)`, &offered)
		legal := view(p, id).Legal
		want := make([]string, len(legal))
		for i, m := range legal {
			want[i] = string(m)
		}
		require.Equal(t, want, offered, "the page offers exactly the server's legal moves")
		var titles []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-move-buttons button")).map((b) => b.title)`, &titles)
		for _, title := range titles {
			require.NotEmpty(t, title, "a move's doc from the definition")
		}
		pick := 0
		if v.State.TurnTotal >= 20 && len(offered) > 1 {
			pick = 1
		}
		require.Contains(t, offered[pick], []string{`"roll"`, `"hold"`}[pick])
		if moves == 6 {
			alice.shot("pig-play-alice-desktop")
			bob.shot("pig-play-bob-phone")
			alice.checkScreen("Pig in play at 1280 px")
			bob.checkScreen("Pig in play at 390 px")
		}
		if p == bob && !titled {
			// A page in the background says when the game waits for its
			// player (document.hidden set through DevTools: headless
			// Chromium keeps every page visible); the other's does not.
			titled = true
			hide := func(p *player, hidden bool) {
				p.Eval(fmt.Sprintf(`Object.defineProperty(document, "hidden", {configurable: true, get: () => %t}); document.dispatchEvent(new Event("visibilitychange"))`, hidden), nil)
			}
			hide(bob, true)
			hide(alice, true)
			bob.WaitFor(`document.title === "Your move — fairboard"`)
			require.Equal(t, "fairboard: play", alice.String(`document.title`))
			hide(bob, false)
			hide(alice, false)
			bob.WaitFor(`document.title === "fairboard: play"`)
		}
		p.Click(fmt.Sprintf(`#tg-move-buttons button:nth-child(%d)`, pick+1))
		p.WaitFor(fmt.Sprintf(`Number(document.getElementById("table").dataset.version) > %d && document.getElementById("table").dataset.pending !== "1"`, v.Version))
		status := p.String(`document.getElementById("tg-status").textContent`)
		require.False(t, strings.HasPrefix(status, "Refused"), "the server accepted the offered move: %s", status)
	}
	t.Logf("%d moves", moves)
	// Polled (the in-memory server): each page reads getView while the
	// other is to move, the reads TestFairPigLiveInChromium finds none of
	// once its pages listen (the positive control of its check).
	polls := 0
	for _, c := range srv.viewCalls() {
		if c.answer.Phase == "playing" && c.answer.Seat >= 0 && c.answer.ToMove != c.answer.Seat {
			polls++
		}
	}
	require.Positive(t, polls, "the polled pages' reads while waiting")
	t.Logf("%d getView reads of a page while the other was to move", polls)

	// The end: both pages show it; exactly the winner reads "You won".
	final := view(alice, id)
	require.NotNil(t, final.Outcome)
	require.Len(t, final.Outcome.Winners, 1)
	winner := final.Seats[final.Outcome.Winners[0]].UID
	for uid, p := range players {
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.phase === "finished" && document.getElementById("table").dataset.logSeq === "%d"`, len(final.Log)))
		result := p.String(`document.getElementById("tg-result").textContent`)
		require.Equal(t, uid == winner, strings.Contains(result, "You won"), "%s reads %q", uid, result)
		require.Equal(t, "The game is over.", p.String(`document.getElementById("tg-turn").textContent`))
		require.True(t, isTrue(p, `!document.querySelector('#tg-state dd[data-key="turn"]')`), "no seat to move once finished")

		// The page's log is the server's, event for event, in words.
		var seqs []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-log li")).map((li) => li.dataset.seq + " " + li.dataset.type)`, &seqs)
		var texts []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-log li")).map((li) => li.textContent)`, &texts)
		require.Len(t, seqs, len(final.Log))
		for i, e := range final.Log {
			require.Equal(t, fmt.Sprintf("%v %v", e["seq"], e["type"]), seqs[i])
			if e["type"] == "Rolled" {
				require.Contains(t, texts[i], fmt.Sprintf("rolled %v", e["value"]), "the roll in words")
			}
		}
		// The page's scores are the server's.
		for s, banked := range final.State.Banked {
			require.Equal(t, fmt.Sprint(banked), p.String(fmt.Sprintf(`document.querySelector('#tg-state dd[data-key="banked.%d"]').textContent`, s)))
		}
		// And so are its board's: the tracks, out of the ruleset's goal.
		checkBoard(t, srv, "pig", p, "at the end")
	}

	// Pig's rules recomputed from the log give the server's scores and
	// winner.
	banked := make([]int, len(final.Seats))
	total, won := 0, -1
	num := func(e map[string]any, f string) int { return int(e[f].(float64)) }
	for _, e := range final.Log {
		if e["game"] != true {
			continue
		}
		switch e["type"] {
		case "Rolled":
			if num(e, "value") == 1 {
				require.Equal(t, 0, num(e, "turnTotal"))
				continue
			}
			total += num(e, "value")
			require.Equal(t, total, num(e, "turnTotal"))
		case "Busted":
			require.Equal(t, total, num(e, "lost"))
			total = 0
		case "Held":
			banked[num(e, "seat")] += total
			total = 0
			require.Equal(t, banked[num(e, "seat")], num(e, "banked"))
		case "Won":
			banked[num(e, "seat")] += total
			won = num(e, "seat")
			require.Equal(t, banked[won], num(e, "score"))
			require.GreaterOrEqual(t, banked[won], 30, "the goal asked for")
		}
	}
	require.Equal(t, final.State.Banked, banked)
	require.Equal(t, final.Outcome.Winners[0], won)

	for _, p := range []*player{alice, bob} {
		checkRecordEnd(t, p, "In a crypto game the server drew the dice")
		require.NotContains(t, p.String(`document.getElementById("tg-record-checks").textContent`), "deck", "Pig shuffles no deck")
	}
	alice.shot("pig-end-alice-desktop")
	bob.shot("pig-end-bob-phone")
	alice.checkScreen("Pig's end at 1280 px")
	bob.checkScreen("Pig's end at 390 px")
	require.True(t, isTrue(alice, `document.getElementById("tg-abandon").hidden`), "no abandon once finished")
	require.True(t, isTrue(alice, `document.getElementById("tg-seeded").hidden && document.getElementById("tg-seed-end").hidden`), "a crypto table says nothing of a seed")

	// A second game, seeded.
	playSeededPig(t, srv, alice, bob)

	// A third game, abandoned by its owner in play (after a confirmation):
	// both pages show the end, with no winner.
	alice.Click("#tg-leave")
	alice.screen("lobby")
	require.Equal(t, "pig", alice.String(`document.getElementById("create-game").value`))
	alice.chooseMode("crypto")
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	id2 := alice.String(`document.getElementById("tg-id").textContent`)
	require.NotEqual(t, id, id2)
	bob.open(srv.URL, id2)
	bob.WaitFor(`document.getElementById("tg-id").textContent === "` + id2 + `" && !document.getElementById("tg-join").hidden`)
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
	bob.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
	require.True(t, isTrue(bob, `document.getElementById("tg-abandon").hidden`), "only the owner may abandon")
	alice.Click("#tg-abandon")
	alice.WaitFor(`document.activeElement && document.activeElement.id === "tg-abandon-confirm"`)
	alice.Click("#tg-abandon-confirm")
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "finished"`)
		result := p.String(`document.getElementById("tg-result").textContent`)
		require.Contains(t, result, "abandoned")
		require.NotContains(t, result, "You won")
	}
	require.True(t, view(alice, id2).Outcome.Abandoned)
	for _, p := range players {
		p.CheckConsole(expectedConsole...)
	}
}

// isTrue evaluates a boolean expression in the page.
func isTrue(p *player, expr string) bool {
	var b bool
	p.Eval(expr, &b)
	return b
}
