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
)

// dealLog is a script that keeps, in the tab's sessionStorage (so across
// reloads), the body of every deal action the page sends.
const dealLog = `(() => {
  if (window.__fbDealLog) return;
  window.__fbDealLog = true;
  const f = window.fetch;
  window.fetch = function (input, init) {
    try {
      const b = init && init.body;
      if (typeof b === "string" && b.includes('"kind":"deal"')) {
        const a = JSON.parse(sessionStorage.getItem("fb-deal-log") || "[]");
        a.push(b);
        sessionStorage.setItem("fb-deal-log", JSON.stringify(a));
      }
    } catch (e) {}
    return f.apply(this, arguments);
  };
})()`

// logDeals installs dealLog in p, for this document and the next.
func logDeals(p *player) {
	p.OnNewDocument(dealLog)
	p.Eval(dealLog, nil)
}

// ownKeysSent is the check that a page never sends the key of its own
// card at the deal: the keys, among the deal actions p sent (dealLog), of
// seat for a position in own, named.
func ownKeysSent(t *testing.T, p *player, seat int, own []int) []string {
	t.Helper()
	var bodies []string
	require.NoError(t, json.Unmarshal([]byte(p.String(`sessionStorage.getItem("fb-deal-log") || "[]"`)), &bodies))
	var found []string
	for _, b := range bodies {
		var req struct {
			Data struct {
				Deal struct {
					Keys []struct{ Seat, Position int }
				}
			}
		}
		require.NoError(t, json.Unmarshal([]byte(b), &req), b)
		for _, k := range req.Data.Deal.Keys {
			for _, o := range own {
				if k.Seat == seat && k.Position == o {
					found = append(found, fmt.Sprintf("seat %d's key of position %d", seat, o))
				}
			}
		}
	}
	return found
}

// ownCards is the page's own cards as its wasm holds them, by position.
func ownCards(t *testing.T, p *player, id string) map[int]int {
	t.Helper()
	var cards map[string]int
	require.NoError(t, json.Unmarshal([]byte(p.String(`fairboard.tableCards("`+id+`", "`+p.uid+`").cards`)), &cards))
	out := map[int]int{}
	for k, c := range cards {
		pos, err := strconv.Atoi(k)
		require.NoError(t, err)
		out[pos] = c
	}
	return out
}

// deskAndPhoneGuests takes the test's turn on the emulators and gives it a table
// server there with Alice (1280 px) and Bob (390 px) signed in as guests
// on its play page; with deals, each page's deal actions are logged
// (logDeals) from the start.
func deskAndPhoneGuests(t *testing.T, deals bool) (*server, []*player) {
	t.Helper()
	pageTest(t, true)
	srv, _ := emuTableServer(t)
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	players := []*player{newPlayer(t, b, "alice", browser.Desktop, url), newPlayer(t, b, "bob", browser.Phone, url)}
	for _, p := range players {
		if deals {
			logDeals(p)
		}
		p.signInGuest()
	}
	return srv, players
}

// twoPageTable has the first page create a trustless table of game, the
// second join it, and starts it; before the start, hook (if not nil)
// runs.
func twoPageTable(t *testing.T, srv *server, game string, players []*player, hook func(id string)) string {
	t.Helper()
	alice, bob := players[0], players[1]
	id := alice.createTable(game, "trustless", nil)
	alice.uid = alice.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	bob.open(srv.URL, id)
	bob.joinTable()
	bob.uid = bob.String(`document.querySelector("#tg-players li.me").dataset.uid`)
	if hook != nil {
		hook(id)
	}
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	return id
}

// playHand clicks the button pick names (a selector) on the page whose
// move it is until the game ends, calling each (if not nil) before every
// step with the clicks made.
func playHand(t *testing.T, players []*player, pick func(p *player) string, each func(clicks int)) int {
	t.Helper()
	clicks := 0
	for step := 0; ; step++ {
		if step >= 300 {
			for _, q := range players {
				t.Logf("%s: %s\n%s", q.name, q.String(`JSON.stringify(document.getElementById("table").dataset)`), q.String(`document.getElementById("table").innerText`))
			}
			t.Fatal("the hand never ended")
		}
		version := laterVersion(players[0], players[1])
		for _, q := range players {
			q.WaitFor(`Number(document.getElementById("table").dataset.version) >= `+version, 2*time.Minute)
		}
		if players[0].String(`document.getElementById("table").dataset.phase`) == "finished" {
			return clicks
		}
		if each != nil {
			each(clicks)
		}
		toMove, err := strconv.Atoi(players[0].String(`document.getElementById("table").dataset.toMove`))
		require.NoError(t, err)
		if toMove < 0 || toMove > 1 {
			players[0].WaitFor(`Number(document.getElementById("table").dataset.version) > `+version+` || document.getElementById("table").dataset.phase === "finished"`, 2*time.Minute)
			continue
		}
		p := players[toMove]
		p.WaitFor(`document.getElementById("table").dataset.mine === "1" || Number(document.getElementById("table").dataset.version) > `+version+` || document.getElementById("table").dataset.phase === "finished"`, 2*time.Minute)
		sel := pick(p)
		if !isTrue(p, `document.getElementById("table").dataset.mine === "1" && !!document.querySelector('`+sel+`')`) {
			continue
		}
		at := p.String(`document.getElementById("table").dataset.version`)
		p.Click(sel)
		clicks++
		p.WaitFor(`Number(document.getElementById("table").dataset.version) > `+at+` || /Refused|could not|moved on/.test(document.getElementById("tg-status").textContent)`, 2*time.Minute)
		// The other page's key may come between the board and the click:
		// the move is then refused as stale, and offered again.
		if st := p.String(`document.getElementById("tg-status").textContent`); !strings.Contains(st, "moved on") {
			require.NotContains(t, st, "Refused")
			require.NotContains(t, st, "could not")
		}
	}
}

// always picks sel.
func always(sel string) func(*player) string { return func(*player) string { return sel } }

// judgedOK waits for each page's judgement of the record: ok, with its
// own seat's head and key.
func judgedOK(t *testing.T, pages ...*player) {
	t.Helper()
	for _, p := range pages {
		p.WaitFor(`document.getElementById("table").dataset.phase === "finished" && !["", "unread"].includes(document.getElementById("tg-trust-end").dataset.status)`, 2*time.Minute)
		require.Equal(t, "ok", p.String(`document.getElementById("tg-trust-end").dataset.status`), p.String(`document.getElementById("tg-trust-checks").textContent`))
		require.Equal(t, "yes", p.String(`document.getElementById("tg-trust-end").dataset.mine`), "%s's page finds its own seat's head and key in the record", p.name)
	}
}

// dealtCards reads the last record exported and recomputes its deal
// (match.VerifyDeal, the independent source): the card at each position.
func dealtCards(t *testing.T, srv *server, game string) []int {
	t.Helper()
	srv.mu.Lock()
	raw := srv.exports[len(srv.exports)-1]
	srv.mu.Unlock()
	var ans struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal(raw, &ans))
	rec, err := fbmatch.ReadRecord(ans.Result)
	require.NoError(t, err)
	def, err := registry.Lookup(game)
	require.NoError(t, err)
	div, err := fbmatch.CheckRecord(def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	rules, err := def.DecodeRuleset(rec.Rules)
	require.NoError(t, err)
	require.NotNil(t, rec.Trustless.Deal)
	cards, err := fbmatch.VerifyDeal(def, rules, rec.Trustless.Deal)
	require.NoError(t, err)
	return cards
}

// A trustless Kuhn table survives reloads (docs/play.md, "Trustless
// tables"): Bob reloads right after the start (usually mid-deal), Alice leaves
// and opens the table's link again once the cards are dealt, Bob opens a
// second tab of the table that stays open to the end, and Bob reloads
// again after the first bet. Each page keeps the card it showed, opened
// again by its seat made from the secrets kept in IndexedDB; the hand
// ends, the record's recomputation of the deal gives each seat the card
// its page showed, both pages (and Bob's second tab) judge the record
// ok and find their own seat's head and key in it, and no page ever sent
// the key of its own card at the deal (ownKeysSent, whose positive
// control is TestTrustlessLeakCaughtInChromium).
func TestTrustlessKuhnReloadInChromium(t *testing.T) {
	srv, players := deskAndPhoneGuests(t, true)
	alice, bob := players[0], players[1]
	start := time.Now()
	lap := func(what string) { t.Logf("%5.1fs %s", time.Since(start).Seconds(), what) }
	id := twoPageTable(t, srv, "kuhn", players, nil)
	lap("started")
	bob.Reload()
	bob.screen("table")
	shown := make([]string, 2)
	for i, p := range players {
		p.WaitFor(`document.getElementById("tg-trust-cards").dataset.cards !== "" && document.getElementById("tg-trust-cards").dataset.cards !== undefined`, 2*time.Minute)
		shown[i] = p.String(`document.getElementById("tg-trust-cards").dataset.cards`)
		require.Regexp(t, `^[0-2]$`, shown[i])
		require.Equal(t, map[int]int{i: int(shown[i][0] - '0')}, ownCards(t, p, id), "%s's seat holds its own card only", p.name)
	}
	require.NotEqual(t, shown[0], shown[1])
	lap("Bob reloaded; both cards shown")
	require.Contains(t, alice.String(`document.getElementById("tg-trust-key").textContent`), "a reload")
	for i, p := range players {
		require.Empty(t, ownKeysSent(t, p, i, []int{i}), "%s's page sent the key of its own card", p.name)
	}

	alice.Navigate("about:blank")
	alice.open(srv.URL, id)
	alice.screen("table")
	alice.WaitFor(`document.getElementById("tg-trust-cards").dataset.cards === "`+shown[0]+`"`, time.Minute)
	lap("Alice's link opened again: her card shown")
	bob2 := &player{Page: bob.NewTab(t), t: t, name: "bob-2", uid: bob.uid}
	bob2.SetViewport(browser.Phone)
	bob2.open(srv.URL, id)
	bob2.screen("table")
	bob2.WaitFor(`document.getElementById("tg-trust-cards").dataset.cards === "`+shown[1]+`"`, time.Minute)

	lap("Bob's second tab shows his card")
	reloaded := false
	clicks := playHand(t, players, always(`#tg-move-buttons button:nth-child(1)`), func(clicks int) {
		if clicks == 1 && !reloaded {
			reloaded = true
			bob.Reload()
			bob.screen("table")
			bob.WaitFor(`document.getElementById("tg-trust-cards").dataset.cards === "`+shown[1]+`"`, time.Minute)
			lap("Bob reloaded after the first bet: his card shown")
		}
	})
	t.Logf("kuhn %s: %d clicks, reloaded after the first: %v", id, clicks, reloaded)
	lap("the hand ended")
	judgedOK(t, alice, bob, bob2)
	lap("judged")
	cards := dealtCards(t, srv, "kuhn")
	require.Equal(t, shown, []string{fmt.Sprint(cards[0]), fmt.Sprint(cards[1])}, "each page showed the card the deal gave its seat")
	for _, p := range []*player{alice, bob, bob2} {
		p.CheckConsole(expectedConsole...)
	}
}

// A whole trustless Leduc hold'em hand in two pages on the emulators
// (issue 28): each seat's card dealt by the pages' mental poker, every
// call clicked so the hand goes to its showdown. Until the showdown each
// page holds exactly one card, its own (its wasm's seat opened no other,
// and the page says it), and never sent the key of its own card at the
// deal (ownKeysSent; its positive control is
// TestTrustlessLeakCaughtInChromium); at the end the record verifies in
// both pages, and its recomputation of the deal gives each seat the card
// its page showed.
func TestTrustlessLeducInChromium(t *testing.T) {
	srv, players := deskAndPhoneGuests(t, true)
	alice, bob := players[0], players[1]
	id := twoPageTable(t, srv, "leduc", players, nil)
	own := make([]map[int]int, 2)
	for i, p := range players {
		p.WaitFor(`!!document.getElementById("tg-trust-cards").dataset.cards`, 2*time.Minute)
		own[i] = ownCards(t, p, id)
		require.Len(t, own[i], 1, "%s's seat opened one card: its own", p.name)
		require.Contains(t, p.String(`document.getElementById("tg-trust-cards").textContent`), "Your card, opened on this device")
	}
	// Before the first bet (the showdown opens every private card, with
	// every seat's keys: those are not this check's).
	for i, p := range players {
		positions := []int{}
		for pos := range own[i] {
			positions = append(positions, pos)
		}
		require.Empty(t, ownKeysSent(t, p, i, positions), "%s's page sent the key of its own card", p.name)
	}
	clicks := playHand(t, players, always(`#tg-move-buttons button[data-kind="call"]`), func(int) {
		for i, p := range players {
			if p.String(`document.getElementById("table").dataset.phase`) == "finished" {
				continue
			}
			require.Equal(t, own[i], ownCards(t, p, id), "%s's page holds its own card only, until the showdown", p.name)
		}
	})
	require.Positive(t, clicks)
	judgedOK(t, alice, bob)
	cards := dealtCards(t, srv, "leduc")
	for i := range players {
		for pos, c := range own[i] {
			require.Equal(t, cards[pos], c, "seat %d's page showed the card the deal put at position %d", i, pos)
		}
	}
	alice.Eval(`document.getElementById("tg-end").scrollIntoView()`, nil)
	alice.shot("table-trustless-leduc-end-1280")
	alice.checkScreen("a trustless Leduc table's end at 1280 px")
	for _, p := range players {
		p.CheckConsole(expectedConsole...)
	}
}

// A trustless Pig table survives reloads in the middle of its rounds
// (a game to 30 points, asked for by the test server: pigGoal):
// Bob reloads right after the first roll (his reveal of its round due)
// and again after the sixth click; his reloaded page reveals the rounds
// it owes and signs his moves with the seat made from the secrets kept
// in IndexedDB, the game ends, both pages judge the record ok and find
// their own seat's head and key in it, and every roll's round holds both
// seats' links.
func TestTrustlessPigReloadInChromium(t *testing.T) {
	srv, players := deskAndPhoneGuests(t, false)
	alice, bob := players[0], players[1]
	srv.withRules(pigGoal)
	twoPageTable(t, srv, "pig", players, nil)
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing"`, time.Minute)
	}
	reloads := 0
	rollOrHold := func(p *player) string {
		total, _ := strconv.Atoi(p.String(`(document.querySelector('#tg-state dd[data-key="turnTotal"]') || {}).textContent || "0"`))
		if total >= pigHold && isTrue(p, `!!document.querySelector('#tg-move-buttons button[data-kind="hold"]')`) {
			return `#tg-move-buttons button[data-kind="hold"]`
		}
		return `#tg-move-buttons button[data-kind="roll"]`
	}
	clicks := playHand(t, players, rollOrHold, func(clicks int) {
		if clicks == 1 && reloads == 0 || clicks >= 6 && reloads == 1 {
			reloads++
			bob.Reload()
			bob.screen("table")
		}
	})
	require.Equal(t, 2, reloads)
	t.Logf("pig: %d clicks", clicks)
	judgedOK(t, alice, bob)
	require.NotEqual(t, "", bob.String(`document.body.dataset.revealsSent || ""`), "Bob's reloaded page revealed a round")

	srv.mu.Lock()
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
	for i, m := range rec.Trustless.Moves {
		if m.Index > 0 {
			require.Len(t, m.Reveals, 2, "move %d's round has both seats' links", i)
		}
	}
	for _, p := range players {
		p.CheckConsole(expectedConsole...)
	}
}
