package export

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng/fair"
)

// checkShuffles: in every mode, the k-th DeckShuffled of the log is the
// export's k-th shuffle, its commitment opens with the salt and the order,
// and the order holds the deck's own cards (a deck's first shuffle: exactly
// the ruleset's initial deck). In seeded and fair modes every salt is also
// the one the revealed seed derives.
func (v *verifier) checkShuffles() error {
	shuffles := v.x.Fairness.Shuffles
	k := 0
	first := map[string]bool{}
	for i := range v.events {
		e := &v.events[i]
		if e.Type != engine.EvDeckShuffled {
			continue
		}
		field := fmt.Sprintf("fairness.shuffles[%d]", k)
		if k >= len(shuffles) {
			return diverge(-1, e.Seq, "fairness.shuffles", "a shuffle for DeckShuffled seq "+strconv.FormatUint(e.Seq, 10), "none", "the log has more shuffles than the export")
		}
		s := &shuffles[k]
		if s.DeckID != e.DeckID || s.Tag != e.Tag || len(s.Order) != e.Size {
			return diverge(-1, e.Seq, field, fmt.Sprintf("deck %s, tag %s, %d cards", e.DeckID, e.Tag, e.Size),
				fmt.Sprintf("deck %s, tag %s, %d cards", s.DeckID, s.Tag, len(s.Order)), "")
		}
		if v.x.Mode != "crypto" {
			if want := fair.DeckSalt(&v.saltKey, uint32(k)); want != s.SaltHex {
				return diverge(-1, e.Seq, field+".saltHex", engine.Hash32(want).String(), s.SaltHex.String(), "the salt is not the one the seed derives")
			}
		}
		d := deckIndex(e.DeckID)
		if d < 0 {
			return diverge(-1, e.Seq, "DeckShuffled.deckId", "a deck id", e.DeckID, "")
		}
		seen := make(map[string]bool, len(s.Order))
		for i, id := range s.Order {
			if c := v.rules.Card(id); c == nil || c.Deck != d || seen[id] {
				return diverge(-1, e.Seq, fmt.Sprintf("%s.order[%d]", field, i), "a card of "+e.DeckID+" not yet in the order", strconv.Quote(id), "")
			}
			seen[id] = true
		}
		if !first[e.DeckID] {
			first[e.DeckID] = true
			if init := v.rules.InitialDeck(d); len(init) != len(s.Order) {
				return diverge(-1, e.Seq, field+".order", strconv.Itoa(len(init))+" cards (the whole deck)", strconv.Itoa(len(s.Order)), "")
			}
		}
		commit := fair.DeckCommitment((*[32]byte)(&s.SaltHex), s.DeckID, s.Order)
		if engine.Hash32(commit) != e.Commitment {
			return diverge(-1, e.Seq, field, "an order and salt that open commitment "+e.Commitment.String(),
				"commitment "+engine.Hash32(commit).String(), "the revealed order or salt is not what DeckShuffled committed to")
		}
		k++
	}
	if k != len(shuffles) {
		return diverge(-1, 0, "fairness.shuffles", strconv.Itoa(k)+" shuffles (as many as DeckShuffled events)", strconv.Itoa(len(shuffles)), "")
	}
	v.rep.Shuffles = k
	return nil
}

// checkDraws: the cards drawn from each deck (CardDrawn, EnemySpawned), in
// log order, are that deck's committed orders one after the other. A deck is
// reshuffled only once its pile is empty, so its draws are a prefix of the
// concatenation of its orders, whatever the order of the events around a
// reshuffle.
func (v *verifier) checkDraws() error {
	var queue [engine.NumDecks][]string // the committed cards of each deck, in draw order
	var drawn [engine.NumDecks]int
	k := 0
	for i := range v.events {
		e := &v.events[i]
		var id string
		switch e.Type {
		case engine.EvDeckShuffled:
			if d := deckIndex(e.DeckID); d >= 0 && k < len(v.x.Fairness.Shuffles) {
				queue[d] = append(queue[d], v.x.Fairness.Shuffles[k].Order...)
			}
			k++
			continue
		case engine.EvCardDrawn, engine.EvEnemySpawned:
			id = e.CardID
		default:
			continue
		}
		c := v.rules.Card(id)
		if c == nil {
			return diverge(-1, e.Seq, e.Type.String()+".cardId", "a card of the ruleset", strconv.Quote(id), "")
		}
		d := c.Deck
		if e.Type == engine.EvCardDrawn && e.DeckID != engine.DeckIDs[d] {
			return diverge(-1, e.Seq, "CardDrawn.deckId", engine.DeckIDs[d], e.DeckID, "")
		}
		n := drawn[d]
		if n >= len(queue[d]) {
			return diverge(-1, e.Seq, e.Type.String()+".cardId", "no card (deck "+engine.DeckIDs[d]+" has no committed card left)", id, "")
		}
		if queue[d][n] != id {
			return diverge(-1, e.Seq, e.Type.String()+".cardId", queue[d][n], id,
				"the card drawn is not the next card of the committed order of "+engine.DeckIDs[d])
		}
		drawn[d]++
		v.rep.CardDraws++
	}
	return nil
}

// deckIndex returns the index of a deck id in engine.DeckIDs, or -1.
func deckIndex(id string) int {
	for i, d := range engine.DeckIDs {
		if d == id {
			return i
		}
	}
	return -1
}
