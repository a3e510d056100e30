package functest

import (
	"context"
	"fmt"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
)

// ActData is the act function's data for an engine action (kind-specific
// fields only where set).
func ActData(gameID string, a engine.Action) map[string]any {
	d := map[string]any{"gameId": gameID, "actionId": a.ID, "kind": a.Kind}
	if a.Version != 0 {
		d["version"] = a.Version
	}
	if a.Target != "" {
		d["target"] = a.Target
	}
	if a.CardID != "" {
		d["cardId"] = a.CardID
	}
	return d
}

// Player is a bot seat with the ID token of its uid.
type Player struct {
	UID, Token string
	Seat       bot.Seat
}

// PlayBots plays a seeded game to its end over HTTP: players[0] creates
// and starts it, everyone joins in order, then each action the game awaits
// is chosen by that player's bot from getView's state. It returns the log
// read back with getView and the number of in-game actions sent.
func PlayBots(ctx context.Context, c *Client, gameID, seed string, players []Player, rules *engine.Ruleset) ([]engine.Event, int, error) {
	owner := players[0].Token
	if err := c.Call(ctx, "createGame", owner, map[string]any{"gameId": gameID, "actionId": "create", "mode": "seeded", "seed": seed}, nil); err != nil {
		return nil, 0, fmt.Errorf("createGame: %w", err)
	}
	for i, p := range players {
		d := map[string]any{"gameId": gameID, "actionId": "join-" + p.UID, "seat": i, "class": p.Seat.Class}
		if err := c.Call(ctx, "joinGame", p.Token, d, nil); err != nil {
			return nil, 0, fmt.Errorf("joinGame %s: %w", p.UID, err)
		}
	}
	if err := c.Call(ctx, "startGame", owner, map[string]any{"gameId": gameID, "actionId": "start"}, nil); err != nil {
		return nil, 0, fmt.Errorf("startGame: %w", err)
	}
	byUID := map[string]Player{}
	for _, p := range players {
		byUID[p.UID] = p
	}
	var log []engine.Event
	n := 0
	for ; ; n++ {
		var v View
		for more := true; more; {
			var after uint64
			if len(log) > 0 {
				after = log[len(log)-1].Seq
			}
			v = View{}
			if err := c.Call(ctx, "getView", owner, map[string]any{"gameId": gameID, "afterSeq": after}, &v); err != nil {
				return nil, n, fmt.Errorf("getView: %w", err)
			}
			log, more = append(log, v.Events...), v.More
		}
		if v.State.Phase != engine.PhasePlaying {
			break
		}
		p, ok := byUID[v.State.Awaiting]
		if !ok {
			return nil, n, fmt.Errorf("the game awaits %q, who is not a player", v.State.Awaiting)
		}
		a := p.Seat.Policy.Choose(&v.State, rules, p.UID)
		a.ID = fmt.Sprintf("a%05d", n)
		a.Version = v.State.Version
		if err := c.Call(ctx, "act", p.Token, ActData(gameID, a), nil); err != nil {
			return nil, n, fmt.Errorf("act %s by %s: %w", a.Kind, p.UID, err)
		}
	}
	return log, n, nil
}
