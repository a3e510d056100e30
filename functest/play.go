package functest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
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

// Game is a game for [Play] to play: its id and mode, a seeded game's
// seed, a fair game's entropy per seat ("" or missing: none).
type Game struct {
	ID, Mode, Seed string
	Entropy        []string
	// Anonymous sends create, the joins and start without an action id.
	Anonymous bool
	// After, if not nil, is called after every action the game applied,
	// with the function called, the caller and the result as the server
	// sent it; an error stops the game.
	After func(fn string, by Player, result json.RawMessage) error
}

// Play plays g to its end over HTTP: players[0] creates and starts it,
// everyone joins in order (with their entropy), then each action the
// game awaits is chosen by that player's bot from getView's state. It
// returns the log read back with getView and the number of in-game
// actions sent.
func Play(ctx context.Context, c *Client, g Game, players []Player, rules *engine.Ruleset) ([]engine.Event, int, error) {
	call := func(fn string, p Player, data map[string]any) error {
		var raw json.RawMessage
		if err := c.Call(ctx, fn, p.Token, data, &raw); err != nil {
			return err
		}
		if g.After != nil {
			return g.After(fn, p, raw)
		}
		return nil
	}
	setupID := func(data map[string]any, id string) map[string]any {
		if !g.Anonymous {
			data["actionId"] = id
		}
		return data
	}
	create := setupID(map[string]any{"gameId": g.ID, "mode": g.Mode}, "create")
	if g.Seed != "" {
		create["seed"] = g.Seed
	}
	if err := call("createGame", players[0], create); err != nil {
		return nil, 0, fmt.Errorf("createGame: %w", err)
	}
	for i, p := range players {
		d := setupID(map[string]any{"gameId": g.ID, "seat": i, "class": p.Seat.Class}, "join-"+p.UID)
		if i < len(g.Entropy) && g.Entropy[i] != "" {
			d["entropy"] = g.Entropy[i]
		}
		if err := call("joinGame", p, d); err != nil {
			return nil, 0, fmt.Errorf("joinGame %s: %w", p.UID, err)
		}
	}
	if err := call("startGame", players[0], setupID(map[string]any{"gameId": g.ID}, "start")); err != nil {
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
			if err := c.Call(ctx, "getView", players[0].Token, map[string]any{"gameId": g.ID, "afterSeq": after}, &v); err != nil {
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
		if err := call("act", p, ActData(g.ID, a)); err != nil {
			return nil, n, fmt.Errorf("act %s by %s: %w", a.Kind, p.UID, err)
		}
	}
	return log, n, nil
}

// PlayBots plays a seeded game to its end over HTTP ([Play]).
func PlayBots(ctx context.Context, c *Client, gameID, seed string, players []Player, rules *engine.Ruleset) ([]engine.Event, int, error) {
	return Play(ctx, c, Game{ID: gameID, Mode: "seeded", Seed: seed}, players, rules)
}
