package play_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/leduc"
)

// boardShown is what a table game's own board shows (src/pigboard.ts,
// src/pokerboard.ts), read from the page in one go with the version it
// was drawn at and the cards the page opened at a trustless table.
type boardShown struct {
	GameID  string `json:"gameId"`
	Seat    int    `json:"seat"`
	Version int    `json:"version"`
	Hidden  bool   `json:"hidden"`
	Text    string `json:"text"`
	Tracks  []struct {
		Seat   int     `json:"seat"`
		Banked int     `json:"banked"`
		Value  float64 `json:"value"`
		Max    float64 `json:"max"`
		Label  string  `json:"label"`
		// Pending is the meter of the turn total not banked yet (-1: none).
		Pending float64 `json:"pending"`
	} `json:"tracks"`
	TurnTotal *string `json:"turnTotal"`
	Die       *string `json:"die"`
	Seats     []struct {
		Seat  int     `json:"seat"`
		Card  string  `json:"card"`
		Label string  `json:"label"`
		Chips *string `json:"chips"`
	} `json:"seats"`
	Pot        *string `json:"pot"`
	PublicCard *string `json:"publicCard"`
	Opened     string  `json:"opened"`
}

const readBoard = `(() => {
  const t = document.getElementById("table"), b = document.getElementById("tg-board-body");
  const meter = (li) => li.querySelector("meter");
  return JSON.stringify({
    gameId: document.getElementById("tg-id").textContent, seat: Number(t.dataset.seat), version: Number(t.dataset.version), hidden: b.hidden, text: b.textContent,
    tracks: Array.from(b.querySelectorAll("li.track")).map((li) => ({ seat: Number(li.dataset.seat), banked: Number(li.dataset.banked),
      value: meter(li) ? meter(li).value : -1, max: meter(li) ? meter(li).max : -1, label: meter(li) ? meter(li).getAttribute("aria-label") : "",
      pending: li.querySelector("meter.pending") ? li.querySelector("meter.pending").value : -1 })),
    turnTotal: b.querySelector('[data-board="turn-total"]')?.textContent ?? null,
    die: b.querySelector(".die")?.dataset.value ?? null,
    seats: Array.from(b.querySelectorAll("li.poker-seat")).map((li) => ({ seat: Number(li.dataset.seat), card: li.querySelector(".card").dataset.card,
      label: li.querySelector(".card").getAttribute("aria-label"), chips: li.querySelector('[data-board="chips-in"]')?.textContent ?? null })),
    pot: b.querySelector('[data-board="pot"]')?.textContent ?? null,
    publicCard: b.querySelector(".public-card .card")?.dataset.card ?? null,
    opened: document.getElementById("tg-trust-cards").dataset.cards || "",
  });
})()`

// boardView is a getView answer as the board check reads it.
type boardView struct {
	GameID  string         `json:"gameId"`
	Version int            `json:"version"`
	Phase   string         `json:"phase"`
	Mode    string         `json:"mode"`
	Seat    int            `json:"seat"`
	Seats   []struct{}     `json:"seats"`
	Rules   map[string]any `json:"rules"`
	State   json.RawMessage
	Log     []map[string]any `json:"log"`
}

// viewsOf returns the getView answers the server gave for the game id
// to the seat (-1: a spectator's), in order.
func (s *server) viewsOf(t *testing.T, id string, seat int) []boardView {
	var out []boardView
	for _, c := range s.viewCalls() {
		if len(c.raw) == 0 || c.raw[0] != '{' {
			continue
		}
		var v boardView
		require.NoError(t, json.Unmarshal(c.raw, &v))
		if v.GameID == id && v.Seat == seat {
			out = append(out, v)
		}
	}
	return out
}

// checkBoard checks game's own board on p's page against the table as
// the server answered getView to p's seat (or to a spectator) at the
// version the board shows (every page of these tests reads getView: in
// memory, or at a trustless table):
// Pig's tracks hold each seat's banked score out of the ruleset's goal,
// its turn total is the state's, its die the last roll of the log; Kuhn's
// and Leduc's seat shows its own card (the state's, or at a trustless
// table the one opened on the device, named by the game's Go code) and
// the others' face down until shown, the pot and Leduc's chips in and
// public card as the state holds them. what names the moment.
func checkBoard(t *testing.T, srv *server, game string, p *player, what string) {
	t.Helper()
	var b boardShown
	if game != "pig" && p.String(`document.getElementById("table").dataset.seat`) != "-1" &&
		strings.Contains(p.String(`document.getElementById("tg-mode").textContent`), "Mode: trustless") {
		// The seat's card is opened on the device once the deal's keys are in.
		p.WaitFor(`!!document.getElementById("tg-trust-cards").dataset.cards && !!document.querySelector("#tg-board li.poker-seat.me .card.face")`, time.Minute)
	}
	require.NoError(t, json.Unmarshal([]byte(p.String(readBoard)), &b))
	require.False(t, b.Hidden, "%s: %s's page shows the game's own board", what, p.name)
	require.NotContains(t, b.Text, "Your card: —", "%s: %s's board", what, p.name)
	var v *boardView
	rolled, rolledSeq := "", -1.0
	for _, x := range srv.viewsOf(t, b.GameID, b.Seat) {
		if x.Version > b.Version {
			continue
		}
		if x.Version == b.Version {
			v = &x
		}
		for _, e := range x.Log {
			if seq, _ := e["seq"].(float64); e["type"] == "Rolled" && e["game"] == true && seq > rolledSeq {
				rolled, rolledSeq = fmt.Sprint(e["value"]), seq
			}
		}
	}
	require.NotNil(t, v, "%s: %s's page shows version %d, which getView answered it", what, p.name, b.Version)
	// The board itself, in view at the page's width (the screens' shots
	// show the top of the page).
	p.Eval(`document.getElementById("tg-board").scrollIntoView()`, nil)
	p.shot(fmt.Sprintf("board-%s-%s-%s-%s", game, v.Mode, strings.ReplaceAll(what, " ", "-"), strings.ToLower(p.name)))
	p.Eval(`window.scrollTo(0, 0)`, nil)
	switch game {
	case "pig":
		var st struct {
			Banked    []int `json:"banked"`
			Turn      int   `json:"turn"`
			TurnTotal int   `json:"turnTotal"`
			Over      bool  `json:"over"`
		}
		require.NoError(t, json.Unmarshal(v.State, &st))
		goal, _ := v.Rules["goal"].(float64)
		require.Positive(t, goal, "the ruleset's goal")
		require.Len(t, b.Tracks, len(st.Banked), "%s: a track a seat", what)
		for s, tr := range b.Tracks {
			require.Equal(t, s, tr.Seat)
			require.Equal(t, st.Banked[s], tr.Banked, "%s: seat %d's banked score on its track", what, s)
			require.Equal(t, min(float64(st.Banked[s]), goal), tr.Value, "%s: seat %d's meter", what, s)
			require.Equal(t, goal, tr.Max, "%s: the track ends at the goal", what)
			require.Contains(t, tr.Label, fmt.Sprintf("score %d of %d", st.Banked[s], int(goal)), "%s: the meter's label", what)
			pending := -1.0 // the turn total's part: the seat to move's, while it has one
			if v.Phase == "playing" && !st.Over && s == st.Turn && st.TurnTotal > 0 {
				pending = min(float64(st.Banked[s]+st.TurnTotal), goal)
			}
			require.Equal(t, pending, tr.Pending, "%s: seat %d's turn total on its track", what, s)
		}
		if v.Phase == "playing" && !st.Over {
			require.NotNil(t, b.TurnTotal, "%s: the turn total shown", what)
			require.Equal(t, strconv.Itoa(st.TurnTotal), *b.TurnTotal, "%s: the turn total", what)
		}
		if rolled == "" {
			require.Nil(t, b.Die, "%s: no die before a roll", what)
		} else {
			require.NotNil(t, b.Die, "%s: the die", what)
			require.Equal(t, rolled, *b.Die, "%s: the die shows the log's last roll", what)
		}
	case "kuhn", "leduc":
		checkPokerBoard(t, game, v, b, p, what)
	}
}

// checkPokerBoard is checkBoard's part for Kuhn and Leduc.
func checkPokerBoard(t *testing.T, game string, v *boardView, b boardShown, p *player, what string) {
	t.Helper()
	var st struct {
		Public  map[string]any `json:"public"`
		Private map[string]any `json:"private"`
	}
	require.NoError(t, json.Unmarshal(v.State, &st))
	pub := st.Public
	if pub == nil { // a spectator's view: the public part alone
		require.NoError(t, json.Unmarshal(v.State, &pub))
	}
	name := func(c any) string { // a card as the game's state or deal says it, "" for none
		switch c := c.(type) {
		case float64:
			if game == "kuhn" {
				if c < 0 || c > 2 {
					return ""
				}
				return string("JQK"[int(c)])
			}
			if n := leduc.NameCard(len(v.Seats), int(c)); n != "-" {
				return n
			}
		case string:
			if c != "-" {
				return c
			}
		}
		return ""
	}
	own := ""
	if v.Seat >= 0 {
		own = name(st.Private["card"])
		if v.Mode == "trustless" { // the card opened on the device
			first, _, _ := strings.Cut(b.Opened, ",")
			n, err := strconv.Atoi(first)
			require.NoError(t, err, "%s: the card opened on %s's device", what, p.name)
			own = name(float64(n))
		}
		require.NotEmpty(t, own, "%s: %s's own card", what, p.name)
	}
	shown, _ := pub["shown"].([]any)
	require.Len(t, b.Seats, len(v.Seats), "%s: a place a seat", what)
	for s, seat := range b.Seats {
		want := ""
		if s < len(shown) {
			want = name(shown[s])
		}
		if want == "" && s == v.Seat {
			want = own
		}
		require.Equal(t, want, seat.Card, "%s: %s's board, seat %d's card (face down: \"\")", what, p.name, s)
		if want != "" {
			require.True(t, strings.HasSuffix(seat.Label, ": "+cardWordsOf(want)), "%s: the card's label %q says %s", what, seat.Label, want)
		}
		if in, ok := pub["in"].([]any); ok {
			require.NotNil(t, seat.Chips, "%s: seat %d's chips in", what, s)
			require.Equal(t, fmt.Sprint(in[s]), *seat.Chips, "%s: seat %d's chips in", what, s)
		}
	}
	require.NotNil(t, b.Pot)
	require.Equal(t, fmt.Sprint(pub["pot"]), *b.Pot, "%s: the pot", what)
	if game == "leduc" {
		require.NotNil(t, b.PublicCard, "%s: Leduc's public card's place", what)
		require.Equal(t, name(pub["publicCard"]), *b.PublicCard, "%s: the public card (face down: \"\")", what)
	}
}

// cardWordsOf says a card in words, written here from the cards' names
// (a second spelling of boardparts.ts's cardWords).
func cardWordsOf(card string) string {
	ranks := map[byte]string{'3': "Three", '4': "Four", '5': "Five", '6': "Six", '7': "Seven", '8': "Eight", '9': "Nine", 'T': "Ten", 'J': "Jack", 'Q': "Queen", 'K': "King"}
	suits := map[byte]string{'s': "spades", 'h': "hearts"}
	if len(card) == 1 {
		return ranks[card[0]]
	}
	return ranks[card[0]] + " of " + suits[card[1]]
}
