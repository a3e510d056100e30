package play_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/browser"
	fbmatch "github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// A trustless Pig table on the emulators, played in two pages through the
// functions (docs/play.md, "Trustless tables"): the create form offers
// "trustless" for Pig (every part public) and Kuhn (its deal by mental
// poker); Alice (desktop) creates, Bob (phone) joins (a game to 30
// points, not 100, asked for by the test server: pigGoal),
// each page's seat drawn in its WebAssembly (table/trustseat); every roll
// goes with its actor's own reveal, and the other page reveals the round
// by itself; the round's deadline is shown. At the end each page judges
// the record (exportGame) as the verifier page does, and finds its own
// chain head and key in it; the record, read here, replays
// (match.CheckRecord), names the pages' uids, holds one move per click and
// both seats' links for every roll; a record with a roll changed is
// refused by the same check in the page (the positive control). Each
// page's polls send its seat's checkpoint once it has checked moves and
// are answered the moves after it, each the record's; those sent before
// read every move (seatCheckpoints, checkpointPolls).
// Screenshots and axe at 1280 and 390 px.
func TestTrustlessPigInChromium(t *testing.T) {
	pageTest(t, true)
	srv, _ := emuTableServer(t)
	srv.withRules(pigGoal)
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		for _, c := range srv.viewCalls() {
			a := c.answer
			t.Logf("getView %s: v%d %s seat %d toMove %d legal %d total %d", c.uid, a.Version, a.Phase, a.Seat, a.ToMove, len(a.Legal), a.State.TurnTotal)
		}
		t.Logf("acts: %v", srv.actCalls())
	})
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	alice := newPlayer(t, b, "alice", browser.Desktop, url)
	bob := newPlayer(t, b, "bob", browser.Phone, url)
	alice.signInGuest()
	bob.signInGuest()

	offered := func(game string) bool {
		alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "`+game+`"; s.dispatchEvent(new Event("change")); })()`, nil)
		return isTrue(alice, `!document.getElementById("create-mode-trustless").hidden`)
	}
	require.True(t, offered("kuhn"), "Kuhn deals its private deck by mental poker")
	require.True(t, offered("pig"), "Pig declares every part public")
	id := alice.createTable("pig", "trustless", nil)
	alice.uid = alice.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	require.Contains(t, alice.String(`document.getElementById("tg-mode").textContent`), "Mode: trustless")
	alice.WaitFor(`!document.getElementById("tg-trust").hidden`)
	require.Contains(t, alice.String(`document.getElementById("tg-trust-key").textContent`), "never leave it")

	bob.open(srv.URL, id)
	bob.joinTable()
	bob.uid = bob.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	players := []*player{alice, bob}
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing"`, time.Minute)
	}

	clicks := 0
	for step := 0; ; step++ {
		require.Less(t, step, 4000, "the game never ended")
		// The later of the two pages' versions, shown by both (a reveal
		// moves a page on without a click).
		version := laterVersion(alice, bob)
		for _, q := range players {
			q.WaitFor(`Number(document.getElementById("table").dataset.version) >= `+version, 2*time.Minute)
		}
		if alice.String(`document.getElementById("table").dataset.phase`) == "finished" {
			break
		}
		if isTrue(alice, `!!document.getElementById("tg-trust-round").dataset.deadline`) {
			// A round is open: its close may pass the turn (a 1).
			alice.WaitFor(`Number(document.getElementById("table").dataset.version) > `+version+` || !document.getElementById("tg-trust-round").dataset.deadline`, 2*time.Minute)
			continue
		}
		toMove, err := strconv.Atoi(alice.String(`document.getElementById("table").dataset.toMove`))
		require.NoError(t, err)
		if toMove < 0 || toMove > 1 {
			continue
		}
		p := players[toMove]
		p.WaitFor(`document.getElementById("table").dataset.mine === "1" || Number(document.getElementById("table").dataset.version) > `+version+` || document.getElementById("table").dataset.phase === "finished"`, 2*time.Minute)
		if !isTrue(p, `document.getElementById("table").dataset.mine === "1"`) {
			continue
		}
		at := p.String(`document.getElementById("table").dataset.version`)
		total, _ := strconv.Atoi(p.String(`(document.querySelector('#tg-state dd[data-key="turnTotal"]') || {}).textContent || "0"`))
		pick := 1
		if total >= pigHold && isTrue(p, `document.querySelectorAll("#tg-move-buttons button").length > 1`) {
			pick = 2
		}
		kind := p.String(fmt.Sprintf(`document.querySelector("#tg-move-buttons button:nth-child(%d)").textContent`, pick))
		if clicks == 6 {
			seatCheckpoints(t, srv, id, alice, bob)
			alice.shot("table-trustless-play-1280")
			bob.shot("table-trustless-play-390")
			alice.checkScreen("a trustless table in play at 1280 px")
			bob.checkScreen("a trustless table in play at 390 px")
		}
		p.Click(fmt.Sprintf(`#tg-move-buttons button:nth-child(%d)`, pick))
		clicks++
		p.WaitFor(`Number(document.getElementById("table").dataset.version) > `+at, 2*time.Minute)
		require.NotContains(t, p.String(`document.getElementById("tg-status").textContent`), "Refused", "after %s", kind)
		require.NotContains(t, p.String(`document.getElementById("tg-status").textContent`), "failed")
	}
	t.Logf("trustless table %s: %d clicks", id, clicks)

	// The end: each page judged the record and found its own seat in it.
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "finished" && !["", "unread"].includes(document.getElementById("tg-trust-end").dataset.status)`, time.Minute)
		require.Equal(t, "ok", p.String(`document.getElementById("tg-trust-end").dataset.status`), p.String(`document.getElementById("tg-trust-checks").textContent`))
		require.Equal(t, "yes", p.String(`document.getElementById("tg-trust-end").dataset.mine`))
		require.Contains(t, p.String(`document.getElementById("tg-trust-checks").textContent`), "ok: pig record (trustless game)")
		require.NotEqual(t, "", p.String(`document.body.dataset.revealsSent || ""`), "%s's page revealed a round it did not open", p.name)
	}
	for _, p := range players {
		p.Eval(`document.getElementById("tg-end").scrollIntoView()`, nil)
	}
	alice.shot("table-trustless-end-1280")
	bob.shot("table-trustless-end-390")
	alice.checkScreen("a trustless table's end at 1280 px")
	bob.checkScreen("a trustless table's end at 390 px")

	// The record, read here (the last exportGame answer).
	srv.mu.Lock()
	require.NotEmpty(t, srv.exports)
	raw := srv.exports[len(srv.exports)-1]
	srv.mu.Unlock()
	var ans struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal(raw, &ans))
	rec, err := fbmatch.ReadRecord(ans.Result)
	require.NoError(t, err)
	def, err := registry.Lookup("pig")
	require.NoError(t, err)
	div, err := fbmatch.CheckRecord(def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	require.JSONEq(t, pigGoal, string(rec.Rules), "the table played to the goal the test asked for")
	require.Len(t, rec.Moves, clicks, "every click is a move applied")
	checkpointPolls(t, srv, rec, alice, bob)
	require.Equal(t, []string{alice.uid, bob.uid}, []string{rec.Trustless.Seats[0].UID, rec.Trustless.Seats[1].UID})
	rolls := 0
	for i, m := range rec.Trustless.Moves {
		if m.Index == 0 {
			continue
		}
		rolls++
		require.Len(t, m.Reveals, 2, "move %d's round has both seats' links", i)
	}
	require.Equal(t, rolls, len(srv.actRevealCalls()), "every roll came with its actor's reveal")
	require.Positive(t, rolls)

	// The positive control: the page's check refuses the record with one
	// roll changed.
	for i, line := range rec.Log {
		var e map[string]any
		require.NoError(t, json.Unmarshal(line, &e))
		if e["type"] == "Rolled" && e["value"] != float64(1) && e["value"] != float64(6) {
			e["value"] = e["value"].(float64) + 1
			rec.Log[i], _ = json.Marshal(e)
			break
		}
	}
	tampered, err := json.Marshal(rec)
	require.NoError(t, err)
	q, _ := json.Marshal(string(tampered))
	require.Equal(t, "diverged", alice.String(`fairboard.tableVerify(`+string(q)+`, "`+id+`", "`+alice.uid+`").status`))
	for _, p := range players {
		p.CheckConsole(expectedConsole...)
	}
}

// A staller at a trustless Pig table (the in-memory server, a deadline
// of 3 s): Bob is a Go seat client (table/trustseat) that rolls first,
// whose round Alice's page reveals by itself; when Alice rolls, Bob never
// reveals. Alice's page shows the round waiting for Bob with its
// deadline, and once the deadline has passed offers the abort; her click
// ends the game abandoned for "deadline", Bob missing, and her page still
// verifies the record.
func TestTrustlessPigAbortInChromium(t *testing.T) {
	m := newMemTable(t)
	alice := m.page("Alice", browser.Phone)

	// Bob creates the table and takes seat 1 (the first to move).
	id := tableID("trust-abort-")
	tt, bobSeat := m.trustPig(id, 3000)

	alice.open(m.srv.URL, id)
	alice.joinTable()
	v, err := tt.View("bob")
	require.NoError(t, err)
	_, err = tt.Do(table.Action{Actor: "bob", ActionID: "start", Version: v.Version, Kind: table.KindStart})
	require.NoError(t, err)
	alice.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)

	// Bob rolls until his turn passes (a 1) or holds after one roll that
	// was not a 1; Alice's page reveals each of his rounds.
	for step := 0; ; step++ {
		require.Less(t, step, 50)
		v, err := tt.View("bob")
		require.NoError(t, err)
		if v.ToMove != 0 {
			break
		}
		if p := v.Trustless.Pending; p != nil {
			alice.WaitFor(fmt.Sprintf(`document.getElementById("tg-trust").dataset.revealed === "%d"`, p.Index), time.Minute)
			continue
		}
		mv := v.Legal[0] // roll
		if step > 0 && len(v.Legal) > 1 {
			mv = v.Legal[1] // hold
		}
		a, err := bobSeat.Move(fmt.Sprintf("b%d", step), v, mv)
		require.NoError(t, err)
		_, err = tt.Do(a)
		require.NoError(t, err)
	}

	// Alice rolls; Bob stalls.
	alice.WaitFor(`document.getElementById("table").dataset.mine === "1"`, time.Minute)
	alice.Click(`#tg-move-buttons button:nth-child(1)`)
	// Her roll went with her own reveal: its acknowledgement is kept on
	// the device, unsigned (this server signs none; the page pins no key).
	alice.WaitFor(`document.getElementById("tg-trust-ack").textContent.includes("your move's reveal")`, time.Minute)
	require.Equal(t, "kept", alice.String(`document.getElementById("tg-trust-ack").dataset.ack`))
	ack := keptAck(t, alice, id)
	require.NotNil(t, ack)
	require.Equal(t, []any{table.KindMove, "alice", true}, []any{ack.Action.Kind, ack.Action.Actor, ack.Action.Reveal != nil})
	require.Nil(t, ack.Server)
	alice.WaitFor(`document.getElementById("tg-trust-round").textContent.includes("waiting for")`, time.Minute)
	require.Contains(t, alice.String(`document.getElementById("tg-turn").textContent`), "waits for the players' reveals")
	require.Contains(t, alice.String(`document.getElementById("tg-trust-round").textContent`), "Deadline")
	alice.shot("table-trustless-waiting-390")
	alice.checkScreen("a trustless round waiting for a staller at 390 px")
	alice.WaitFor(`!document.getElementById("tg-trust-abort").hidden`, time.Minute)
	alice.shot("table-trustless-abort-390")
	alice.checkScreen("the abort offered past the deadline at 390 px")
	alice.Click("#tg-trust-abort")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "finished" && !["", "unread"].includes(document.getElementById("tg-trust-end").dataset.status)`, time.Minute)
	end, err := tt.View("alice")
	require.NoError(t, err)
	require.NotNil(t, end.Outcome)
	require.True(t, end.Outcome.Abandoned)
	require.Equal(t, "deadline", end.Outcome.Reason)
	require.Equal(t, []int{0}, end.Outcome.Missing)
	require.Equal(t, "ok", alice.String(`document.getElementById("tg-trust-end").dataset.status`), alice.String(`document.getElementById("tg-trust-checks").textContent`))
	require.Equal(t, "yes", alice.String(`document.getElementById("tg-trust-end").dataset.mine`))
	require.Contains(t, alice.String(`document.getElementById("tg-trust-round").textContent`), "ended at the round's deadline")
	// Her kept acknowledgement is of her own reveal of that round, and the
	// abort named Bob: no blame (TestTrustlessAckKeptAndBlamedInChromium's
	// control on the page).
	require.Equal(t, "", alice.String(`document.getElementById("tg-trust-blame").dataset.dropped`))
	require.True(t, isTrue(alice, `document.getElementById("tg-trust-blame").hidden`))
	alice.Eval(`document.getElementById("tg-end").scrollIntoView()`, nil)
	alice.shot("table-trustless-aborted-390")
	alice.checkScreen("a trustless table aborted at the deadline, at 390 px")
	alice.CheckConsole(expectedConsole...)
}

// Trustless Kuhn poker in two pages on the emulators (issue 28): the deal
// is mental poker done in each page's WebAssembly (table/trustseat's deal
// client: each page's pass, its keys of the other's card), the keys kept
// in the page. Before the showdown each page holds exactly one card, its
// own, shown as "Your card"; at the end the record's recomputation of
// the deal (match.VerifyDeal, the independent source) gives each seat
// the card its page showed, and each page judges the record ok.
func TestTrustlessKuhnInChromium(t *testing.T) {
	srv, players := deskAndPhoneGuests(t, false)
	alice, bob := players[0], players[1]
	id := alice.createTable("kuhn", "trustless", nil)
	alice.uid = alice.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	bob.open(srv.URL, id)
	bob.joinTable()
	bob.uid = bob.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	shown := make([]string, 2)
	for i, p := range players {
		p.WaitFor(`document.getElementById("tg-trust-cards").dataset.cards !== ""`, 2*time.Minute)
		shown[i] = p.String(`document.getElementById("tg-trust-cards").dataset.cards`)
		require.Regexp(t, `^[0-2]$`, shown[i], "%s's page holds one card before the showdown", p.name)
		require.Contains(t, p.String(`document.getElementById("tg-trust-cards").textContent`), "Your card, opened on this device")
		var cards map[string]int
		require.NoError(t, json.Unmarshal([]byte(p.String(`fairboard.tableCards("`+id+`", "`+p.uid+`").cards`)), &cards))
		require.Len(t, cards, 1, "the wasm's seat opened one card: its own")
		// Its deal messages' acknowledgements are kept on the device,
		// unsigned (the emulators' functions sign none).
		p.WaitFor(`document.getElementById("tg-trust-ack").dataset.ack === "kept"`, time.Minute)
		require.Contains(t, p.String(`document.getElementById("tg-trust-ack").textContent`), "your part of the deal")
		ack := keptAck(t, p, id)
		require.NotNil(t, ack)
		require.Equal(t, []any{table.KindDeal, p.uid, true}, []any{ack.Action.Kind, ack.Action.Actor, ack.Action.Deal != nil})
	}
	require.NotEqual(t, shown[0], shown[1])
	alice.shot("table-trustless-kuhn-1280")
	bob.shot("table-trustless-kuhn-390")
	alice.checkScreen("a trustless Kuhn table at 1280 px")
	bob.checkScreen("a trustless Kuhn table at 390 px")

	for step := 0; ; step++ {
		if step >= 200 {
			for _, q := range players {
				t.Logf("%s: %s\n%s", q.name, q.String(`JSON.stringify(document.getElementById("table").dataset)`), q.String(`document.getElementById("table").innerText`))
			}
			t.Fatal("the hand never ended")
		}
		// The later of the two pages' versions (a deal's keys move it on
		// without a click), shown by both.
		version := laterVersion(alice, bob)
		for _, q := range players {
			q.WaitFor(`Number(document.getElementById("table").dataset.version) >= `+version, 2*time.Minute)
		}
		if alice.String(`document.getElementById("table").dataset.phase`) == "finished" {
			break
		}
		toMove, err := strconv.Atoi(alice.String(`document.getElementById("table").dataset.toMove`))
		require.NoError(t, err)
		if toMove < 0 || toMove > 1 {
			alice.WaitFor(`Number(document.getElementById("table").dataset.version) > `+version, 2*time.Minute)
			continue
		}
		p := players[toMove]
		p.WaitFor(`document.getElementById("table").dataset.mine === "1" || Number(document.getElementById("table").dataset.version) > `+version+` || document.getElementById("table").dataset.phase === "finished"`, 2*time.Minute)
		if !isTrue(p, `document.getElementById("table").dataset.mine === "1"`) {
			continue
		}
		at := p.String(`document.getElementById("table").dataset.version`)
		p.Click(`#tg-move-buttons button:nth-child(1)`)
		p.WaitFor(`Number(document.getElementById("table").dataset.version) > `+at, 2*time.Minute)
		// The other page's key may come between the board and the click:
		// the move is then refused as stale, and offered again.
		if st := p.String(`document.getElementById("tg-status").textContent`); !strings.Contains(st, "moved on") {
			require.NotContains(t, st, "Refused")
		}
	}
	for _, p := range players {
		p.WaitFor(`!["", "unread"].includes(document.getElementById("tg-trust-end").dataset.status)`, time.Minute)
		require.Equal(t, "ok", p.String(`document.getElementById("tg-trust-end").dataset.status`), p.String(`document.getElementById("tg-trust-checks").textContent`))
		require.Equal(t, "yes", p.String(`document.getElementById("tg-trust-end").dataset.mine`))
		p.Eval(`document.getElementById("tg-end").scrollIntoView()`, nil)
	}
	alice.shot("table-trustless-kuhn-end-1280")
	bob.shot("table-trustless-kuhn-end-390")
	alice.checkScreen("a trustless Kuhn table's end at 1280 px")
	bob.checkScreen("a trustless Kuhn table's end at 390 px")

	srv.mu.Lock()
	raw := srv.exports[len(srv.exports)-1]
	srv.mu.Unlock()
	var ans struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal(raw, &ans))
	rec, err := fbmatch.ReadRecord(ans.Result)
	require.NoError(t, err)
	def, err := registry.Lookup("kuhn")
	require.NoError(t, err)
	rules, err := def.DecodeRuleset(rec.Rules)
	require.NoError(t, err)
	require.NotNil(t, rec.Trustless.Deal)
	cards, err := fbmatch.VerifyDeal(def, rules, rec.Trustless.Deal)
	require.NoError(t, err)
	require.Equal(t, shown, []string{fmt.Sprint(cards[0]), fmt.Sprint(cards[1])}, "each page showed the card the deal gave its seat")
	for _, p := range players {
		p.CheckConsole(expectedConsole...)
	}
}

// laterVersion is the later of the versions two pages show.
func laterVersion(a, b *player) string {
	va, _ := strconv.Atoi(a.String(`document.getElementById("table").dataset.version`))
	vb, _ := strconv.Atoi(b.String(`document.getElementById("table").dataset.version`))
	return strconv.Itoa(max(va, vb))
}
