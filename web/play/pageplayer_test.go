package play_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
	"github.com/fairboard/fairboard/rng"
)

// player is one person at the page: a browser context of its own.
type player struct {
	*browser.Page
	t    *testing.T
	name string
	uid  string
	// keyboard: every action by the keyboard alone (Tab and Enter), and
	// focus checked after each.
	keyboard bool
	pick     *rng.Stream
	moves    int
}

func newPlayer(t *testing.T, b *browser.Browser, name string, v browser.Viewport, url string) *player {
	t.Helper()
	p := &player{Page: b.NewPage(t), t: t, name: name}
	p.SetViewport(v)
	p.Navigate(url)
	s, err := rng.NewSeeded("page bot " + name)
	require.NoError(t, err)
	p.pick = s
	return p
}

// expectedConsole are the console entries a step may cause: a refused
// call's HTTP status, which the browser logs for any failed fetch while
// the page shows the refusal in words.
var expectedConsole = []*regexp.Regexp{
	regexp.MustCompile(`Failed to load resource: the server responded with a status of 4\d\d`),
}

// screen waits until the page shows the named screen.
func (p *player) screen(name string) {
	p.t.Helper()
	p.WaitFor(`document.body.dataset.screen === "` + name + `"`)
}

// signInDev signs in on a development server, by name.
func (p *player) signInDev() {
	p.t.Helper()
	p.screen("signin")
	p.Type("#dev-name", p.name)
	p.Click("#dev-signin")
	p.screen("lobby")
	p.uid = strings.ToLower(p.name)
}

// signInGuest signs in anonymously (Firebase Auth).
func (p *player) signInGuest() {
	p.t.Helper()
	p.screen("signin")
	p.Click("#guest")
	p.screen("lobby")
}

// signInEmail creates an email account on the Auth emulator.
func (p *player) signInEmail(email, password string) {
	p.t.Helper()
	p.screen("signin")
	p.Type("#email", email)
	p.Type("#password", password)
	p.Click("#email-signup")
	p.screen("lobby")
	require.Contains(p.t, p.String(`document.getElementById("who").textContent`), email)
}

// create makes a game in the mode from the lobby, seated at seat 0, and
// returns its id once the page shows it.
func (p *player) create(mode, class string) string {
	p.t.Helper()
	p.chooseMode(mode)
	p.Do(chromedpSetValue("#create-class", class))
	p.Click("#create")
	p.screen("game")
	p.WaitFor(`document.getElementById("game").dataset.phase === "lobby" && document.querySelector("#players li")`)
	return p.String(`document.getElementById("game-id").textContent`)
}

// createTable makes a table of the game (any registered game but the
// dungeon) in the mode from the lobby, seated at seat 0, options
// (select id suffix to value) chosen, and returns its id once the page
// shows it seated.
func (p *player) createTable(game, mode string, options map[string]string) string {
	p.t.Helper()
	p.Eval(`(() => { const s = document.getElementById("create-game"); s.value = "`+game+`"; s.dispatchEvent(new Event("change")); })()`, nil)
	p.chooseMode(mode)
	for k, v := range options {
		p.Do(chromedpSetValue("#create-option-"+k, v))
	}
	p.Click("#create")
	p.screen("table")
	p.WaitFor(`document.getElementById("table").dataset.phase === "lobby" && document.querySelector("#tg-players li.me")`)
	return p.String(`document.getElementById("tg-id").textContent`)
}

// joinTable takes the first free seat of the open table from its join
// form (the page shows the table first).
func (p *player) joinTable() {
	p.t.Helper()
	p.screen("table")
	p.WaitFor(`!document.getElementById("tg-join").hidden`)
	p.Click("#tg-join-button")
	p.WaitFor(`document.querySelector("#tg-players li.me")`)
}

// open opens a game by its shared link.
func (p *player) open(base, id string) {
	p.t.Helper()
	p.Navigate(base + "/play/#game=" + id)
}

// join takes a seat with a class from the join form.
func (p *player) join(seat int, class string) {
	p.t.Helper()
	p.screen("game")
	p.WaitFor(`!document.getElementById("join").hidden`)
	p.Do(chromedpSetValue("#join-seat", fmt.Sprint(seat)), chromedpSetValue("#join-class", class))
	p.Click("#join-button")
	p.WaitFor(`document.querySelector("#players li.me")`)
}

// button is an action the page offers.
type button struct {
	Kind   string `json:"kind"`
	Card   string `json:"card"`
	Target string `json:"target"`
	Index  int    `json:"index"`
}

// offered lists the action buttons the page shows.
func (p *player) offered() []button {
	var bs []button
	p.Eval(`Array.from(document.querySelectorAll("#action-buttons button")).map((b, i) => ({kind: b.dataset.kind, card: b.dataset.card || "", target: b.dataset.target || "", index: i}))`, &bs)
	return bs
}

// choose is the bot: it picks one of the offered buttons, preferring what
// moves the game on (so games end) with a seeded random choice among the
// rest.
func (p *player) choose(bs []button) button {
	var pref []button
	for _, want := range []string{"start", "resolveCombatRound", "resolveDuelRound", "move", "declineReroll", "endManage", "skipDuel", "discard"} {
		for _, b := range bs {
			if b.Kind == want {
				pref = append(pref, b)
			}
		}
		if len(pref) > 0 {
			break
		}
	}
	if len(pref) == 0 {
		pref = bs
	}
	// Now and then, anything offered: potions, challenges, re-rolls, sleep.
	n, err := p.pick.UniformInt(0, 9, "test.pageBot", nil)
	require.NoError(p.t, err)
	if n == 0 {
		pref = bs
	}
	i, err := p.pick.UniformInt(0, int64(len(pref)-1), "test.pageBot", nil)
	require.NoError(p.t, err)
	return pref[i]
}

// press activates a button by the keyboard: Tab until it has the focus,
// then Enter.
func (p *player) press(b button) {
	p.t.Helper()
	sel := fmt.Sprintf(`document.querySelectorAll("#action-buttons button")[%d]`, b.Index)
	for i := 0; ; i++ {
		var focused bool
		p.Eval(sel+` === document.activeElement`, &focused)
		if focused {
			break
		}
		require.Less(p.t, i, 80, "Tab never reached the %s button; focus is on %s", b.Kind, p.String(`document.activeElement.outerHTML.slice(0, 120)`))
		p.Key(kb.Tab)
	}
	p.Key(kb.Enter)
}

// irreversible are the kinds the page asks to confirm (web/play/src/safety.ts).
var irreversible = map[string]bool{"dropItem": true, "discard": true}

// act plays one offered action: clicked, or pressed by keyboard. It
// returns the time (unix ms, the page's clock) just before the action.
func (p *player) act() (button, int64) {
	p.t.Helper()
	bs := p.offered()
	require.NotEmpty(p.t, bs)
	b := p.choose(bs)
	var at int64
	p.Eval(`Date.now()`, &at)
	if p.keyboard {
		p.press(b)
	} else {
		p.Eval(fmt.Sprintf(`document.querySelectorAll("#action-buttons button")[%d].scrollIntoView({block: "center"})`, b.Index), nil)
		p.Click(fmt.Sprintf(`#action-buttons button:nth-child(%d)`, b.Index+1))
	}
	if irreversible[b.Kind] {
		// The page asks first, with "No, keep it" focused: confirm.
		p.WaitFor(`document.activeElement && document.activeElement.id === "confirm-no"`)
		if p.keyboard {
			p.Key(kb.Tab)
			p.WaitFor(`document.activeElement && document.activeElement.id === "confirm-yes"`)
			p.Key(kb.Enter)
		} else {
			p.Click("#confirm-yes")
		}
	}
	p.moves++
	return b, at
}

// state is the page's view of the game.
type state struct {
	Phase, Version, Mine, Pending, LogSeq string
	VersionAt                             string
	Problem                               string
}

func (p *player) state() state {
	var s state
	p.Eval(`(() => { const g = document.getElementById("game").dataset; return {
  phase: g.phase || "", version: g.version || "", mine: g.mine || "", pending: g.pending || "", logSeq: g.logSeq || "",
  versionAt: g.versionAt || "", problem: document.getElementById("problem").hidden ? "" : document.getElementById("problem").textContent }; })()`, &s)
	return s
}

// verifyInPage asks the page to verify the finished game and returns the
// verdict's status and message.
func (p *player) verifyInPage() (string, string) {
	p.t.Helper()
	p.WaitFor(`!document.getElementById("end").hidden`)
	p.Click("#verify")
	p.WaitFor(`["ok", "diverged", "invalid", "error"].includes(document.getElementById("verdict").dataset.status)`, 2*time.Minute)
	return p.String(`document.getElementById("verdict").dataset.status`), p.String(`document.getElementById("verdict-message").textContent`)
}

// shot saves a screenshot under the test's screenshot directory.
func (p *player) shot(name string) string {
	dir := os.Getenv("FAIRBOARD_SCREENSHOTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "fairboard-play-screenshots")
	}
	path := filepath.Join(dir, name+".png")
	p.Screenshot(path)
	p.t.Logf("screenshot: %s", path)
	return path
}

// checkScreen runs the layout and accessibility checks on the screen as
// it is.
func (p *player) checkScreen(what string) {
	p.t.Helper()
	p.CheckLayout(what)
	p.CheckAxe(what)
}

func readAll(r *http.Request) ([]byte, error) {
	defer r.Body.Close()
	return io.ReadAll(r.Body)
}

func nopCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

// chromedpSetValue sets a select's value (the form reads it on submit).
func chromedpSetValue(sel, v string) chromedp.Action[chromedp.Void] {
	return chromedp.SetValue(chromedp.CSS(sel), v, chromedp.NodeVisible)
}

// agreedVersion waits until every page shows the table at one version,
// the highest any of them shows, and returns it. A page read between
// the answer to its own move and the news of the next one may be a step
// behind the other page, or ahead of it; waiting for the other to show
// exactly the first page's version then waits for a version it has
// passed. A page that stays behind fails the test when d runs out.
func agreedVersion(t *testing.T, players []*player, d time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(d)
	version := func(p *player) int {
		v, err := strconv.Atoi(p.String(`document.getElementById("table").dataset.version`))
		require.NoError(t, err, "%s's table version", p.name)
		return v
	}
	for {
		top := 0
		for _, p := range players {
			top = max(top, version(p))
		}
		for _, p := range players {
			p.WaitFor(`Number(document.getElementById("table").dataset.version) >= `+strconv.Itoa(top), max(time.Until(deadline), time.Second))
		}
		same := true
		for _, p := range players {
			same = same && version(p) == top
		}
		if same {
			return strconv.Itoa(top)
		}
		require.True(t, time.Now().Before(deadline), "the pages never showed one version within %v", d)
	}
}
