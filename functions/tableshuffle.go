package functions

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// TableShuffles is getShuffle's answer for a table game (docs/fairness.md,
// "Shuffle audit API"): the finished table's named-deck shuffles, from
// its game record (match.RecordDecks), with the salt key that makes
// every salt.
type TableShuffles struct {
	GameID string   `json:"gameId"`
	Game   string   `json:"game"`
	Mode   rng.Mode `json:"mode"`
	// SaltKeyHex is the table's salt key ("" for a table that committed
	// to no shuffle).
	SaltKeyHex string         `json:"saltKeyHex,omitempty"`
	Shuffles   []TableShuffle `json:"shuffles"`
}

// TableShuffle is one shuffle of a named deck: its deck id, tag and k
// (its index among the table's named-deck shuffles, from 0), the order
// it made as its cards are committed (each card's value in decimal,
// index 0 first), its salt and the commitment the table's DeckCommitted
// event published when it shuffled. Verifiable is true in seeded and
// fair modes, whose orders the record's replay recomputes (gamectl
// verify); a crypto table's order is checked against its commitment and
// the cards its game dealt.
type TableShuffle struct {
	DeckID        string   `json:"deckId"`
	Tag           rng.Tag  `json:"tag"`
	K             int      `json:"k"`
	Order         []string `json:"deck_order"`
	SaltHex       string   `json:"saltHex"`
	CommitmentHex string   `json:"commitmentHex"`
	Verifiable    bool     `json:"verifiable"`
}

// shuffleTable is getShuffle's table path: the shuffles of the deck
// deckId ("" for every deck) of a finished table, from its record, for a
// seated player or its owner, and for a spectator of a table open to
// spectators (as exportTable). Refusals: the record's (NOT_FOUND for
// anyone else, not_finished before the end), and a deck id the game
// did not shuffle (INVALID_ARGUMENT invalid_deckId, naming the decks it
// did).
func (a *API) shuffleTable(ctx context.Context, uid, _ string, data json.RawMessage) (any, error) {
	var q ShuffleRequest
	if err := decodeData(data, &q); err != nil {
		return nil, err
	}
	rec, err := a.tableRecord(ctx, uid, q.GameID)
	if err != nil {
		return nil, err
	}
	out := &TableShuffles{GameID: q.GameID, Game: rec.Game, Mode: rec.Mode, Shuffles: []TableShuffle{}}
	var decks []string
	if d := rec.Decks; d != nil {
		out.SaltKeyHex = d.SaltKeyHex
		for _, s := range d.Shuffles {
			if !slices.Contains(decks, s.DeckID) {
				decks = append(decks, s.DeckID)
			}
			if q.DeckID != "" && s.DeckID != q.DeckID {
				continue
			}
			out.Shuffles = append(out.Shuffles, TableShuffle{DeckID: s.DeckID, Tag: s.Tag, K: s.K, Order: match.DeckCards(s.Order),
				SaltHex: s.SaltHex, CommitmentHex: s.CommitmentHex, Verifiable: rec.Mode != rng.ModeCrypto})
		}
	}
	if q.DeckID != "" && !slices.Contains(decks, q.DeckID) {
		return nil, fieldErr("deckId", fmt.Sprintf("%q is not a deck this game shuffled (its decks: %s)", q.DeckID, strings.Join(decks, ", ")))
	}
	return out, nil
}
