package play_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/browser"
	fbmatch "github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/fair"
)

// keptOpening is a page's contribution kept in IndexedDB at a fair table
// with openings (tableopen.ts), as the page stored it.
type keptOpening struct {
	Seat                 int
	EntropyHex           string
	EntropyCommitmentHex string
	CommitmentHex        string
}

// keptJS reads p's kept record of the game (null if none) from the
// page's IndexedDB, the test's own reading of the store.
func keptJS(p *player, id string) string {
	return `new Promise((resolve, reject) => { const r = indexedDB.open("fairboard"); r.onerror = () => reject(r.error);
	  r.onsuccess = () => { const g = r.result.transaction("seats").objectStore("seats").get("open/` + p.uid + `/` + id + `"); g.onsuccess = () => resolve(g.result ?? null); g.onerror = () => reject(g.error); }; })`
}

func kept(t *testing.T, p *player, id string) keptOpening {
	t.Helper()
	var k *keptOpening
	p.Eval(keptJS(p, id), &k)
	require.NotNil(t, k, "%s's page kept no contribution for %s", p.name, id)
	return *k
}

// commitHex is rng/fair's ContributionCommitment (the Go function the
// server checks openings with) of a contribution given as hex.
func commitHex(t *testing.T, id string, seat int, contributionHex string) string {
	t.Helper()
	c, err := fair.ParseContribution(contributionHex)
	require.NoError(t, err)
	h := fair.ContributionCommitment(id, uint32(seat), c)
	return hex.EncodeToString(h[:])
}

// shortPig makes the page's next createGame a Pig to 20 (the test's
// setup: a short game; the page itself sends everything else).
const shortPig = `(() => { const f = window.fetch; window.fetch = (u, o) => {
  if (String(u).endsWith("/createGame") && o && typeof o.body === "string") { const b = JSON.parse(o.body); b.data.rules = { goal: 20, dieSides: 6 }; o = { ...o, body: JSON.stringify(b) }; }
  return f(u, o); }; })()`

// A fair Pig table with openings played from two pages on the emulators
// (docs/play.md, "Fair tables"): Alice (a guest) chooses Openings in the
// lobby form, which it offers for a fair table game alone; her page
// commits at her join, keeps the contribution in IndexedDB, and after a
// reload between her join and the opening still opens it; Bob (a guest)
// joins from the link, and once every seat is taken both pages open by
// themselves, say so and show each seat opened. The game is played by
// the pages' buttons to its end, where each page checks that every
// contribution opens its seat's commitment. The commitment each join
// sent (the table's, and the one kept) is rng/fair's
// ContributionCommitment of the contribution that page opened and the
// end revealed, and the record downloaded from Alice's page verifies
// (match.CheckRecord), and is refused with a commitment changed. The
// rematch, with openings again, is joined and opened by both pages.
func TestFairOpeningsPigInChromium(t *testing.T) {
	pageTest(t, true)
	ctx := context.Background()
	srv, tables := emuTableServer(t)
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	alice := newPlayer(t, b, "alice", browser.Desktop, url)
	bob := newPlayer(t, b, "bob", browser.Phone, url)
	alice.signInGuest()
	bob.signInGuest()

	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "pig"; s.dispatchEvent(new Event("change")); })()`, nil)
	require.True(t, isTrue(alice, `document.getElementById("create-openings-label").hidden`), "no openings in crypto mode")
	alice.Click(`input[name="mode"][value="fair"]`)
	alice.WaitFor(`!document.getElementById("create-openings-label").hidden`)
	alice.Click("#create-openings")
	alice.Eval(shortPig, nil)
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me") && !document.getElementById("tg-open").hidden`)
	id := alice.String(`document.getElementById("tg-id").textContent`)
	alice.uid = alice.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	require.Contains(t, alice.String(`document.getElementById("tg-open-status").textContent`), "committed and kept in this browser")
	ak := kept(t, alice, id)
	v, _, err := tables.View(ctx, id, alice.uid)
	require.NoError(t, err)
	require.NotNil(t, v.Fairness.Openings, "the page's createGame asked for openings")
	require.Equal(t, uint64(60000), v.Fairness.Openings.DeadlineMs, "the server's default")
	require.Equal(t, []string{ak.EntropyCommitmentHex, ""}, v.Fairness.Openings.Commitments, "the commitment sent at the join, the one kept")
	require.Equal(t, 0, ak.Seat)
	require.Equal(t, v.Fairness.CommitmentHex, ak.CommitmentHex, "the server's commitment seen before the join")
	require.Equal(t, commitHex(t, id, 0, ak.EntropyHex), ak.EntropyCommitmentHex, "the page's commitment is rng/fair's")

	// Alice reloads between her join and the opening: the contribution
	// is kept in IndexedDB, not in the page.
	alice.Reload()
	alice.screen("table")
	alice.WaitFor(`document.querySelector("#tg-players li.me") && !document.getElementById("tg-open").hidden`)

	bob.open(srv.URL, id)
	bob.screen("table")
	bob.WaitFor(`!document.getElementById("tg-join").hidden && !document.getElementById("tg-commit-note").hidden && document.getElementById("tg-entropy-note").hidden`)
	require.Contains(t, bob.String(`document.getElementById("tg-fair").textContent`), "Fair game with openings: commitment ")
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	bob.uid = bob.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	players := []*player{alice, bob}
	for _, p := range players {
		p.WaitFor(`document.querySelectorAll("#tg-open-seats li[data-opened='1']").length === 2 && document.getElementById("tg-open").dataset.state === "opened"`, time.Minute)
		require.Equal(t, "Every seat has opened its contribution: the owner can start the game.", p.String(`document.getElementById("tg-open-status").textContent`))
		p.WaitFor(`document.getElementById("tg-log").textContent.includes("opened their contribution")`)
	}
	bk := kept(t, bob, id)
	v, _, err = tables.View(ctx, id, bob.uid)
	require.NoError(t, err)
	require.Equal(t, []bool{true, true}, v.Fairness.Openings.Opened)
	require.Equal(t, []string{ak.EntropyCommitmentHex, bk.EntropyCommitmentHex}, v.Fairness.Openings.Commitments)
	require.NotContains(t, strings.Join(v.Fairness.ContributionsHex, ","), ak.EntropyHex, "secret until the end")
	alice.shot("table-openings-opened-1280")
	alice.checkScreen("a fair table whose seats opened, at 1280 px")

	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	moves := 0
	for ; ; moves++ {
		require.Less(t, moves, 500, "the game never ended")
		version := agreedVersion(t, players, time.Minute)
		phase := alice.String(`document.getElementById("table").dataset.phase`)
		if phase == "finished" {
			break
		}
		if phase == "lobby" {
			alice.WaitFor(`document.getElementById("table").dataset.version !== "` + version + `"`)
			continue
		}
		toMove, err := strconv.Atoi(alice.String(`document.getElementById("table").dataset.toMove`))
		require.NoError(t, err)
		p := players[toMove]
		p.WaitFor(`document.getElementById("table").dataset.mine === "1"`, time.Minute)
		total, _ := strconv.Atoi(p.String(`(document.querySelector('#tg-state dd[data-key="turnTotal"]') || {}).textContent || "0"`))
		pick := 1
		if total >= 8 && isTrue(p, `document.querySelectorAll("#tg-move-buttons button").length > 1`) {
			pick = 2
		}
		p.Click(fmt.Sprintf(`#tg-move-buttons button:nth-child(%d)`, pick))
		alice.WaitFor(`Number(document.getElementById("table").dataset.version) > `+version, time.Minute)
	}
	t.Logf("fair table with openings %s: %d moves", id, moves)

	for _, p := range players {
		p.WaitFor(`!document.getElementById("tg-fair-end").hidden && document.getElementById("tg-fair-end").dataset.ok !== ""`, time.Minute)
		require.Equal(t, "yes", p.String(`document.getElementById("tg-fair-end").dataset.ok`), p.String(`document.getElementById("tg-fair-checks").textContent`))
		require.Equal(t, "true", p.String(`document.getElementById("tg-fair-end").dataset.openings`))
		require.Equal(t, "true", p.String(`document.getElementById("tg-fair-end").dataset.mine`))
		require.Contains(t, p.String(`document.getElementById("tg-fair-checks").textContent`), "Every contribution opens the commitment its seat made when it joined.")
		checkRecordEnd(t, p, "Its commitment is the one this page showed before the game.")
	}
	bob.shot("table-openings-end-390")
	bob.checkScreen("a fair table with openings at its end, at 390 px")

	// The commitment each join sent is rng/fair's of the contribution its
	// page opened, which the end reveals.
	end, _, err := tables.View(ctx, id, alice.uid)
	require.NoError(t, err)
	for seat, k := range []keptOpening{ak, bk} {
		require.Equal(t, k.EntropyHex, end.Fairness.ContributionsHex[seat], "seat %d opened the contribution its page kept", seat)
		require.Equal(t, commitHex(t, id, seat, end.Fairness.ContributionsHex[seat]), end.Fairness.Openings.Commitments[seat], "seat %d", seat)
		require.Equal(t, k.EntropyCommitmentHex, end.Fairness.Openings.Commitments[seat])
	}

	// The record, downloaded from Alice's page, verifies; with a
	// commitment changed it is refused (the check's positive control).
	alice.Click("#tg-record")
	alice.WaitFor(`document.getElementById("tg-record-status").dataset.file === "pig-` + id + `.json"`)
	srv.mu.Lock()
	raw := srv.exports[len(srv.exports)-1]
	srv.mu.Unlock()
	var ans struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal(raw, &ans))
	rec, err := fbmatch.ReadRecord(ans.Result)
	require.NoError(t, err)
	require.Equal(t, end.Fairness.Openings.Commitments, rec.Fairness.Openings.CommitmentsHex)
	def, err := registry.Lookup("pig")
	require.NoError(t, err)
	d, err := fbmatch.CheckRecord(def, rec)
	require.NoError(t, err)
	require.NoError(t, d)
	rec.Fairness.Openings.CommitmentsHex[1] = commitHex(t, id, 1, strings.Repeat("00", 32))
	d, err = fbmatch.CheckRecord(def, rec)
	require.True(t, err != nil || d != nil, "a record whose commitment is changed is refused")

	// The rematch is a fair table with openings again: each page joins it
	// with a new commitment, and both open by themselves.
	for _, p := range []*player{bob, alice} {
		p.WaitFor(`!document.getElementById("tg-rematch").hidden`)
		p.Click("#tg-rematch")
		p.WaitFor(`document.getElementById("tg-id").textContent !== "` + id + `" && document.querySelector("#tg-players li.me")`)
	}
	again := alice.String(`document.getElementById("tg-id").textContent`)
	for _, p := range players {
		p.WaitFor(`document.getElementById("tg-open").dataset.state === "opened" && document.querySelectorAll("#tg-open-seats li[data-opened='1']").length === 2`, time.Minute)
	}
	rv, _, err := tables.View(ctx, again, alice.uid)
	require.NoError(t, err)
	for _, p := range players {
		k := kept(t, p, again)
		require.Equal(t, commitHex(t, again, k.Seat, k.EntropyHex), rv.Fairness.Openings.Commitments[k.Seat], "%s's rematch commitment", p.name)
	}
	for _, p := range players {
		p.CheckConsole(expectedConsole...)
	}
}

// The positive control of the openings on the page, on the in-memory
// server: Bob's page joins a fair table with openings (created by the API
// with a deadline of 1 s) and keeps its contribution; the test alters the
// kept contribution; once Alice (the API) takes the last seat, Bob's page
// opens the altered one, which the server refuses as wrong_opening, and
// the page says so in words. Alice opens hers, which starts the public
// deadline the page shows; past it the page offers to end the table, and
// ended it says in words that Bob's seat did not open. First, on this
// server, which does not allow seeded games, the lobby does not offer
// them and a forced seeded create is refused in words (forceSeeded: the
// control of TestPigOnGenericBoard's seeded table).
func TestFairOpeningsRefusedInChromium(t *testing.T) {
	m := newMemTable(t)
	ctx, api := m.ctx, m.api
	bob := m.page("Bob", browser.Phone)
	forceSeeded(t, m.srv, bob)

	id := tableID("open-refused-")
	m.create("alice", id, map[string]any{"mode": "fair", "seats": 2, "openings": true, "deadlineMs": 1000})
	bob.open(m.srv.URL, id)
	bob.joinTable()
	require.Equal(t, "0", bob.String(`document.getElementById("table").dataset.seat`))
	k := kept(t, bob, id)
	require.Equal(t, commitHex(t, id, 0, k.EntropyHex), k.EntropyCommitmentHex)
	altered := strings.Repeat("0f", 32)
	bob.Eval(`new Promise((resolve, reject) => { const r = indexedDB.open("fairboard"); r.onsuccess = () => {
	  const tx = r.result.transaction("seats", "readwrite"); const s = tx.objectStore("seats"); const g = s.get("open/bob/`+id+`");
	  g.onsuccess = () => { s.put({ ...g.result, entropyHex: "`+altered+`" }); }; tx.oncomplete = () => resolve(true); tx.onerror = () => reject(tx.error); }; })`, nil)
	require.Equal(t, altered, kept(t, bob, id).EntropyHex)

	aliceC := strings.Repeat("5a", 32)
	v, err := functest.TableView(ctx, api, id, "dev:alice")
	require.NoError(t, err)
	require.NoError(t, api.Call(ctx, "joinGame", "dev:alice", map[string]any{"game": "pig", "gameId": id, "actionId": "join", "version": v.Version, "seat": 1, "entropyCommitment": commitHex(t, id, 1, aliceC)}, nil))
	bob.WaitFor(`document.getElementById("tg-open").dataset.state === "refused"`, time.Minute)
	require.Equal(t, "wrong_opening", bob.String(`document.getElementById("tg-open").dataset.code`))
	require.Contains(t, bob.String(`document.getElementById("tg-open-status").textContent`), "Your contribution could not be opened: The contribution does not open the commitment this seat made at its join.")
	require.Equal(t, "Every seat is taken: the seats open their contributions, then the owner starts the game.", bob.String(`document.getElementById("tg-turn").textContent`))

	v, err = functest.TableView(ctx, api, id, "dev:alice")
	require.NoError(t, err)
	require.Equal(t, []bool{false, false}, v.Fairness.Openings.Opened, "the refused opening changed nothing")
	require.NoError(t, api.Call(ctx, "act", "dev:alice", map[string]any{"game": "pig", "gameId": id, "actionId": "open", "version": v.Version, "kind": "open", "entropy": aliceC}, nil))
	bob.WaitFor(`document.getElementById("tg-open-deadline").dataset.deadline && document.querySelector("#tg-open-seats li[data-seat='1'][data-opened='1']")`, time.Minute)
	require.Contains(t, bob.String(`document.getElementById("tg-open-deadline").textContent`), "Every seat must open by")
	bob.WaitFor(`!document.getElementById("tg-open-abort").hidden`, time.Minute)
	name := strings.TrimSuffix(bob.String(`document.querySelector("#tg-open-seats li[data-seat='0']").textContent`), ": committed, not opened yet")
	require.True(t, strings.HasSuffix(name, " (you)"), name)
	require.Contains(t, bob.String(`document.getElementById("tg-open-deadline").textContent`), "(passed): the table can be ended, naming "+name+".")
	bob.shot("table-openings-refused-390")
	bob.checkScreen("a refused opening past its deadline, at 390 px")
	bob.Click("#tg-open-abort")
	bob.WaitFor(`document.getElementById("table").dataset.phase === "finished"`, time.Minute)
	require.Equal(t, "The table ended before its start: "+name+" did not open the contribution committed to at the join by the deadline. No winner.", bob.String(`document.getElementById("tg-result").textContent`))
	require.Contains(t, bob.String(`document.getElementById("tg-log").textContent`), "The table ended before its start: "+strings.TrimSuffix(name, " (you)")+" did not open their contribution by the deadline")
	end, err := functest.TableView(ctx, api, id, "dev:alice")
	require.NoError(t, err)
	require.Equal(t, "unopened", end.Outcome.Reason)
	require.Equal(t, []int{0}, end.Outcome.Missing)
	bob.CheckConsole(expectedConsole...)
}
