package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// Kuhn poker on the emulators, followed through Firestore listeners: each
// page reads its own card from its seat's document (which the rules let
// its uid alone read), its own deal from there in the place of the trace
// the public log holds, and only the other seat's trace; at the end each
// page's log is, event for event, the table's view of that seat (getView's
// source), and its card row the one the table dealt it.
func TestKuhnLiveInChromium(t *testing.T) {
	pageTest(t, true)
	srv, tables := emuTableServer(t)
	b := chrome.Browser(t)
	alice := newPlayer(t, b, "alice", browser.Desktop, srv.URL+"/play/")
	bob := newPlayer(t, b, "bob", browser.Phone, srv.URL+"/play/")
	alice.signInGuest()
	bob.signInGuest()
	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "kuhn"; s.dispatchEvent(new Event("change")); })()`, nil)
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	id := alice.String(`document.getElementById("tg-id").textContent`)
	alice.uid = alice.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	bob.open(srv.URL, id)
	bob.screen("table")
	bob.WaitFor(`!document.getElementById("tg-join").hidden`)
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	bob.uid = bob.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	players := []*player{alice, bob}
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.live === "1" && document.querySelector('#tg-state dd[data-key="private.card"]')`, time.Minute)
	}
	for moves := 0; ; moves++ {
		require.Less(t, moves, 10)
		version := agreedVersion(t, players, time.Minute)
		if alice.String(`document.getElementById("table").dataset.phase`) == "finished" {
			break
		}
		toMove, err := strconv.Atoi(alice.String(`document.getElementById("table").dataset.toMove`))
		require.NoError(t, err)
		p := players[toMove]
		p.WaitFor(`document.getElementById("table").dataset.mine === "1"`, time.Minute)
		p.Click(`#tg-move-buttons button:nth-child(1)`)
		for _, q := range players {
			q.WaitFor(`Number(document.getElementById("table").dataset.version) > `+version, time.Minute)
		}
	}
	cards := map[string]string{}
	for _, p := range players {
		end, _, err := tables.View(context.Background(), id, p.uid)
		require.NoError(t, err)
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.logSeq === "%d"`, len(end.Log)), time.Minute)
		var st struct{ Private struct{ Card int } }
		require.NoError(t, json.Unmarshal(end.State, &st))
		cards[p.uid] = []string{"J", "Q", "K"}[st.Private.Card] // the page names Kuhn's cards
		require.Equal(t, cards[p.uid], p.String(`document.querySelector('#tg-state dd[data-key="private.card"]').textContent`), "%s's own card", p.name)
		require.Equal(t, "1", p.String(`String(document.querySelectorAll('#tg-state dd[data-key^="private"]').length)`), "one private row: its own")
		var items []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-log li")).map((li) => li.dataset.seq + " " + li.dataset.type)`, &items)
		require.Len(t, items, len(end.Log))
		dealt, traces := 0, 0
		for i, e := range end.Log {
			typ := e.Type // the table's view of the seat: its own deal, the other's trace
			require.Equal(t, fmt.Sprintf("%d %s", e.Seq, typ), items[i], "%s's log", p.name)
			switch typ {
			case "Dealt":
				dealt++
			case "Addressed":
				traces++
			}
		}
		require.Equal(t, []int{1, 1}, []int{dealt, traces}, "%s: its own deal, the other's trace", p.name)
		p.CheckConsole(append(expectedConsole, regexp.MustCompile(`net::ERR_\w+ \(https://www\.google\.com/images/cleardot\.gif\?`))...)
	}
	require.NotEqual(t, cards[alice.uid], cards[bob.uid])
	alice.shot("kuhn-live-end-1280")
	bob.shot("kuhn-live-end-390")
}
