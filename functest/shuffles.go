package functest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// PublishedDecks returns the commitments a table's log (getView's, as
// tokens read it) published, in order: each DeckCommitted event's third
// option.
func PublishedDecks(log json.RawMessage) ([]string, error) {
	var evs []struct {
		Type    string   `json:"type"`
		Game    bool     `json:"game"`
		K       int      `json:"k"`
		Options []string `json:"options"`
	}
	if err := json.Unmarshal(log, &evs); err != nil {
		return nil, fmt.Errorf("the log: %w", err)
	}
	var cs []string
	for _, e := range evs {
		if e.Game || e.Type != table.TypeDeckCommitted {
			continue
		}
		if len(e.Options) != 3 || e.K != len(cs) {
			return nil, fmt.Errorf("a DeckCommitted event with k %d and options %q", e.K, e.Options)
		}
		cs = append(cs, e.Options[2])
	}
	return cs, nil
}

// CheckTableShuffles checks getShuffle of the finished table gameID, of
// def, against what its players read: for each token, every shuffle,
// each deck's alone, and with the routing hint, are the record's
// (exportGame) named-deck shuffles (order as committed, salt,
// commitment), their commitments the ones the log published while it
// was played (want of them, at least one, checked by the record too:
// match.CheckPublishedDecks), the record checks clean; an unknown deck
// is INVALID_ARGUMENT naming it, and a stranger gets NOT_FOUND.
func CheckTableShuffles(ctx context.Context, c *Client, def game.Definition, gameID string, tokens []string, stranger string, published []string) error {
	if len(published) == 0 {
		return fmt.Errorf("no commitment was published")
	}
	for i, tok := range tokens {
		var raw json.RawMessage
		if err := c.Call(ctx, "exportGame", tok, map[string]any{"gameId": gameID}, &raw); err != nil {
			return fmt.Errorf("exportGame by player %d: %w", i, err)
		}
		rec, err := match.ReadRecord(raw)
		if err != nil {
			return fmt.Errorf("player %d's export: %w", i, err)
		}
		if d, err := match.CheckRecord(def, rec); d != nil || err != nil {
			return fmt.Errorf("player %d's export: %v %v", i, d, err)
		}
		if err := match.CheckPublishedDecks(rec, published); err != nil {
			return fmt.Errorf("player %d's export: %w", i, err)
		}
		var all functions.TableShuffles
		if err := c.Call(ctx, "getShuffle", tok, map[string]any{"gameId": gameID}, &all); err != nil {
			return fmt.Errorf("getShuffle by player %d: %w", i, err)
		}
		if all.GameID != gameID || all.Game != def.Name() || all.Mode != rec.Mode || all.SaltKeyHex != rec.Decks.SaltKeyHex || len(all.Shuffles) != len(rec.Decks.Shuffles) {
			return fmt.Errorf("player %d's getShuffle %+v is not the record's", i, all)
		}
		var decks []string
		for k, s := range rec.Decks.Shuffles {
			g := all.Shuffles[k]
			if g.K != k || g.DeckID != s.DeckID || g.Tag != s.Tag || !slices.Equal(g.Order, match.DeckCards(s.Order)) ||
				g.SaltHex != s.SaltHex || g.CommitmentHex != published[k] || g.Verifiable != (rec.Mode != "crypto") {
				return fmt.Errorf("player %d's getShuffle, shuffle %d: %+v, not the record's %+v", i, k, g, s)
			}
			if !slices.Contains(decks, s.DeckID) {
				decks = append(decks, s.DeckID)
			}
		}
		for _, d := range decks {
			var one functions.TableShuffles
			if err := c.Call(ctx, "getShuffle", tok, map[string]any{"game": def.Name(), "gameId": gameID, "deckId": d}, &one); err != nil {
				return fmt.Errorf("getShuffle of deck %s by player %d: %w", d, i, err)
			}
			for _, s := range one.Shuffles {
				if s.DeckID != d {
					return fmt.Errorf("getShuffle of deck %s answers deck %s", d, s.DeckID)
				}
			}
			if len(one.Shuffles) == 0 {
				return fmt.Errorf("getShuffle of deck %s answers none", d)
			}
		}
	}
	err := c.Call(ctx, "getShuffle", tokens[0], map[string]any{"gameId": gameID, "deckId": "jokers"}, nil)
	if Status(err) != "INVALID_ARGUMENT" || !strings.Contains(err.Error(), `"jokers"`) {
		return fmt.Errorf("getShuffle of an unknown deck: %v, want INVALID_ARGUMENT naming it", err)
	}
	if err := c.Call(ctx, "getShuffle", stranger, map[string]any{"gameId": gameID}, nil); Status(err) != "NOT_FOUND" {
		return fmt.Errorf("a stranger's getShuffle: %v, want NOT_FOUND", err)
	}
	return nil
}
