package functest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// CheckTableExport checks exportGame on the finished table gameID of def:
// each token (its players) gets a game record that decodes strictly
// (match.ReadRecord), replays clean (match.CheckRecord) and is the same
// for every player, with and without the game named; stranger gets
// NOT_FOUND.
func CheckTableExport(ctx context.Context, c *Client, def game.Definition, gameID string, tokens []string, stranger string) error {
	var first string
	for i, tok := range tokens {
		for _, data := range []map[string]any{{"gameId": gameID}, {"game": def.Name(), "gameId": gameID}} {
			var raw json.RawMessage
			if err := c.Call(ctx, "exportGame", tok, data, &raw); err != nil {
				return fmt.Errorf("exportGame by player %d: %w", i, err)
			}
			r, err := match.ReadRecord(raw)
			if err != nil {
				return fmt.Errorf("player %d's export: %w", i, err)
			}
			d, err := match.CheckRecord(def, r)
			if err != nil {
				return fmt.Errorf("player %d's export does not replay: %w", i, err)
			}
			if d != nil {
				return fmt.Errorf("player %d's export diverges: %w", i, d)
			}
			if first == "" {
				first = string(raw)
			} else if string(raw) != first {
				return fmt.Errorf("player %d's export differs from player 0's", i)
			}
		}
	}
	if err := c.Call(ctx, "exportGame", stranger, map[string]any{"gameId": gameID}, nil); Status(err) != "NOT_FOUND" {
		return fmt.Errorf("a stranger's exportGame: %v, want NOT_FOUND", err)
	}
	return nil
}
