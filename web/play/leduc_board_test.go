package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/internal/browser"
)

// leducView is the part of getView's answer for a Leduc table the test
// reads: the seat's view is the game's public part and its own card.
type leducView struct {
	Phase   string `json:"phase"`
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
	ToMove  int    `json:"toMove"`
	Seats   []struct {
		UID string `json:"uid"`
	} `json:"seats"`
	State struct {
		Public struct {
			Shown []string `json:"shown"`
		} `json:"public"`
		Private struct {
			Card string `json:"card"`
		} `json:"private"`
	} `json:"state"`
	Legal   []json.RawMessage `json:"legal"`
	Log     []map[string]any  `json:"log"`
	Outcome *struct {
		Winners []int `json:"winners"`
	} `json:"outcome"`
}

// Leduc hold'em in the browser, on its own board (pokerboard.ts), its
// values still listed as the generic board's rows: Alice creates a
// Leduc table from the lobby, Bob joins by the link, and they play a hand
// by clicking the buttons their pages offer (Alice raises first, then
// every move is a call: a showdown). Every move offered is one the server
// lists. Before the showdown each page shows its own card (the server's
// card for that seat) face up on the board, the other's face down, and
// nowhere in its board, its state or its log the other's; at the
// showdown both pages show both cards face up on the board, in the state
// and in the log, and the result; the board's pot, chips in and public
// card are getView's (checkBoard).
func TestLeducOnGenericBoard(t *testing.T) {
	pageTest(t, false)
	srv := newDevServer(t)
	b := chrome.Browser(t)
	alice := newPlayer(t, b, "Alice", browser.Desktop, srv.URL+"/play/")
	bob := newPlayer(t, b, "Bob", browser.Phone, srv.URL+"/play/")
	alice.signInDev()
	bob.signInDev()
	api := &functest.Client{Base: srv.URL}
	view := func(p *player, id string) leducView {
		t.Helper()
		var v leducView
		require.NoError(t, api.Call(context.Background(), "getView", "dev:"+p.uid, map[string]any{"gameId": id}, &v))
		return v
	}

	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "leduc"; s.dispatchEvent(new Event("change")); })()`, nil)
	require.Equal(t, "2", alice.String(`document.getElementById("create-seats").value`), "Leduc's seat count")
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	id := alice.String(`document.getElementById("tg-id").textContent`)
	bob.open(srv.URL, id)
	bob.screen("table")
	bob.WaitFor(`!document.getElementById("tg-join").hidden`)
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	players := map[string]*player{alice.uid: alice, bob.uid: bob}
	card := map[*player]string{}
	seatOf := map[*player]int{}
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
		v := view(p, id)
		card[p], seatOf[p] = v.State.Private.Card, v.Seat
		require.Regexp(t, `^[JQK][sh]$`, card[p])
	}
	require.NotEqual(t, card[alice], card[bob])
	other := func(p *player) *player {
		if p == alice {
			return bob
		}
		return alice
	}

	for moves := 0; ; moves++ {
		require.Less(t, moves, 10, "the hand never ended")
		v := view(alice, id)
		if v.Phase == "finished" {
			break
		}
		// Each page, at this version, shows its own card and not the other's.
		for _, p := range players {
			p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d"`, v.Version))
			require.Equal(t, card[p], p.String(`document.querySelector('#tg-state dd[data-key="private.card"]').textContent`))
			require.Equal(t, card[p], p.String(`document.querySelector("#tg-board li.poker-seat.me .card").dataset.card`), "%s's board: its own card face up", p.name)
			require.Equal(t, "", p.String(`document.querySelector("#tg-board li.poker-seat:not(.me) .card").dataset.card`), "%s's board: the other's card face down", p.name)
			for _, part := range []string{"#tg-state", "#tg-log", "#tg-board"} {
				text := p.String(`document.querySelector("` + part + `").textContent`)
				require.NotContains(t, text, card[other(p)], "%s's %s shows the other seat's card", p.name, part)
				require.NotContains(t, text, cardWordsOf(card[other(p)]), "%s's %s says the other seat's card", p.name, part)
			}
			require.Contains(t, p.String(`document.getElementById("tg-log").textContent`), "Your card: "+card[p])
		}
		p := players[v.Seats[v.ToMove].UID]
		p.WaitFor(`document.getElementById("table").dataset.mine === "1"`)
		var offered []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-move-buttons button")).map((b) => b.dataset.move)`, &offered)
		legal := view(p, id).Legal
		want := make([]string, len(legal))
		for i, m := range legal {
			want[i] = string(m)
		}
		require.ElementsMatch(t, want, offered, "the page offers exactly the server's legal moves")
		if len(offered) > 1 {
			require.NotEqual(t, `{"kind":"fold"}`, offered[0], "the fold is never the first button, which takes the focus")
		}
		kind := `{"kind":"call"}`
		if moves == 0 {
			kind = `{"kind":"raise"}`
		}
		pick := -1
		for i, m := range offered {
			if m == kind {
				pick = i
			}
		}
		require.GreaterOrEqual(t, pick, 0, "%s is offered", kind)
		if moves == 1 {
			checkBoard(t, srv, "leduc", p, "in play")
			p.shot("leduc-play-" + p.uid)
			p.checkScreen("Leduc in play")
		}
		p.Click(fmt.Sprintf(`#tg-move-buttons button:nth-child(%d)`, pick+1))
		p.WaitFor(fmt.Sprintf(`Number(document.getElementById("table").dataset.version) > %d && document.getElementById("table").dataset.pending !== "1"`, v.Version))
		status := p.String(`document.getElementById("tg-status").textContent`)
		require.False(t, strings.HasPrefix(status, "Refused"), "the server accepted the offered move: %s", status)
	}

	// The showdown: both cards on both pages, as the server shows them.
	final := view(alice, id)
	require.NotNil(t, final.Outcome)
	shown := make([]string, 2)
	for p, s := range seatOf {
		shown[s] = card[p]
	}
	require.Equal(t, shown, final.State.Public.Shown)
	for _, p := range players {
		log := view(p, id).Log // the events the seat may read: the other's Dealt is not among them
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.phase === "finished" && document.getElementById("table").dataset.logSeq === "%v"`, log[len(log)-1]["seq"]))
		for s, c := range shown {
			require.Equal(t, c, p.String(fmt.Sprintf(`document.querySelector('#tg-state dd[data-key="public.shown.%d"]').textContent`, s)))
			require.Equal(t, c, p.String(fmt.Sprintf(`document.querySelector('#tg-board li.poker-seat[data-seat="%d"] .card').dataset.card`, s)), "the showdown: seat %d's card face up on the board", s)
		}
		checkBoard(t, srv, "leduc", p, "at the showdown")
		// The showdown names the players (by their names, the reader's own
		// with "(you)"), never "seat 1".
		names := map[int]string{}
		for q, s := range seatOf {
			names[s] = strings.TrimSuffix(q.String(`document.querySelector("#tg-players li.me strong").textContent`), " (you)")
		}
		line := p.String(`Array.from(document.querySelectorAll("#tg-log li")).map((li) => li.textContent).find((t) => t.startsWith("Showdown:")) || ""`)
		require.Regexp(t, fmt.Sprintf(`^Showdown: %s( \(you\))? shows %s, %s( \(you\))? shows %s$`, regexp.QuoteMeta(names[0]), shown[0], regexp.QuoteMeta(names[1]), shown[1]), line)
		result := p.String(`document.getElementById("tg-result").textContent`)
		switch {
		case len(final.Outcome.Winners) == 0:
			require.Contains(t, result, "no winner")
		case final.Outcome.Winners[0] == seatOf[p]:
			require.Contains(t, result, "You won")
		default:
			require.NotContains(t, result, "You won")
		}
		p.shot("leduc-end-" + p.uid)
		p.checkScreen("Leduc's showdown")
	}
}
