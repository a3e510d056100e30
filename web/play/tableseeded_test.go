package play_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	fbmatch "github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// pigShort is the ruleset of the seeded Pig game in the lobby's test: a
// goal of 10, which a player who always rolls reaches in a few rolls.
const pigShort = `{"goal":10,"dieSides":6}`

// seededPigRolls plays a seeded Pig game of two seats under pigShort in
// match, every move a roll, from seed: the values rolled, in order, and
// the seats that rolled them. It is the expectation of the table the
// page creates with that seed, made without the page or the server.
func seededPigRolls(t *testing.T, seed string) (values, seats []int) {
	t.Helper()
	rules, err := pig.Def.DecodeRuleset([]byte(pigShort))
	require.NoError(t, err)
	m, err := fbmatch.New(pig.Def, fbmatch.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2), Rules: rules})
	require.NoError(t, err)
	for n := 0; !m.Over(); n++ {
		require.Less(t, n, 1000, "always rolling, the game never ended")
		evs, err := m.Apply(game.Move{Seat: m.State().ToMove(), Kind: pig.KindRoll})
		require.NoError(t, err)
		for _, e := range evs {
			if e.Type == pig.EventRolled {
				seats = append(seats, int(e.Vals[0]))
				values = append(values, int(e.Vals[1]))
			}
		}
	}
	return values, seats
}

// playSeededPig is TestPigOnGenericBoard's seeded table, on its server
// that allows seeded games (newSeededDevServer): Alice, on her finished
// table, goes back to the lobby, where Pig offers "Seeded" with its seed
// field; an empty seed and one of 258 bytes (129 characters) are refused
// in words before anything is sent. With a seed in which both seats roll
// (the first of "lobby ☃ N" whose game, played in match by rolls alone,
// has both seats roll), she creates the table; both pages say it is
// seeded (Alice's with her seed), Bob joins by the link, and both play it
// to its end by clicking "Roll". Every roll, on the server and in both
// pages' logs, is the one match makes from that seed. At the end each
// page checks the record in its WebAssembly: it verifies, its seed is
// the one typed, which Alice's page (which kept it) confirms. It leaves
// Alice's page on the finished table.
func playSeededPig(t *testing.T, srv *server, alice, bob *player) {
	t.Helper()
	start := time.Now()
	defer func() { t.Logf("the seeded table took %v", time.Since(start).Round(time.Millisecond)) }()
	api := &functest.Client{Base: srv.URL}
	var seed string
	var want, wantSeats []int
	for n := 0; ; n++ {
		require.Less(t, n, 100, "no seed in which both seats roll")
		seed = fmt.Sprintf("lobby ☃ %d", n)
		want, wantSeats = seededPigRolls(t, seed)
		if slices.Contains(wantSeats, 1) && len(want) <= 16 {
			break
		}
	}
	t.Logf("seed %q: rolls %v by seats %v", seed, want, wantSeats)
	srv.withRules(pigShort)

	alice.Click("#tg-leave")
	alice.screen("lobby")
	require.True(t, isTrue(alice, `!document.getElementById("create-mode-seeded").hidden && document.getElementById("create-seed").hidden`),
		"Seeded offered, its seed's field shown once it is chosen")
	alice.chooseMode("seeded")
	alice.WaitFor(`!document.getElementById("create-seed").hidden && !document.getElementById("create-seed-label").hidden`)
	creates := srv.createCalls()
	alice.Click("#create")
	alice.WaitFor(`document.getElementById("lobby-error").textContent !== ""`)
	require.Equal(t, "The game could not be created: A seeded table needs a seed: type 1 to 256 bytes of text (the same seed replays the same dice).",
		alice.String(`document.getElementById("lobby-error").textContent`))
	alice.Do(chromedpSetValue("#create-seed", strings.Repeat("é", 129)))
	alice.Click("#create")
	alice.WaitFor(`document.getElementById("lobby-error").textContent.includes("258 bytes")`)
	require.Equal(t, "The game could not be created: The seed is 258 bytes long (in UTF-8): at most 256 bytes are allowed.",
		alice.String(`document.getElementById("lobby-error").textContent`))
	require.Equal(t, creates, srv.createCalls(), "refused before anything was sent")
	require.True(t, isTrue(alice, `document.activeElement.id === "create-seed" && document.activeElement.getAttribute("aria-invalid") === "true"`), "the seed's field is where to fix it")
	alice.shot("pig-seeded-lobby-alice-desktop")
	alice.checkScreen("the lobby's seeded mode with a refused seed at 1280 px")

	alice.Do(chromedpSetValue("#create-seed", seed))
	alice.Click("#create")
	alice.screen("table")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	id := alice.String(`document.getElementById("tg-id").textContent`)
	require.Equal(t, creates+1, srv.createCalls())
	require.Equal(t, seed, alice.String(`document.getElementById("tg-seeded").dataset.seed`), "Alice's page kept her seed")
	require.Contains(t, alice.String(`document.getElementById("tg-seeded").textContent`), "Your seed: “"+seed+"”")
	bob.open(srv.URL, id)
	bob.screen("table")
	bob.WaitFor(`document.getElementById("tg-id").textContent === "` + id + `" && !document.getElementById("tg-join").hidden`)
	for _, p := range []*player{alice, bob} {
		require.Contains(t, p.String(`document.getElementById("tg-mode").textContent`), "Mode: seeded (replayable from its seed: for development)")
		require.True(t, isTrue(p, `!document.getElementById("tg-seeded").hidden`))
		require.Contains(t, p.String(`document.getElementById("tg-seeded").textContent`), "Seeded table, for development")
	}
	require.NotContains(t, bob.String(`document.body.innerText`), seed, "the seed is the creator's until the end")
	bob.Click("#tg-join-button")
	bob.WaitFor(`document.querySelector("#tg-players li.me")`)
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	alice.WaitFor(`document.getElementById("table").dataset.phase === "playing"`)

	// Play: the page of the seat to move clicks "Roll", to the end.
	players := map[string]*player{alice.uid: alice, bob.uid: bob}
	for moves := 0; ; moves++ {
		require.Less(t, moves, 100, "the game never ended")
		v, err := functest.TableView(context.Background(), api, id, "dev:alice")
		require.NoError(t, err)
		if v.Phase == "finished" {
			break
		}
		p := players[v.Seats[v.ToMove].UID]
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d" && document.getElementById("table").dataset.mine === "1"`, v.Version))
		require.Contains(t, p.String(`document.querySelector("#tg-move-buttons button").dataset.move`), `"roll"`)
		if moves == 2 {
			p.shot("pig-seeded-play-" + p.name)
		}
		p.Click(`#tg-move-buttons button:nth-child(1)`)
		p.WaitFor(fmt.Sprintf(`Number(document.getElementById("table").dataset.version) > %d && document.getElementById("table").dataset.pending !== "1"`, v.Version))
	}

	// Every roll is the one match makes from the seed.
	var final tableView
	require.NoError(t, api.Call(context.Background(), "getView", "dev:alice", map[string]any{"gameId": id}, &final))
	var got, gotSeats []int
	for _, e := range final.Log {
		if e["type"] == "Rolled" {
			got = append(got, int(e["value"].(float64)))
			gotSeats = append(gotSeats, int(e["seat"].(float64)))
		}
	}
	require.Equal(t, want, got, "the server's rolls")
	require.Equal(t, wantSeats, gotSeats)
	for _, p := range []*player{alice, bob} {
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.phase === "finished" && document.getElementById("table").dataset.logSeq === "%d"`, len(final.Log)))
		var texts []string
		p.Eval(`Array.from(document.querySelectorAll('#tg-log li[data-type="Rolled"]')).map((li) => li.textContent)`, &texts)
		require.Len(t, texts, len(want))
		for i, text := range texts {
			require.Contains(t, text, fmt.Sprintf("rolled %d", want[i]), "%s's log, roll %d", p.name, i)
		}
		// The record, checked in the page: it replays from its seed.
		p.WaitFor(`document.getElementById("tg-seed-end").dataset.status !== "" && !document.getElementById("tg-seed-end").hidden`)
		require.Equal(t, "ok", p.String(`document.getElementById("tg-seed-end").dataset.status`))
		require.Equal(t, "yes", p.String(`document.getElementById("tg-seed-end").dataset.ok`))
		require.True(t, isTrue(p, `document.getElementById("tg-record-end").hidden`), "a seeded table's record is checked by its own section")
		checks := p.String(`document.getElementById("tg-seed-checks").textContent`)
		require.Contains(t, checks, "every draw recomputed from the seed")
		require.Contains(t, checks, "Its seed is “"+seed+"”: every die and card of the game was recomputed from it, here.")
	}
	require.Equal(t, "true", alice.String(`document.getElementById("tg-seed-end").dataset.mine`))
	require.Contains(t, alice.String(`document.getElementById("tg-seed-checks").textContent`), "It is the seed you typed when you created the table.")
	require.Equal(t, "", bob.String(`document.getElementById("tg-seed-end").dataset.mine`), "Bob's page typed no seed")
	require.Contains(t, bob.String(`document.getElementById("tg-seed-checks").textContent`), "The table's creator chose it")
	alice.shot("pig-seeded-end-alice-desktop")
	bob.shot("pig-seeded-end-bob-phone")
	alice.checkScreen("a seeded Pig table's end at 1280 px")
	bob.checkScreen("a seeded Pig table's end at 390 px")
}

// forceSeeded is the control of the lobby's seeded mode on a server
// that does not allow seeded games: with Pig chosen the page does not
// offer it; shown and chosen by the test anyway, with a seed, the create
// goes to the server, which refuses it (seeded_disabled), and the page
// says so in words. The page stays in the lobby.
func forceSeeded(t *testing.T, srv *server, p *player) {
	t.Helper()
	p.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "pig"; s.dispatchEvent(new Event("change")); })()`, nil)
	require.True(t, isTrue(p, `document.getElementById("create-mode-seeded").hidden && document.getElementById("create-seed").hidden`), "not offered")
	creates := srv.createCalls()
	p.Eval(`(() => { document.getElementById("create-mode-seeded").hidden = false; document.getElementById("create-seed").hidden = false;
	  document.querySelector('input[name="mode"][value="seeded"]').checked = true; })()`, nil)
	p.Do(chromedpSetValue("#create-seed", "forced"))
	p.Click("#create")
	p.WaitFor(`document.getElementById("lobby-error").textContent !== ""`)
	require.Equal(t, "The game could not be created: This server does not allow seeded games.", p.String(`document.getElementById("lobby-error").textContent`))
	require.Equal(t, creates+1, srv.createCalls(), "sent, and refused by the server")
	require.Equal(t, "lobby", p.String(`document.body.dataset.screen`))
	p.Eval(`document.querySelector('input[name="mode"][value="crypto"]').checked = true`, nil)
}
