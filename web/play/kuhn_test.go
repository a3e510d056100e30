package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/internal/browser"
)

// Kuhn poker in the browser, on its own board (pokerboard.ts), its values
// still listed as the generic board's rows: each page shows its own card
// (the private row and the card face up on the board, from its own
// getView) and never the other seat's (face down on the board until the
// showdown: checkBoard); its log says its own deal and, for the other seat's, only that
// the other seat was told something (the trace). Played to the end by
// clicking the first move each page offers.
func TestKuhnShowsEachSeatItsOwnCard(t *testing.T) {
	pageTest(t, false)
	srv := newDevServer(t)
	b := chrome.Browser(t)
	alice := newPlayer(t, b, "Alice", browser.Desktop, srv.URL+"/play/")
	bob := newPlayer(t, b, "Bob", browser.Phone, srv.URL+"/play/")
	alice.signInDev()
	bob.signInDev()
	api := &functest.Client{Base: srv.URL}
	type kuhnView struct {
		Phase   string `json:"phase"`
		Version int    `json:"version"`
		Seat    int    `json:"seat"`
		ToMove  int    `json:"toMove"`
		State   struct {
			Private struct{ Card int } `json:"private"`
		} `json:"state"`
		Log     []map[string]any `json:"log"`
		Seats   []struct{ UID string }
		Outcome json.RawMessage `json:"outcome"`
	}
	view := func(p *player, id string) kuhnView {
		t.Helper()
		var v kuhnView
		require.NoError(t, api.Call(context.Background(), "getView", "dev:"+p.uid, map[string]any{"gameId": id}, &v))
		return v
	}

	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "kuhn"; s.dispatchEvent(new Event("change")); })()`, nil)
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
	cards := map[string]int{}
	for uid, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing" && document.querySelector('#tg-state dd[data-key="private.card"]')`)
		v := view(p, id)
		cards[uid] = v.State.Private.Card
		require.Equal(t, []string{"J", "Q", "K"}[v.State.Private.Card], p.String(`document.querySelector('#tg-state dd[data-key="private.card"]').textContent`), "%s's page shows its own card", uid)
		require.Equal(t, "1", p.String(`String(document.querySelectorAll('#tg-state dd[data-key^="private"]').length)`), "one private row: its own")
		require.Equal(t, []string{"J", "Q", "K"}[v.State.Private.Card], p.String(`document.querySelector("#tg-board li.poker-seat.me .card").dataset.card`), "%s's board: its own card face up", uid)
		require.Equal(t, "", p.String(`document.querySelector("#tg-board li.poker-seat:not(.me) .card").dataset.card`), "%s's board: the other's card face down", uid)
	}
	require.NotEqual(t, cards[alice.uid], cards[bob.uid], "Kuhn deals two different cards")
	for uid, p := range players {
		for other, c := range cards {
			if other != uid {
				require.NotContains(t, p.String(`document.getElementById("tg-board").textContent`), cardWordsOf([]string{"J", "Q", "K"}[c]), "%s's board says the other's card", uid)
			}
		}
		checkBoard(t, srv, "kuhn", p, "dealt")
	}

	for moves := 0; ; moves++ {
		require.Less(t, moves, 10)
		v := view(alice, id)
		if v.Phase == "finished" {
			break
		}
		p := players[v.Seats[v.ToMove].UID]
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d" && document.getElementById("table").dataset.mine === "1"`, v.Version))
		p.Click(`#tg-move-buttons button:nth-child(1)`)
		p.WaitFor(fmt.Sprintf(`Number(document.getElementById("table").dataset.version) > %d && document.getElementById("table").dataset.pending !== "1"`, v.Version))
	}
	for uid, p := range players {
		final := view(p, id)
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.phase === "finished" && document.getElementById("table").dataset.logSeq === "%d"`, len(final.Log)))
		require.Equal(t, []string{"J", "Q", "K"}[cards[uid]], p.String(`document.querySelector('#tg-state dd[data-key="private.card"]').textContent`))
		checkBoard(t, srv, "kuhn", p, "at the end")
		var items []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-log li")).map((li) => li.dataset.type + " " + li.textContent)`, &items)
		dealt, traces := 0, 0
		for _, it := range items {
			switch {
			case len(it) > 6 && it[:6] == "Dealt ":
				dealt++
			case len(it) > 10 && it[:10] == "Addressed ":
				traces++
				require.Contains(t, it, "was told something only they can see")
				require.NotContains(t, it, "card")
			}
		}
		require.Equal(t, 1, dealt, "%s's page: its own deal", uid)
		require.Equal(t, 1, traces, "%s's page: the other seat's deal as its trace", uid)
		checkRecordEnd(t, p, "It opens the deck's commitment this page showed as the cards were shuffled", "In a crypto game the server drew the dice")
	}
	bob.Eval(`document.getElementById("tg-record-end").scrollIntoView()`, nil)
	bob.shot("kuhn-record-end-390")
	bob.checkScreen("Kuhn's end with its record checked, at 390 px")
}

// checkRecordEnd waits for p's check of a finished crypto or fair
// table's record (tablerecord.ts) and requires it passed, saying each of
// want.
func checkRecordEnd(t *testing.T, p *player, want ...string) {
	t.Helper()
	p.WaitFor(`!document.getElementById("tg-record-end").hidden && !["", "unread"].includes(document.getElementById("tg-record-end").dataset.status)`, time.Minute)
	text := p.String(`document.getElementById("tg-record-checks").textContent`)
	require.Equal(t, "ok", p.String(`document.getElementById("tg-record-end").dataset.status`), text)
	require.Equal(t, "yes", p.String(`document.getElementById("tg-record-end").dataset.ok`), text)
	require.Contains(t, text, "It is this table's game")
	for _, w := range want {
		require.Contains(t, text, w)
	}
}
