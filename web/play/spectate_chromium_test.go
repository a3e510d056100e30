package play_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/internal/browser"
)

// Open games, spectators and rematch in the browser (issue 30, items 5
// and 6), on the in-memory server: Alice creates a public Kuhn poker
// game; the lobby of Bob (1280 px, live, no click) and of Carol (390 px)
// lists it with its owner's name and free seat, renamed live when she
// renames; Bob joins from the list; Carol and Dave
// (1280 px) watch it read-only ("Watching", no join form, no move, no
// private row: the public part only, the players' cards never, while
// each player's page shows its own); the game ends on every page; then
// both players press Rematch and land in the same new game, seated
// there with their seats rotated. Then the dungeon: a public game Carol
// watches read-only, with no action button.
func TestOpenGamesSpectatorsRematchInChromium(t *testing.T) {
	pageTest(t, false)
	ctx := context.Background()
	srv := newDevServer(t)
	api := &functest.Client{Base: srv.URL}
	b := chrome.Browser(t)
	alice := newPlayer(t, b, "Alice", browser.Desktop, srv.URL+"/play/")
	bob := newPlayer(t, b, "Bob", browser.Desktop, srv.URL+"/play/")
	carol := newPlayer(t, b, "Carol", browser.Phone, srv.URL+"/play/")
	dave := newPlayer(t, b, "Dave", browser.Desktop, srv.URL+"/play/")
	for _, p := range []*player{alice, bob, carol, dave} {
		p.signInDev()
	}
	require.NoError(t, api.Call(ctx, "setName", "dev:alice", map[string]any{"name": "Alice"}, nil))

	// Alice creates a public Kuhn game (public opens it to spectators: the
	// box is ticked and fixed).
	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "kuhn"; s.dispatchEvent(new Event("change")); })()`, nil)
	alice.Click(`input[name="visibility"][value="public"]`)
	require.Equal(t, "true true", alice.String(`document.getElementById("create-spectators").checked + " " + document.getElementById("create-spectators").disabled`))
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	id := alice.String(`document.getElementById("tg-id").textContent`)

	// The lobby lists it, at 1280 and 390 px: Bob's list, open before the
	// game was made, shows it by itself (the list is live); Carol asks.
	row := fmt.Sprintf(`#open-games-list li[data-game-id=%q]`, id)
	carol.Click("#open-games-refresh")
	for _, p := range []*player{bob, carol} {
		p.WaitFor(`document.querySelector('` + row + `')`)
		text := p.String(`document.querySelector('` + row + `').textContent`)
		require.Contains(t, text, "Kuhn · Alice's game")
		require.Contains(t, text, "1 of 2 seats taken, 1 free · crypto · created just now")
		p.Eval(`document.getElementById("open-games").scrollIntoView()`, nil)
	}
	bob.shot("open-games-lobby-desktop")
	carol.shot("open-games-lobby-phone")
	bob.checkScreen("the lobby's list of open games")
	carol.checkScreen("the lobby's list of open games, on a phone")

	// Alice renames: the lobby's lists say the new name by themselves,
	// and the old one again when she takes it back.
	for _, name := range []string{"Alicia", "Alice"} {
		require.NoError(t, api.Call(ctx, "setName", "dev:alice", map[string]any{"name": name}, nil))
		for _, p := range []*player{bob, carol} {
			p.WaitFor(`document.querySelector('` + row + `').textContent.includes("Kuhn · ` + name + `'s game")`)
		}
	}

	// Bob joins from the list; Alice starts.
	bob.Click(row + " button")
	bob.screen("table")
	bob.WaitFor(`!document.getElementById("tg-join").hidden`)
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	players := map[string]*player{"alice": alice, "bob": bob}
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing" && document.querySelector('#tg-state dd[data-key="private.card"]')`)
	}
	carol.WaitFor(`document.getElementById("open-games-status").textContent.startsWith("No public game")`) // live: no click

	// Carol and Dave watch, read-only, never a private part.
	watchers := []*player{carol, dave}
	readOnly := func(p *player) {
		t.Helper()
		require.False(t, p.String(`String(document.getElementById("tg-watching").hidden)`) == "true", "the Watching banner")
		require.True(t, p.String(`String(document.getElementById("tg-join").hidden && document.getElementById("tg-moves").hidden && document.getElementById("tg-start").hidden && document.getElementById("tg-abandon").hidden)`) == "true", "no action")
		require.Equal(t, "0", p.String(`String(document.querySelectorAll('#tg-move-buttons button, #tg-state dd[data-key^="private"]').length)`), "no move button, no private row")
		require.Equal(t, "-1", p.String(`document.getElementById("table").dataset.seat`))
	}
	for _, w := range watchers {
		w.open(srv.URL, id)
		w.screen("table")
		w.WaitFor(`document.getElementById("table").dataset.phase === "playing" && !document.getElementById("tg-watching").hidden`)
		readOnly(w)
	}
	carol.shot("spectator-kuhn-phone")
	dave.shot("spectator-kuhn-desktop")
	carol.checkScreen("a spectator's view of Kuhn poker, on a phone")
	dave.checkScreen("a spectator's view of Kuhn poker")

	type kuhnView struct {
		Phase   string `json:"phase"`
		Version int    `json:"version"`
		ToMove  int    `json:"toMove"`
		State   struct {
			Private *struct{ Card int } `json:"private"`
		} `json:"state"`
		Seats []struct{ UID string }
		Log   []json.RawMessage `json:"log"`
	}
	view := func(tok, g string) kuhnView {
		t.Helper()
		var v kuhnView
		require.NoError(t, api.Call(ctx, "getView", tok, map[string]any{"gameId": g}, &v))
		return v
	}
	for moves := 0; ; moves++ {
		require.Less(t, moves, 10)
		v := view("dev:alice", id)
		if v.Phase == "finished" {
			break
		}
		// What the spectators read carries no private part: their getView
		// (the page's source) has none, while each seat's has its card.
		require.Nil(t, view("dev:carol", id).State.Private, "a spectator's getView")
		require.NotNil(t, v.State.Private, "control: a seat's getView has its card")
		for _, w := range watchers {
			w.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d"`, v.Version))
			readOnly(w)
		}
		p := players[v.Seats[v.ToMove].UID]
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d" && document.getElementById("table").dataset.mine === "1"`, v.Version))
		p.Click(`#tg-move-buttons button:nth-child(1)`)
		p.WaitFor(fmt.Sprintf(`Number(document.getElementById("table").dataset.version) > %d && document.getElementById("table").dataset.pending !== "1"`, v.Version))
	}
	final := view("dev:alice", id)
	for _, w := range watchers {
		w.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.phase === "finished" && document.getElementById("table").dataset.logSeq === "%d"`, len(final.Log)))
		require.True(t, w.String(`String(document.getElementById("tg-rematch").hidden)`) == "true", "no rematch for a spectator")
		var items []string
		w.Eval(`Array.from(document.querySelectorAll("#tg-log li")).map((li) => li.dataset.type)`, &items)
		require.NotContains(t, items, "Dealt", "a spectator reads no deal, only its traces")
		require.Contains(t, items, "Addressed")
	}

	// Rematch: both players press it and land in the same new game
	// ("rm" and 32 hex digits of SHA-256 of its tag and the old id, by
	// docs/functions.md's words), seated with their seats rotated.
	sum := sha256.Sum256([]byte("fairboard-rematch/v1\x00" + id))
	newID := "rm" + hex.EncodeToString(sum[:])[:32]
	for _, p := range []*player{bob, alice} {
		p.WaitFor(`document.getElementById("table").dataset.phase === "finished" && !document.getElementById("tg-rematch").hidden`)
		p.Click("#tg-rematch")
		p.WaitFor(fmt.Sprintf(`document.getElementById("tg-id").textContent === %q && document.querySelector("#tg-players li.me")`, newID))
	}
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	v := view("dev:alice", newID)
	require.Equal(t, []string{"bob", "alice"}, []string{v.Seats[0].UID, v.Seats[1].UID}, "seat 1's player to seat 2, seat 2's to seat 1")
	require.Equal(t, "1", alice.String(`document.getElementById("table").dataset.seat`))
	require.Equal(t, "0", bob.String(`document.getElementById("table").dataset.seat`))
	alice.shot("rematch-kuhn-desktop")
	alice.Click("#tg-start")
	for _, p := range players {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)
	}

	// The dungeon: a public game, Carol watching read-only.
	alice.Click("#tg-leave")
	alice.screen("lobby")
	alice.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "dungeon"; s.dispatchEvent(new Event("change")); })()`, nil)
	alice.Click(`input[name="visibility"][value="public"]`)
	m := &match{t: t, base: srv.URL, players: []*player{alice, bob}, stopAfter: 4}
	did := m.lobby("crypto", nil)
	carol.open(srv.URL, did)
	carol.screen("game")
	carol.WaitFor(`document.getElementById("game").dataset.phase === "playing" && !document.getElementById("watching").hidden`)
	m.play(100)
	ver := alice.String(`document.getElementById("game").dataset.version`)
	carol.WaitFor(fmt.Sprintf(`document.getElementById("game").dataset.version === %q`, ver))
	require.Equal(t, "0", carol.String(`String(document.querySelectorAll("#action-buttons button").length)`), "no action for a spectator")
	require.True(t, carol.String(`String(document.getElementById("join").hidden)`) == "true")
	turn := carol.String(`document.getElementById("turn").textContent`)
	require.False(t, strings.HasPrefix(turn, "Your"), "the turn line speaks of the players: %q", turn)
	carol.shot("spectator-dungeon-phone")
	carol.checkScreen("a spectator's view of the dungeon, on a phone")
	dave.open(srv.URL, did)
	dave.screen("game")
	dave.WaitFor(fmt.Sprintf(`document.getElementById("game").dataset.version === %q && !document.getElementById("watching").hidden`, ver))
	require.Equal(t, "0", dave.String(`String(document.querySelectorAll("#action-buttons button").length)`))
	dave.shot("spectator-dungeon-desktop")
	dave.checkScreen("a spectator's view of the dungeon")

	// Its end (Alice abandons it) and its rematch: each player presses
	// Rematch and lands in the same new game, seated with its class and
	// its seat rotated; the spectators get no Rematch.
	alice.Click("#abandon")
	alice.Click("#abandon-confirm")
	for _, p := range []*player{alice, bob, carol} {
		p.WaitFor(`document.getElementById("game").dataset.phase === "finished" && !document.getElementById("end").hidden`)
	}
	require.Equal(t, "true", carol.String(`String(document.getElementById("rematch").hidden)`), "no rematch for a spectator")
	dsum := sha256.Sum256([]byte("fairboard-rematch/v1\x00" + did))
	dnew := "rm" + hex.EncodeToString(dsum[:])[:32]
	for _, p := range []*player{alice, bob} {
		p.WaitFor(`!document.getElementById("rematch").hidden`)
		p.Click("#rematch")
		p.WaitFor(fmt.Sprintf(`document.getElementById("game-id").textContent === %q && document.getElementById("game").dataset.phase === "lobby" && document.querySelector("#players li.me")`, dnew))
	}
	alice.WaitFor(`document.querySelectorAll("#players li").length === 2`)
	for _, p := range []*player{alice, bob} {
		require.Empty(t, p.String(`document.getElementById("action-status").textContent`), "the join into the rotated seat is sent once")
	}
	var dv struct {
		State struct {
			Owner   string `json:"owner"`
			Players []struct {
				UID   string `json:"uid"`
				Seat  int    `json:"seat"`
				Class string `json:"class"`
			} `json:"players"`
		} `json:"state"`
	}
	require.NoError(t, api.Call(ctx, "getView", "dev:alice", map[string]any{"gameId": dnew}, &dv))
	require.Equal(t, "alice", dv.State.Owner)
	require.Len(t, dv.State.Players, 2)
	for _, pl := range dv.State.Players {
		want := map[string][2]any{"alice": {1, "warrior"}, "bob": {0, "monk"}}[pl.UID]
		require.Equal(t, want, [2]any{pl.Seat, pl.Class}, "%s's seat and class in the rematch", pl.UID)
	}
	alice.WaitFor(`document.querySelector('#action-buttons button[data-kind="start"]')`)
	alice.shot("rematch-dungeon-desktop")
	for _, p := range []*player{alice, bob, carol, dave} {
		p.CheckConsole(expectedConsole...)
	}
}

// A spectator on Firestore (the emulators, the rules enforced): the rules
// let only seated players read a game, so the page of Carol, a guest
// watching a public dungeon game at 390 px, reads it by polling getView
// and follows the players' moves read-only, while the players' pages
// listen; the console stays clean (no refused read of a document).
func TestSpectatorOnFirestoreInChromium(t *testing.T) {
	pageTest(t, true)
	srv := emuServer(t)
	b := chrome.Browser(t)
	url := srv.URL + "/play/"
	alice := newPlayer(t, b, "alice", browser.Desktop, url)
	bob := newPlayer(t, b, "bob", browser.Desktop, url)
	carol := newPlayer(t, b, "carol", browser.Phone, url)
	for _, p := range []*player{alice, bob, carol} {
		p.signInGuest()
	}
	alice.Click(`input[name="visibility"][value="public"]`)
	m := &match{t: t, base: srv.URL, players: []*player{alice, bob}, stopAfter: 3}
	id := m.lobby("crypto", nil)
	carol.open(srv.URL, id)
	carol.screen("game")
	carol.WaitFor(`document.getElementById("game").dataset.phase === "playing" && !document.getElementById("watching").hidden`)
	m.play(100)
	ver := alice.String(`document.getElementById("game").dataset.version`)
	carol.WaitFor(fmt.Sprintf(`document.getElementById("game").dataset.version === %q`, ver))
	require.Equal(t, "0", carol.String(`String(document.querySelectorAll("#action-buttons button").length)`), "no action for a spectator")
	require.Equal(t, "online", alice.String(`document.getElementById("net").dataset.state`), "the players listen")
	carol.shot("spectator-dungeon-firestore-phone")
	carol.checkScreen("a spectator's view on Firestore, on a phone")
	for _, p := range []*player{alice, bob, carol} {
		p.CheckConsole(expectedConsole...)
	}
}
