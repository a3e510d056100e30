package functest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// PlayDealt creates the trustless table gameID of def, a game that deals
// its private deck by mental poker (Kuhn poker: docs/fairness.md,
// "Dealing without a dealer who sees"), through c for players, and plays
// it to its end with the trustseat bots (passes, keys and reveals through
// act's kind "deal", moves chosen uniformly, bots seeded by gameID);
// check, when not nil, is called before every action and its first error
// ends the play. It exports the game as players[1] and checks the record
// with match.CheckRecord. It returns the record, the last view and the
// table (its Seats hold each seat's cards, opened on its device).
func PlayDealt(ctx context.Context, c *Client, def game.Definition, gameID string, players []Player,
	check func(*TrustTable) error) (*match.Record, *table.View, *TrustTable, error) {
	tt, err := NewTrustTable(ctx, c, def, gameID, players, nil, true)
	if err != nil {
		return nil, nil, nil, err
	}
	bots, err := rng.NewSeeded(gameID + "/bots")
	if err != nil {
		return nil, nil, nil, err
	}
	var checkErr error
	stop := func(*table.View) bool {
		if check != nil && checkErr == nil {
			checkErr = check(tt)
		}
		return checkErr != nil
	}
	end, err := trustseat.Play(tt, tt.Seats, RandomChoice(bots), stop, 400)
	switch {
	case err != nil:
		return nil, nil, tt, err
	case checkErr != nil:
		return nil, end, tt, checkErr
	case end.Outcome == nil:
		return nil, end, tt, fmt.Errorf("the game did not end")
	}
	var raw json.RawMessage
	if err := c.Call(ctx, "exportGame", players[1].Token, map[string]any{"gameId": gameID}, &raw); err != nil {
		return nil, end, tt, fmt.Errorf("exportGame: %w", err)
	}
	rec, err := match.ReadRecord(raw)
	if err != nil {
		return nil, end, tt, err
	}
	if rec.Trustless == nil || rec.Trustless.Deal == nil {
		return nil, end, tt, fmt.Errorf("the record carries no deal")
	}
	if div, err := match.CheckRecord(def, rec); err != nil || div != nil {
		return nil, end, tt, fmt.Errorf("the record does not verify: %v %v", err, div)
	}
	return rec, end, tt, nil
}

// KuhnSettlement is Kuhn's settlement written again (OpenSpiel's rules):
// antes of 1, a 'b' adds a chip for the seat acting, "bp" and "pbp" are
// folds, every other end a showdown of the higher card; the winner wins
// what the loser put in.
func KuhnSettlement(c0, c1 int, hist string) []float64 {
	in := [2]float64{1, 1}
	for i, ch := range hist {
		if ch == 'b' {
			in[i%2]++
		}
	}
	w := 1
	if hist == "bp" || hist != "pbp" && c0 > c1 {
		w = 0
	}
	out := make([]float64, 2)
	out[w], out[1-w] = in[1-w], -in[1-w]
	return out
}

// HiddenUntilShown is the privacy check of a trustless Kuhn or Leduc
// table through getView: before a showdown, no seat's view holds its
// card (nor, then, the other's): each seat's own part is {"card":-1}
// (Kuhn) or {"card":null} (Leduc), and no log holds a Dealt event.
func HiddenUntilShown(ctx context.Context) func(*TrustTable) error {
	return func(tt *TrustTable) error {
		for _, p := range tt.Players {
			v, err := TableView(ctx, tt.C, tt.ID, p.Token)
			if err != nil {
				return err
			}
			s := string(v.State)
			if strings.Contains(s, `"shown"`) || v.Phase != "playing" {
				continue
			}
			if !strings.Contains(s, `"private":{"card":-1}`) && !strings.Contains(s, `"private":{"card":null}`) {
				return fmt.Errorf("%s's view holds its card: %s", p.UID, s)
			}
			if strings.Contains(string(v.Log), `"Dealt"`) {
				return fmt.Errorf("%s's log holds a Dealt event", p.UID)
			}
		}
		return nil
	}
}
