package play_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/internal/browser"
)

// evilName is a name that is markup: setName refuses it, so the test puts
// it in the store behind the server's back, as a careless or older
// client's name would come: the page must show it as text.
const evilName = `<img src=x onerror="window.__pwned=1">`

// logLines returns the text of the log's lines (the fairness records
// aside) of the list sel.
func logLines(p *player, sel string) []string {
	var out []string
	p.Eval(`Array.from(document.querySelectorAll("`+sel+` li:not(.protocol)")).map((li) => li.textContent)`, &out)
	return out
}

// checkNamedLog checks that every line of a log names players by name
// and never by seat and class, seat and uid, or uid; that the names show
// literally; and that no markup of a name became an element.
func checkNamedLog(t *testing.T, p *player, sel string, names []string, uids []string) {
	t.Helper()
	lines := logLines(p, sel)
	require.NotEmpty(t, lines)
	seen := map[string]bool{}
	for _, l := range lines {
		require.NotRegexp(t, `Seat \d+ ·`, l, "a player named by seat: %q", l)
		for _, u := range uids {
			require.NotRegexp(t, `(^|[^A-Za-z])`+u+`([^A-Za-z]|$)`, l, "a player named by uid: %q", l)
		}
		for _, n := range names {
			if strings.Contains(l, n) {
				seen[n] = true
			}
		}
	}
	for _, n := range names {
		require.True(t, seen[n], "no log line names %q: %q", n, lines)
	}
	require.Empty(t, markupLeaked(p))
}

// markupLeaked says how a name's markup became part of the page ("" if
// it did not): an img element in the page's main part, or its handler
// run.
func markupLeaked(p *player) string {
	return p.String(`document.querySelectorAll("main img").length ? "a name became an element" : typeof window.__pwned !== "undefined" ? "a name's markup ran" : ""`)
}

// Names in the browser (issue 30, item 1) on the in-memory server: the
// lobby asks for a name once (the default meanwhile), refuses a bad one
// saying why; a name is shown on the cards, the turn line and the log of
// the dungeon and of Pig, after a reload too (the log is said before the
// names arrive, and said again with them), a name that is markup shows
// as text, and a rename reaches the game in play and the lines already
// said.
func TestNamesInChromium(t *testing.T) {
	pageTest(t, false)
	ctx := context.Background()
	srv := newDevServer(t)
	b := chrome.Browser(t)
	alice := newPlayer(t, b, "Alice", browser.Desktop, srv.URL+"/play/")
	bob := newPlayer(t, b, "Bob", browser.Phone, srv.URL+"/play/")
	alice.signInDev()
	bob.signInDev()

	// Asked once, with the default meanwhile: "Player " and the first two
	// bytes of SHA-256("alice") (`echo -n alice | sha256sum`: 2bd8...).
	alice.WaitFor(`document.getElementById("name-ask").textContent.startsWith("Choose the name")`)
	require.Equal(t, "Player 2BD8", alice.String(`document.getElementById("name-input").value`))
	require.Contains(t, alice.String(`document.getElementById("who").textContent`), "playing as Player 2BD8")
	setName := func(p *player, name string) {
		t.Helper()
		p.Eval(fmt.Sprintf(`document.getElementById("name-input").value = %q`, name), nil)
		p.Eval(`document.getElementById("name-status").textContent = ""`, nil)
		p.Click("#name-save")
		p.WaitFor(`document.getElementById("name-status").textContent !== "" && document.getElementById("name-status").textContent !== "Saving…"`)
	}
	setName(alice, "<b>Al</b>")
	require.Equal(t, "That name cannot be used: the name must not contain < or > (character 1).", alice.String(`document.getElementById("name-status").textContent`))
	alice.shot("names-refused-desktop")
	alice.checkScreen("the lobby's name form with a refusal")
	setName(alice, "  Alice Liddell ")
	require.Equal(t, "Saved.", alice.String(`document.getElementById("name-status").textContent`))
	require.Equal(t, "Other players see you as “Alice Liddell”. You can change it here.", alice.String(`document.getElementById("name-ask").textContent`))
	require.Contains(t, alice.String(`document.getElementById("who").textContent`), "playing as Alice Liddell")
	_, err := srv.names.SetName(ctx, "bob", evilName)
	require.NoError(t, err)

	// The dungeon: a crypto game, six actions, then Bob reloads.
	m := &match{t: t, base: srv.URL, players: []*player{alice, bob}, stopAfter: 6}
	id := m.lobby("crypto", nil)
	m.play(100)
	require.Equal(t, []string{"Alice Liddell", evilName + " (you)"}, cardNames(bob, "#players"))
	bob.Reload()
	bob.screen("game")
	seq := alice.state().LogSeq
	bob.WaitFor(fmt.Sprintf(`document.getElementById("game").dataset.logSeq === %q`, seq))
	bob.WaitFor(`document.querySelector("#players li strong") && document.querySelector("#players li strong").textContent === "Alice Liddell"`)
	checkNamedLog(t, bob, "#log", []string{"Alice Liddell", evilName}, []string{"alice", "bob"})
	require.Equal(t, []string{"Alice Liddell", evilName + " (you)"}, cardNames(bob, "#players"))
	turn := bob.String(`document.getElementById("turn").textContent`)
	require.True(t, strings.HasPrefix(turn, "Your move") || strings.Contains(turn, "Alice Liddell"), "the turn line: %q", turn)
	bob.shot("names-dungeon-reloaded-phone")
	bob.checkScreen("the dungeon's board with names, after a reload")
	// The control of that check: an img in the log, as a page that put a
	// name in as HTML would have made (the page's policy refuses HTML
	// parsing, so the control builds the element itself), is caught.
	bob.Eval(`document.querySelector("#log li").append(document.createElement("img"))`, nil)
	require.Equal(t, "a name became an element", markupLeaked(bob))
	bob.Eval(`document.querySelector("#log li img").remove()`, nil)
	require.Empty(t, markupLeaked(bob))
	bob.Eval(`document.getElementById("players").scrollIntoView()`, nil)
	bob.shot("names-dungeon-players-phone")
	bob.Eval(`document.getElementById("log-box").scrollIntoView()`, nil)
	bob.shot("names-dungeon-log-phone")

	// A rename of a seated player reaches the game, and the lines said
	// before it: Alice renames in the lobby; Bob's page (not reloaded)
	// says her new name everywhere.
	alice.Click("#leave")
	alice.screen("lobby")
	setName(alice, "Alicia")
	require.Equal(t, "Saved (and shown in your game in play).", alice.String(`document.getElementById("name-status").textContent`))
	bob.WaitFor(`document.querySelector("#players li strong").textContent === "Alicia"`)
	bob.WaitFor(`Array.from(document.querySelectorAll("#log li")).every((li) => !li.textContent.includes("Alice Liddell"))`)
	checkNamedLog(t, bob, "#log", []string{"Alicia", evilName}, []string{"alice", "bob"})
	alice.open(srv.URL, id)
	alice.screen("game")
	alice.WaitFor(fmt.Sprintf(`document.getElementById("game").dataset.logSeq === %q`, seq))
	alice.WaitFor(`document.querySelector("#players li.me strong").textContent === "Alicia (you)"`)
	checkNamedLog(t, alice, "#log", []string{"Alicia (you)", evilName}, []string{"alice", "bob"})

	// Pig on the generic board: Alicia creates a table, Bob joins, six
	// moves, then Bob reloads.
	api := &functest.Client{Base: srv.URL}
	alice.Click("#leave")
	alice.screen("lobby")
	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "pig"; s.dispatchEvent(new Event("change")); })()`, nil)
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	pigID := alice.String(`document.getElementById("tg-id").textContent`)
	bob.open(srv.URL, pigID)
	bob.screen("table")
	bob.WaitFor(`!document.getElementById("tg-join").hidden`)
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	players := map[string]*player{"alice": alice, "bob": bob}
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
	}
	for i := range 6 {
		var v tableView
		require.NoError(t, api.Call(ctx, "getView", "dev:alice", map[string]any{"gameId": pigID}, &v))
		require.Equal(t, "playing", v.Phase)
		p := players[v.Seats[v.ToMove].UID]
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d" && document.getElementById("table").dataset.mine === "1"`, v.Version))
		// Roll, then hold (the last button), so that both seats move.
		p.Click([]string{`#tg-move-buttons button:first-child`, `#tg-move-buttons button:last-child`}[i%2])
		p.WaitFor(fmt.Sprintf(`Number(document.getElementById("table").dataset.version) > %d && document.getElementById("table").dataset.pending !== "1"`, v.Version))
	}
	bob.Reload()
	bob.screen("table")
	// Alice's page polls: wait until it holds the table's last version
	// (the server's) before taking its log's seq as what Bob must reach.
	var last tableView
	require.NoError(t, api.Call(ctx, "getView", "dev:alice", map[string]any{"gameId": pigID}, &last))
	alice.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d"`, last.Version))
	pigSeq := alice.String(`document.getElementById("table").dataset.logSeq`)
	bob.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.logSeq === %q`, pigSeq))
	checkNamedLog(t, bob, "#tg-log", []string{"Alicia", evilName + " (you)", evilName + " took seat 2"}, []string{"alice", "bob"})
	require.Contains(t, logLines(bob, "#tg-log"), "Alicia took seat 1")
	require.Contains(t, logLines(bob, "#tg-log"), evilName+" took seat 2")
	require.Equal(t, []string{"Alicia", evilName + " (you)"}, cardNames(bob, "#tg-players"))
	turn = bob.String(`document.getElementById("tg-turn").textContent`)
	require.True(t, strings.HasPrefix(turn, "Your move") || strings.Contains(turn, "Alicia"), "the turn line: %q", turn)
	bob.shot("names-pig-reloaded-phone")
	bob.checkScreen("Pig's board with names, after a reload")
	bob.Eval(`document.getElementById("tg-log-box").scrollIntoView()`, nil)
	bob.shot("names-pig-log-phone")
	alice.shot("names-pig-alice-desktop")
	for _, p := range players {
		p.CheckConsole(expectedConsole...)
	}
}

// cardNames returns the names on the player cards of the list sel.
func cardNames(p *player, sel string) []string {
	var out []string
	p.Eval(`Array.from(document.querySelectorAll("`+sel+` li strong")).map((s) => s.textContent)`, &out)
	return out
}
