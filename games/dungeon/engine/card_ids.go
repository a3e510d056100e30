package engine

import (
	"strings"
	"unsafe"
)

// cardIDs finds a card by where its id's bytes lie. compileDecks copies
// every card id into one string (ids) and makes the ids of the cards and of
// the initial decks views of it; a game's decks, hands and discard piles are
// built from the initial decks, so the id a reducer or a bot looks up is,
// in a game played from its start, one of those views. [Ruleset.Card] then
// finds the card from the id's offset in ids, with no hashing; an id that
// came from anywhere else (a game decoded from JSON, a client's action)
// takes the map.
//
// The offset is only compared, never turned back into a pointer: the
// garbage collector does not move heap objects, and ids, held here, keeps
// the bytes alive while the ruleset is.
type cardIDs struct {
	ids  string  // every card id, in cards order, end to end
	base uintptr // the address of ids' first byte
	at   []int32 // at[o] is the index of the card whose id starts at offset o of ids, or -1
}

// intern makes the ids of the compiled cards and decks views of one string.
func (c *compiled) intern() {
	var b strings.Builder
	for i := range c.cards {
		b.WriteString(c.cards[i].ID)
	}
	c.ids.ids = b.String()
	c.ids.base = uintptr(unsafe.Pointer(unsafe.StringData(c.ids.ids)))
	c.ids.at = make([]int32, len(c.ids.ids))
	for o := range c.ids.at {
		c.ids.at[o] = -1
	}
	o := 0
	for i := range c.cards {
		n := len(c.cards[i].ID)
		c.cards[i].ID = c.ids.ids[o : o+n]
		c.ids.at[o] = int32(i)
		o += n
	}
	for d := range c.decks {
		for j, id := range c.decks[d] {
			c.decks[d][j] = c.cards[c.index[id]].ID
		}
	}
}

// find returns the index of the card whose id is id by identity (a view of
// ids at a card's offset, of its length), or -1 for any other string.
func (c *cardIDs) find(id string, cards []Card) int32 {
	if o := uintptr(unsafe.Pointer(unsafe.StringData(id))) - c.base; o < uintptr(len(c.at)) {
		if i := c.at[o]; i >= 0 && len(cards[i].ID) == len(id) {
			return i
		}
	}
	return -1
}
