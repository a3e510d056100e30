package play_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/browser"
)

// eightsName names card c of Crazy Eights' default deck (8 ranks, 4
// suits) as the board does, from the game's rule written out here: rank
// c%8+1 (1 the ace) of suit c/8 (spades, hearts, diamonds, clubs).
func eightsName(c int) string {
	return string("A2345678"[c%8]) + string("shdc"[c/8])
}

// eightsLabel is a move's button label from the same rule: "Play 7♥",
// an eight naming the suit in force, "Draw a card".
func eightsLabel(kind string, card, suit int, hand []int) string {
	if kind == "draw" {
		return "Draw a card"
	}
	c := hand[card]
	l := "Play " + string("A2345678"[c%8]) + []string{"♠", "♥", "♦", "♣"}[c/8]
	if c%8 == 7 {
		l += ", naming " + []string{"spades", "hearts", "diamonds", "clubs"}[suit]
	}
	return l
}

// Crazy Eights on its own board (eightsboard.ts), a crypto table of two
// pages: each page's hand face up, card for card the hand getView gives
// that seat, the other's hand a count face down, the top card, the suit
// in force and the draw pile's count as the public part says; the seat
// to move's buttons say its legal moves as cards; a move played from the
// page is said in the log as that card. At 390 px with the layout and
// accessibility checks.
func TestEightsBoardInChromium(t *testing.T) {
	m := newMemTable(t)
	alice := m.page("Alice", browser.Desktop)
	bob := m.page("Bob", browser.Phone)
	id := tableID("eights-")
	m.create("alice", id, map[string]any{"game": "eights", "mode": "crypto", "seats": 2})
	for _, p := range []*player{alice, bob} {
		p.open(m.srv.URL, id)
		p.joinTable()
	}
	alice.WaitFor(`!document.getElementById("tg-start").hidden`)
	alice.Click("#tg-start")
	type eightsView struct {
		Version int `json:"version"`
		Seat    int `json:"seat"`
		State   struct {
			Public struct {
				Top, Suit, ToMove, Stock int
				Hands                    []int
			} `json:"public"`
			Private struct{ Hand []int } `json:"private"`
		} `json:"state"`
		Legal []map[string]any `json:"legal"`
	}
	for _, p := range []*player{alice, bob} {
		p.WaitFor(`document.getElementById("table").dataset.phase === "playing" && !!document.querySelector("#tg-board .eights-hand")`, time.Minute)
		var v eightsView
		require.NoError(t, m.api.Call(m.ctx, "getView", "dev:"+p.uid, map[string]any{"gameId": id}, &v))
		p.WaitFor(fmt.Sprintf(`document.getElementById("table").dataset.version === "%d"`, v.Version))
		var hand []string
		p.Eval(`Array.from(document.querySelectorAll("#tg-board li.poker-seat.me .eights-hand .card")).map((c) => c.dataset.card)`, &hand)
		want := make([]string, len(v.State.Private.Hand))
		for i, c := range v.State.Private.Hand {
			want[i] = eightsName(c)
		}
		require.Equal(t, want, hand, "%s's hand, face up", p.name)
		other := 1 - v.Seat
		require.Equal(t, fmt.Sprint(v.State.Public.Hands[other]), p.String(fmt.Sprintf(`document.querySelector('#tg-board li.poker-seat[data-seat="%d"]').dataset.cards`, other)))
		require.Equal(t, "", p.String(fmt.Sprintf(`document.querySelector('#tg-board li.poker-seat[data-seat="%d"] .card').dataset.card`, other)), "the other hand face down")
		require.Equal(t, eightsName(v.State.Public.Top), p.String(`document.querySelector("#tg-board .public-card .card").dataset.card`))
		require.Equal(t, []string{"spades", "hearts", "diamonds", "clubs"}[v.State.Public.Suit], p.String(`document.querySelector('#tg-board [data-board="suit"]').textContent`))
		require.Contains(t, p.String(`document.getElementById("tg-board").textContent`), fmt.Sprintf("Draw pile: %d cards", v.State.Public.Stock))
		if v.State.Public.ToMove != v.Seat {
			continue
		}
		// The seat to move: its buttons, its legal moves as cards.
		var labels []string
		p.WaitFor(`document.querySelectorAll("#tg-move-buttons button").length > 0`)
		p.Eval(`Array.from(document.querySelectorAll("#tg-move-buttons button")).map((b) => b.firstChild.textContent)`, &labels)
		var wantLabels []string
		for _, mv := range v.Legal {
			card, _ := mv["card"].(float64)
			suit, _ := mv["suit"].(float64)
			wantLabels = append(wantLabels, eightsLabel(mv["kind"].(string), int(card), int(suit), v.State.Private.Hand))
		}
		require.ElementsMatch(t, wantLabels, labels, "%s's moves as cards", p.name)
		first := labels[0]
		p.Click(`#tg-move-buttons button:nth-child(1)`)
		p.WaitFor(fmt.Sprintf(`Number(document.getElementById("table").dataset.version) > %d`, v.Version), time.Minute)
		said := "drew a card"
		if strings.HasPrefix(first, "Play ") {
			c := v.State.Private.Hand[0]
			for _, l := range v.Legal {
				card, _ := l["card"].(float64)
				suit, _ := l["suit"].(float64)
				if eightsLabel(l["kind"].(string), int(card), int(suit), v.State.Private.Hand) == first {
					c = v.State.Private.Hand[int(card)]
				}
			}
			said = "played " + eightsWords(c)
		}
		p.WaitFor(fmt.Sprintf(`Array.from(document.querySelectorAll("#tg-log li")).some((li) => li.textContent.includes(%q))`, said))
	}
	bob.Eval(`document.getElementById("tg-board").scrollIntoView()`, nil)
	bob.shot("eights-board-390")
	bob.checkScreen("Crazy Eights' board at 390 px")
	alice.shot("eights-board-1280")
}

// eightsWords says card c of the default deck in words, from the same
// rule as eightsName.
func eightsWords(c int) string {
	return []string{"Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight"}[c%8] + " of " + []string{"spades", "hearts", "diamonds", "clubs"}[c/8]
}
