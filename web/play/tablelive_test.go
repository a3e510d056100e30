package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
	fbmatch "github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// A fair Pig table on the emulators, followed through Firestore listeners
// (docs/play.md, "Other games: the generic board"): Alice (desktop, a
// guest) creates it in fair mode, her page reads the commitment and joins
// with 32 bytes of its own; Bob (phone, a guest) sees "Fair game:
// commitment …" before he joins with his own; both play to the end by the
// buttons their pages offer (a game to 30 points, asked for by the test
// server: pigGoal). The pages update without polling: every
// getView call a page makes once live is answered a view at which that
// page's seat is to move (its one read of the legal moves per version),
// at most two a version, while the other page, which waits, reads
// nothing. At the end each page shows the revealed server seed and the
// contributions, its own highlighted and found to be the one it sent,
// and that the seed opens the commitment it saw before joining (its
// SHA-256 computed in the page); the record downloaded from Alice's page
// is the one exportGame answered, and /verify/ verifies it (and refuses
// it with a roll changed). Along the way Bob leaves his seat and joins
// again (his page, which no longer may read the table's documents, polls
// meanwhile: it shows Carol take his seat and leave it), and, a guest, is warned before signing out of a game he
// sits in. Screenshots at 1280 and 390 px.
func TestFairPigLiveInChromium(t *testing.T) {
	pageTest(t, true)
	srv, tables := emuTableServer(t)
	srv.withRules(pigGoal)
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	alice := newPlayer(t, b, "alice", browser.Desktop, url)
	bob := newPlayer(t, b, "bob", browser.Phone, url)
	alice.signInGuest()
	bob.signInGuest()

	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "pig"; s.dispatchEvent(new Event("change")); })()`, nil)
	alice.chooseMode("fair")
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	id := alice.String(`document.getElementById("tg-id").textContent`)
	alice.uid = alice.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	commitment := alice.String(`document.getElementById("tg-fair").dataset.commitment`)
	require.Regexp(t, `^[0-9a-f]{64}$`, commitment)
	require.Equal(t, "Fair game: commitment "+commitment[:16]+"…", alice.String(`document.getElementById("tg-fair").textContent`))
	sent := func(p *player) (commit, entropy string) {
		var s struct{ CommitmentHex, EntropyHex string }
		require.NoError(t, json.Unmarshal([]byte(p.String(`localStorage.getItem("fairboard.tablefair.`+p.uid+`.`+id+`")`)), &s))
		return s.CommitmentHex, s.EntropyHex
	}
	ac, ae := sent(alice)
	require.Equal(t, commitment, ac, "Alice's page kept the commitment it read before joining")
	require.Regexp(t, `^[0-9a-f]{64}$`, ae, "32 bytes drawn by Alice's page")

	bob.open(srv.URL, id)
	bob.screen("table")
	bob.WaitFor(`!document.getElementById("tg-join").hidden && !document.getElementById("tg-entropy-note").hidden`)
	require.Equal(t, "Fair game: commitment "+commitment[:16]+"…", bob.String(`document.getElementById("tg-fair").textContent`), "shown before the join")
	bob.shot("table-fair-join-390")
	bob.checkScreen("a fair table's join form at 390 px")
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	bob.uid = bob.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	// Bob leaves his seat and takes it again: his page, live once seated,
	// stops its listeners (the rules keep a page without a seat out of
	// the table's documents) and polls, with no word of a failed
	// connection; his second join sends new bytes, kept in place of the
	// first (the end checks them).
	bob.WaitFor(`document.getElementById("table").dataset.live === "1"`)
	bob.Click("#tg-seat-leave")
	bob.WaitFor(`!document.getElementById("tg-seat-leave-confirm").hidden`)
	bob.Click("#tg-seat-leave-confirm")
	bob.WaitFor(`document.getElementById("table").dataset.seat === "-1" && !document.getElementById("tg-join").hidden && document.getElementById("table").dataset.live === ""`)
	alice.WaitFor(`document.getElementById("tg-log").textContent.includes("left seat 2")`)
	require.Equal(t, "", bob.String(`document.getElementById("tg-status").textContent`))
	// Meanwhile his page follows the table: Carol takes the seat he left
	// and leaves it again, and his page shows both.
	lv, _, err := tables.View(context.Background(), id, alice.uid)
	require.NoError(t, err)
	_, err = tables.Do(context.Background(), id, table.Action{Actor: "carol", ActionID: "carol-join", Version: lv.Version, Kind: table.KindJoin, Seat: 1, Entropy: strings.Repeat("cc", 32)})
	require.NoError(t, err)
	bob.WaitFor(`document.querySelector("#tg-players li[data-seat='1']").dataset.uid === "carol" && document.getElementById("tg-join").hidden`)
	_, err = tables.Do(context.Background(), id, table.Action{Actor: "carol", ActionID: "carol-leave", Version: lv.Version + 1, Kind: table.KindLeave})
	require.NoError(t, err)
	bob.WaitFor(`document.querySelector("#tg-players li[data-seat='1']").dataset.uid === "" && !document.getElementById("tg-join").hidden`)
	_, firstEntropy := sent(bob)
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	bc, be := sent(bob)
	require.NotEqual(t, firstEntropy, be, "a join again draws its bytes again")
	require.Equal(t, commitment, bc)
	require.NotEqual(t, ae, be)

	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	for _, p := range []*player{alice, bob} {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing" && document.getElementById("table").dataset.live === "1"`)
		require.Contains(t, p.String(`document.getElementById("tg-mode").textContent`), "follows the game live")
	}
	liveFrom, liveAt := len(srv.viewCalls()), time.Now()

	// Play to the end: the page whose seat is to move (its buttons shown)
	// rolls below a turn total of pigHold, else holds.
	players := []*player{alice, bob}
	moves, warned := 0, false
	for ; ; moves++ {
		require.Less(t, moves, 2000, "the game never ended")
		version := agreedVersion(t, players, 2*time.Minute)
		if alice.String(`document.getElementById("table").dataset.phase`) == "finished" {
			break
		}
		toMove, err := strconv.Atoi(alice.String(`document.getElementById("table").dataset.toMove`))
		require.NoError(t, err)
		p := players[toMove] // Alice sits at seat 1, Bob at seat 2
		p.WaitFor(`document.getElementById("table").dataset.mine === "1"`, 2*time.Minute)
		total, _ := strconv.Atoi(p.String(`(document.querySelector('#tg-state dd[data-key="turnTotal"]') || {}).textContent || "0"`))
		pick := 1
		if total >= pigHold && isTrue(p, `document.querySelectorAll("#tg-move-buttons button").length > 1`) {
			pick = 2
		}
		if moves == 4 {
			// A seated guest who signs out is warned first (and stays), and
			// a seated player in play is offered the turn notification.
			require.True(t, isTrue(bob, `!document.getElementById("tg-notify").hidden`))
			bob.Click("#signout")
			bob.WaitFor(`!document.getElementById("signout-warning").hidden`)
			bob.Click("#signout-cancel")
			bob.WaitFor(`document.getElementById("signout-warning").hidden`)
			bob.screen("table")
			warned = true
		}
		if moves == 6 {
			alice.shot("table-fair-play-1280")
			bob.shot("table-fair-play-390")
			alice.checkScreen("a fair table in play at 1280 px")
			bob.checkScreen("a fair table in play at 390 px")
		}
		p.Click(fmt.Sprintf(`#tg-move-buttons button:nth-child(%d)`, pick))
		for _, q := range players {
			q.WaitFor(`Number(document.getElementById("table").dataset.version) > `+version, 2*time.Minute)
		}
		require.NotContains(t, p.String(`document.getElementById("tg-status").textContent`), "Refused")
	}
	t.Logf("fair table %s: %d moves", id, moves)
	require.True(t, warned, "the sign-out warning was checked in play")

	// No polling once live: each getView call of a page was answered a
	// view at which its seat was to move (or the end, when the last move
	// made it), at most two a version (the one read per version, and a
	// read asked while one was on its way), but for the reads after 5 s
	// without news from the listeners (tablefollow.ts, lookAgain): at
	// most one a page per 5 s of play, where polling is one a second.
	calls := srv.viewCalls()[liveFrom:]
	perVersion := map[string]int{}
	silent := map[string]int{}
	for _, c := range calls {
		a := c.answer
		if !(a.Phase == "finished" || (a.Phase == "playing" && a.Seat >= 0 && a.ToMove == a.Seat)) {
			silent[c.uid]++
			continue
		}
		perVersion[fmt.Sprintf("%s@%d", c.uid, a.Version)]++
	}
	// A read after 5 s of silence may land at a version where the page's
	// seat is to move (a slow machine's listeners), past the two of that
	// version: it counts against the same allowance as the reads while
	// waiting, which polling (one a second) would exceed.
	for k, n := range perVersion {
		if n > 2 {
			silent[k[:strings.LastIndex(k, "@")]] += n - 2
		}
	}
	for uid, n := range silent {
		require.LessOrEqual(t, n, int(time.Since(liveAt)/(5*time.Second))+1, "getView calls by %s beyond one read a version where it moves (two if one was on its way): a poll", uid)
	}
	t.Logf("%d getView calls over %d moves once live (none while waiting)", len(calls), moves)

	// The end: the reveal, checked in each page.
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "finished" && !document.getElementById("tg-fair-end").hidden && document.getElementById("tg-fair-end").dataset.ok !== ""`, time.Minute)
		require.Equal(t, "yes", p.String(`document.getElementById("tg-fair-end").dataset.ok`), p.String(`document.getElementById("tg-fair-checks").textContent`))
		require.Equal(t, "true", p.String(`document.getElementById("tg-fair-end").dataset.opens`))
		require.Equal(t, "true", p.String(`document.getElementById("tg-fair-end").dataset.mine`))
		_, mine := sent(p)
		require.Equal(t, mine, p.String(`document.querySelector("#tg-fair-contributions li.me code").textContent`), "its own contribution highlighted")
		require.Contains(t, p.String(`document.getElementById("tg-fair-checks").textContent`), "The server seed opens the commitment this page saw before you joined.")
	}
	require.True(t, isTrue(alice, `document.getElementById("tg-notify").hidden`), "no notification offered once over")
	alice.shot("table-fair-end-1280")
	bob.shot("table-fair-end-390")
	alice.checkScreen("a fair table's end at 1280 px")
	bob.checkScreen("a fair table's end at 390 px")

	// The board is the one getView gives (the other source): the log event
	// for event, the scores, the reveal.
	end, _, err := tables.View(context.Background(), id, alice.uid)
	require.NoError(t, err)
	var seqs []string
	alice.Eval(`Array.from(document.querySelectorAll("#tg-log li")).map((li) => li.dataset.seq + " " + li.dataset.type)`, &seqs)
	require.Len(t, seqs, len(end.Log))
	for i, e := range end.Log {
		require.Equal(t, fmt.Sprintf("%d %s", e.Seq, e.Type), seqs[i])
	}
	var st struct{ Banked []int }
	require.NoError(t, json.Unmarshal(end.State, &st))
	for s, banked := range st.Banked {
		for _, p := range players {
			require.Equal(t, fmt.Sprint(banked), p.String(fmt.Sprintf(`document.querySelector('#tg-state dd[data-key="banked.%d"]').textContent`, s)))
		}
	}
	require.Contains(t, alice.String(`document.getElementById("tg-fair-seed").textContent`), end.Fairness.ServerSeedHex)

	// The record: downloaded from the page (exportGame), verified on
	// /verify/, and refused there with one roll changed.
	alice.Click("#tg-record")
	alice.WaitFor(`document.getElementById("tg-record-status").dataset.file === "pig-` + id + `.json"`)
	srv.mu.Lock()
	require.NotEmpty(t, srv.exports)
	raw := srv.exports[len(srv.exports)-1]
	srv.mu.Unlock()
	var ans struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal(raw, &ans))
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "pig-"+id+".json"), filepath.Join(dir, "pig-tampered.json")
	require.NoError(t, os.WriteFile(good, ans.Result, 0o644))
	rec, err := fbmatch.ReadRecord(ans.Result)
	require.NoError(t, err)
	require.Equal(t, commitment, rec.Fairness.CommitmentHex)
	require.JSONEq(t, pigGoal, string(rec.Rules), "the table played to the goal the test asked for")
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
	require.NoError(t, os.WriteFile(bad, tampered, 0o644))
	ver := b.NewPage(t)
	ver.SetViewport(browser.Phone)
	ver.Navigate(srv.URL + "/verify/")
	ver.WaitFor(`document.getElementById("verdict-title").textContent === "Ready"`)
	for _, c := range []struct{ file, status, want string }{
		{good, "ok", "ok: pig record (fair game)"},
		{bad, "diverged", "diverges at log entry"},
	} {
		ver.Eval(`document.getElementById("verdict").dataset.status = "pending"`, nil)
		ver.SetFile("#file", c.file)
		ver.WaitFor(`!["pending", ""].includes(document.getElementById("verdict").dataset.status)`, time.Minute)
		require.Equal(t, c.status, ver.String(`document.getElementById("verdict").dataset.status`))
		require.Contains(t, ver.String(`document.getElementById("verdict-message").textContent`), c.want)
		shot := filepath.Join(os.Getenv("FAIRBOARD_SCREENSHOTS"), "verify-record-"+c.status+"-390.png")
		if os.Getenv("FAIRBOARD_SCREENSHOTS") == "" {
			shot = filepath.Join(os.TempDir(), "fairboard-play-screenshots", "verify-record-"+c.status+"-390.png")
		}
		ver.Screenshot(shot)
	}
	for _, p := range players {
		p.CheckConsole(append(expectedConsole, regexp.MustCompile(`net::ERR_\w+ \(https://www\.google\.com/images/cleardot\.gif\?`))...)
	}
}
