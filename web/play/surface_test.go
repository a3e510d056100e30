package play_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// surface names the elements of a game's page that issue 30's items are
// checked on: the dungeon's own page, or a table game's (its own board,
// boards.ts), which say the same things in the same places under other ids.
type surface struct {
	screen   string // document.body.dataset.screen
	root     string // carries data-phase, data-version, data-mine
	id       string // the game id's element
	board    string // the board (the state drawn)
	players  string
	log      string
	newest   string // what just happened: the newest event said
	turn     string
	watching string
	result   string
	rematch  string
	moves    string // the move buttons
	abandon  string
	confirm  string // the abandon's confirmation
	notify   string
}

var (
	dungeonSurface = surface{screen: "game", root: "#game", id: "#game-id", board: "#board", players: "#players", log: "#log",
		newest: "#recent li.newest", turn: "#turn", watching: "#watching", result: "#result", rematch: "#rematch",
		moves: "#action-buttons button", abandon: "#abandon", confirm: "#abandon-confirm", notify: "#notify"}
	tableSurface = surface{screen: "table", root: "#table", id: "#tg-id", board: "#tg-board", players: "#tg-players", log: "#tg-log",
		newest: "#tg-log li.newest", turn: "#tg-turn", watching: "#tg-watching", result: "#tg-result", rematch: "#tg-rematch",
		moves: "#tg-move-buttons button", abandon: "#tg-abandon", confirm: "#tg-abandon-confirm", notify: "#tg-notify"}
)

func surfaceOf(game string) surface {
	if game == "dungeon" {
		return dungeonSurface
	}
	return tableSurface
}

// q is a JavaScript expression for the element sel.
func q(sel string) string { return fmt.Sprintf("document.querySelector(%q)", sel) }

// data is a JavaScript expression for the surface root's data-key.
func (s surface) data(key string) string { return q(s.root) + ".dataset." + key }

// shown is a JavaScript condition: sel is in the page and not hidden.
func shown(sel string) string { return fmt.Sprintf("(%s && !%s.hidden)", q(sel), q(sel)) }

// codeWords are the code's words a page must never show a player: a deck
// id ("treasure.t1"), an HTTP status in brackets ("[400]"), a gRPC status
// ("NOT_FOUND"), a functions error code, a request field path, and an
// event said by its field names where the page has no words for it
// ("Showdown: card0 2, card1 0", "Round closed: index 3", "Deal
// settled").
var codeWords = regexp.MustCompile(`\b(treasure|enemy)\.t\d\b|\[\d{3}\]|\b[A-Z]+_[A-Z_]+\b|functions/[a-z-]+|\bdata\.[a-zA-Z]+|\bcard\d\b|: index \d|\bDeal settled\b`)

// longToken is a run of letters and digits long enough to be an id.
var longToken = regexp.MustCompile(`[0-9A-Za-z]{20,}`)

// checkWords fails the test if the visible text of p's page holds a code
// word or a raw account id (a run of 20 or more letters and digits in
// both cases: Firebase uids are; the page's own ids and hashes are
// lower-case); what names the screen.
func checkWords(t *testing.T, p *player, what string) {
	t.Helper()
	text := p.String(`document.body.innerText`)
	require.Empty(t, badWords(text), "%s: the code's words or raw ids on %s's page:\n%s", what, p.name, text)
}

// badWords returns the code's words and the raw account ids in text.
func badWords(text string) []string {
	bad := codeWords.FindAllString(text, -1)
	for _, tok := range longToken.FindAllString(text, -1) {
		if strings.ToLower(tok) != tok && strings.ToUpper(tok) != tok {
			bad = append(bad, tok)
		}
	}
	return bad
}

// The words check catches what the issue quotes from the page before it
// (its positive control), and lets the page's own words, ids and hashes
// be.
func TestBadWords(t *testing.T) {
	for _, seen := range []string{"Loot: treasure.t1", "(no such game [404])", "Refused: (every seat is taken [400])",
		"INVALID_ARGUMENT", "functions/not-found", "data.gameId must be 1-128 characters",
		"SiDAGZ3hwno9QkLmX7Oret drew Dagger", "Showdown: card0 2, card1 0", "Round closed: index 3", "Pending: index 0, Ben Okri", "Deal settled"} {
		require.NotEmpty(t, badWords(seen), "%q", seen)
	}
	for _, fine := range []string{"Pig game gifqiwquyvv", "Ada Lovelace (you) rolled 3 (turn total 3)",
		"The server's seed, revealed: e9c247f046f8109b21c305adb9fe44d1e95532d877ca4f5a067ce8c7ae0d003b",
		"Watching: you are a spectator.", "Game no-such-pig", "Your move — fairboard",
		"Showdown: Ada Lovelace shows Q, Ben Okri shows K", "No round open; the next uses index 5 of the chains."} {
		require.Empty(t, badWords(fine), "%q", fine)
	}
}

// checkAt runs the layout, accessibility and words checks on the screen
// p shows at 1280 and at 390 px (the page resized in place), saving a
// screenshot at each (name-1280, name-390), and puts p back at its size.
func checkAt(t *testing.T, p *player, name, what string) {
	t.Helper()
	p.AtEach(browser.Both, func(v browser.Viewport) {
		p.shot(fmt.Sprintf("%s-%d", name, v.Width))
		p.checkScreen(fmt.Sprintf("%s at %d px", what, v.Width))
	})
	checkWords(t, p, what)
}

// checkDialogAt is checkAt for a modal dialog: a modal covers the page
// behind it, so it has no layout check, only axe's and the words'.
func checkDialogAt(t *testing.T, p *player, name, what string) {
	t.Helper()
	p.AtEach(browser.Both, func(v browser.Viewport) {
		p.shot(fmt.Sprintf("%s-%d", name, v.Width))
		p.CheckAxe(fmt.Sprintf("%s at %d px", what, v.Width))
	})
	checkWords(t, p, what)
}

// checkJustHappened checks "what just happened" on p's page at both
// widths: the newest event is said and marked; at 1280 px it shows
// beside the board without scrolling (the dungeon's "Just now"); at
// 390 px the board comes before the players.
func checkJustHappened(t *testing.T, p *player, s surface) {
	t.Helper()
	p.WaitFor(q(s.newest) + ` && ` + q(s.newest) + `.textContent.trim() !== ""`)
	p.AtEach(browser.Both, func(v browser.Viewport) {
		top := func(sel string) string { return q(sel) + ".getBoundingClientRect().top" }
		if v == browser.Phone {
			require.Equal(t, "true", p.String(fmt.Sprintf(`String(%s < %s)`, top(s.board), top(s.players))),
				"%s at 390 px: the board before the players", p.name)
		}
		if v == browser.Desktop && s == dungeonSurface {
			require.Equal(t, "true", p.String(`String(document.getElementById("recent-box").getBoundingClientRect().top < window.innerHeight)`),
				"%s at 1280 px: Just now above the fold", p.name)
		}
	})
}
