package play_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/table"
)

// seatEvents are the table's own events about seats in v's log, as
// "Type seat uid" (the seat from 0), read from getView's JSON.
func seatEvents(t *testing.T, v *functions.TableView) []string {
	t.Helper()
	var log []map[string]any
	require.NoError(t, json.Unmarshal(v.Log, &log))
	var out []string
	for _, e := range log {
		switch e["type"] {
		case "Joined", "Left", "SeatRemoved":
			out = append(out, e["type"].(string)+" "+strconv.Itoa(int(e["seat"].(float64)))+" "+e["uid"].(string))
		}
	}
	return out
}

// A lobby's seats on the page (docs/play.md, "Other games: the generic
// board"), on the in-memory server, at a fair Pig table of three seats
// with openings, whose seats carry a commitment kept in the browser:
// Bob joins from the link, leaves from his page (asked first), and the
// table shows his seat free with no commitment; he joins again, and the
// owner Alice removes him from hers (asked first); his page says so and
// offers the join form, and he joins a third time. Each step is checked
// in the table's own getView, independently of the pages. Once Carol
// (the API) takes the last seat, every page opens by itself: Bob's
// contribution, kept across his leave and removal, opens the commitment
// of his last join (the server checks it), and from the first opening
// on neither page offers a leave or a removal. A leave sent after the
// start is refused, said in words, and he keeps his seat.
func TestTableSeatsLeaveRemoveInChromium(t *testing.T) {
	m := newMemTable(t)
	ctx, api := m.ctx, m.api
	alice := m.page("Alice", browser.Desktop)
	bob := m.page("Bob", browser.Phone)

	id := tableID("seats-")
	// view is the table as the owner reads it by getView (not the pages).
	view := func() *functions.TableView {
		t.Helper()
		v, err := functest.TableView(ctx, api, id, "dev:alice")
		require.NoError(t, err)
		return v
	}
	m.create("alice", id, map[string]any{"mode": "fair", "seats": 3, "openings": true})
	alice.open(m.srv.URL, id)
	alice.joinTable()
	bob.open(m.srv.URL, id)
	bob.joinTable()
	seatOf := `document.getElementById("table").dataset.seat`
	require.Equal(t, "1", bob.String(seatOf))
	first := kept(t, bob, id)
	v := view()
	require.Equal(t, []string{"alice", "bob", ""}, []string{v.Seats[0].UID, v.Seats[1].UID, v.Seats[2].UID})
	require.Equal(t, first.EntropyCommitmentHex, v.Fairness.Openings.CommitmentsHex[1])
	require.True(t, isTrue(alice, `document.getElementById("tg-seat-leave").hidden === false`), "the owner may leave her own seat too")

	// Bob leaves, asked first.
	bob.WaitFor(`!document.getElementById("tg-seat-leave").hidden && document.getElementById("tg-seat-leave-confirm").hidden`)
	bob.Click("#tg-seat-leave")
	bob.WaitFor(`!document.getElementById("tg-seat-leave-confirm").hidden`)
	require.Equal(t, "1", bob.String(seatOf), "asking leaves the seat alone")
	bob.Click("#tg-seat-leave-confirm")
	bob.WaitFor(`document.getElementById("table").dataset.seat === "-1" && !document.getElementById("tg-join").hidden && document.getElementById("tg-seat-news").dataset.kind === "left"`)
	require.Equal(t, "You left seat 2. You may take a free seat again below.", bob.String(`document.getElementById("tg-seat-news").textContent`))
	require.True(t, isTrue(bob, `document.getElementById("tg-seat-leave").hidden`))
	v = view()
	require.Equal(t, "", v.Seats[1].UID)
	require.Equal(t, "", v.Fairness.Openings.CommitmentsHex[1], "the commitment left with the seat")
	require.Equal(t, []string{"Joined 0 alice", "Joined 1 bob", "Left 1 bob"}, seatEvents(t, v))
	alice.WaitFor(`document.getElementById("tg-log").textContent.includes("left seat 2")`)

	// Bob joins again at the same seat: the kept contribution is
	// committed to again (never opened, it stayed secret).
	bob.joinTable()
	require.Equal(t, "1", bob.String(seatOf))
	require.Equal(t, first, kept(t, bob, id))
	require.True(t, isTrue(bob, `document.getElementById("tg-seat-news").hidden`), "seated again: no news of a freed seat")
	v = view()
	require.Equal(t, "bob", v.Seats[1].UID)
	require.Equal(t, first.EntropyCommitmentHex, v.Fairness.Openings.CommitmentsHex[1])

	// The owner removes Bob, asked first; none is offered for her own seat.
	ask := `#tg-remove-seats .tg-remove-ask[data-seat="1"]`
	yes := `#tg-remove-seats .tg-remove-yes[data-seat="1"]`
	alice.WaitFor(`document.querySelector('` + ask + `') && document.querySelector('` + yes + `').hidden`)
	require.Equal(t, "1", alice.String(`String(document.querySelectorAll("#tg-remove-seats li").length)`), "only the other player's seat")
	require.True(t, isTrue(bob, `document.getElementById("tg-remove").hidden`), "a player who does not own the table removes nobody")
	alice.Click(ask)
	alice.WaitFor(`!document.querySelector('` + yes + `').hidden`)
	require.Equal(t, "Yes, free seat 2", alice.String(`document.querySelector('`+yes+`').textContent`))
	checkWords(t, alice, "the owner asked to free a seat")
	alice.shot("table-seat-remove-1280")
	alice.checkScreen("the owner asked to free a seat, at 1280 px")
	require.Equal(t, "bob", view().Seats[1].UID, "asking removes nobody")
	alice.Click(yes)
	bob.WaitFor(`document.getElementById("table").dataset.seat === "-1" && !document.getElementById("tg-join").hidden && document.getElementById("tg-seat-news").dataset.kind === "removed"`)
	require.Equal(t, "The owner removed you from seat 2. You may take a free seat again below.", bob.String(`document.getElementById("tg-seat-news").textContent`))
	bob.WaitFor(`/The owner removed Player [0-9A-F]{4} from seat 2/.test(document.getElementById("tg-log").textContent)`)
	checkWords(t, bob, "a removed player's page")
	bob.shot("table-seat-removed-390")
	bob.checkScreen("a removed player's page, at 390 px")
	v = view()
	require.Equal(t, "", v.Seats[1].UID)
	require.Equal(t, "", v.Fairness.Openings.CommitmentsHex[1])
	require.Equal(t, []string{"Joined 0 alice", "Joined 1 bob", "Left 1 bob", "Joined 1 bob", "SeatRemoved 1 bob"}, seatEvents(t, v))
	alice.WaitFor(`document.querySelectorAll("#tg-remove-seats li").length === 0 && document.getElementById("tg-remove").hidden`)

	// Bob joins a third time; Carol takes the last seat; the pages open.
	bob.joinTable()
	require.Equal(t, first, kept(t, bob, id))
	carol := strings.Repeat("c3", 32)
	v = view()
	require.NoError(t, api.Call(ctx, "joinGame", "dev:carol", map[string]any{"game": "pig", "gameId": id, "actionId": "join", "version": v.Version, "seat": 2, "entropyCommitment": commitHex(t, id, 2, carol)}, nil))
	for seat, p := range []*player{alice, bob} {
		p.WaitFor(`document.querySelector("#tg-open-seats li[data-seat='`+strconv.Itoa(seat)+`'][data-opened='1']")`, time.Minute)
		require.True(t, isTrue(p, `document.getElementById("tg-seat-leave").hidden && document.getElementById("tg-remove").hidden`), "%s: the seats are fixed by the first opening", p.name)
	}
	v = view()
	require.Equal(t, []bool{true, true, false}, v.Fairness.Openings.Opened, "Bob's kept contribution opened his last join's commitment")
	require.NoError(t, api.Call(ctx, "act", "dev:carol", map[string]any{"game": "pig", "gameId": id, "actionId": "open", "version": v.Version, "kind": "open", "entropy": carol}, nil))
	require.NoError(t, api.Call(ctx, "startGame", "dev:alice", map[string]any{"game": "pig", "gameId": id, "actionId": "start", "version": view().Version}, nil))

	// After the start the page offers no leave; a leave sent anyway (the
	// test clicks the hidden button, as a page that had not read the start
	// would send it) is refused, said in words, and Bob keeps his seat.
	bob.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
	require.True(t, isTrue(bob, `document.getElementById("tg-seat-leave").hidden && document.getElementById("tg-seat-leave-confirm").hidden`))
	bob.Eval(`document.getElementById("tg-seat-leave-confirm").click()`, nil)
	bob.WaitFor(`document.getElementById("tg-status").textContent.startsWith("Refused")`)
	require.Equal(t, "Refused: The game has already started.", bob.String(`document.getElementById("tg-status").textContent`))
	require.Equal(t, "already_started", bob.String(`document.getElementById("tg-status").dataset.code`))
	v = view()
	require.Equal(t, "playing", v.Phase)
	require.Equal(t, "bob", v.Seats[1].UID, "the refused leave left the seat taken")
	bob.CheckConsole(expectedConsole...)
	alice.CheckConsole(expectedConsole...)
}

// trustSeatOf is the chain head and key uid's seat joined with at a
// trustless table, as the table shows them ("" while uid holds none).
func trustSeatOf(v *table.View, uid string) string {
	for _, s := range v.Trustless.Seats {
		if s.UID == uid {
			return s.ChainHead + " " + s.PublicKey
		}
	}
	return ""
}

// A trustless Pig table's seat kept on the device across a leave and a
// removal, on the in-memory server: Alice's page joins seat 2, leaves
// it, and joins again with the same chain head and key (the seat kept in
// IndexedDB, never revealed in the lobby, made again for the same seat);
// the owner Bob (the API) removes her, her page says so, and she joins a
// third time, again with them. Once started, Bob's roll waits for its
// round, and Alice's page reveals her link for it: the server checks it
// against the chain head of her last join, and the round closes.
func TestTrustlessSeatLeaveInChromium(t *testing.T) {
	m := newMemTable(t)
	alice := m.page("Alice", browser.Phone)

	id := tableID("trust-seats-")
	tt, bobSeat := m.trustPig(id, 0)
	view := func() *table.View {
		t.Helper()
		v, err := tt.View("bob")
		require.NoError(t, err)
		return v
	}

	alice.open(m.srv.URL, id)
	alice.joinTable()
	first := trustSeatOf(view(), "alice")
	require.NotEmpty(t, first)
	alice.Click("#tg-seat-leave")
	alice.WaitFor(`!document.getElementById("tg-seat-leave-confirm").hidden`)
	alice.Click("#tg-seat-leave-confirm")
	alice.WaitFor(`document.getElementById("tg-seat-news").dataset.kind === "left" && !document.getElementById("tg-join").hidden`)
	v := view()
	require.Equal(t, "", v.Seats[1].UID)
	require.Equal(t, "", trustSeatOf(v, "alice"), "the seat's chain and key left with it")

	alice.joinTable()
	require.Equal(t, first, trustSeatOf(view(), "alice"), "the seat kept on the device, joined again")
	v = view()
	require.NoError(t, m.api.Call(m.ctx, "act", "dev:bob", map[string]any{"game": "pig", "gameId": id, "actionId": "remove", "version": v.Version, "kind": "removeSeat", "seat": 1}, nil))
	alice.WaitFor(`document.getElementById("tg-seat-news").dataset.kind === "removed" && !document.getElementById("tg-join").hidden`)
	require.Equal(t, "The owner removed you from seat 2. You may take a free seat again below.", alice.String(`document.getElementById("tg-seat-news").textContent`))
	require.Equal(t, "", view().Seats[1].UID)
	alice.joinTable()
	require.Equal(t, first, trustSeatOf(view(), "alice"))

	v = view()
	_, err := tt.Do(table.Action{Actor: "bob", ActionID: "start", Version: v.Version, Kind: table.KindStart})
	require.NoError(t, err)
	v = view()
	require.Equal(t, 0, v.ToMove)
	a, err := bobSeat.Move("roll", v, v.Legal[0])
	require.NoError(t, err)
	_, err = tt.Do(a)
	require.NoError(t, err)
	p := view().Trustless.Pending
	require.NotNil(t, p, "the roll waits for its round")
	alice.WaitFor(fmt.Sprintf(`document.getElementById("tg-trust").dataset.revealed === "%d"`, p.Index), time.Minute)
	require.Eventually(t, func() bool { return view().Trustless.Pending == nil }, time.Minute, 100*time.Millisecond, "Alice's reveal closed the round")
	alice.CheckConsole(expectedConsole...)
}
