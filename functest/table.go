package functest

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// TableView fetches getView of a table game for token.
func TableView(ctx context.Context, c *Client, gameID, token string) (*functions.TableView, error) {
	var v functions.TableView
	if err := c.Call(ctx, "getView", token, map[string]any{"gameId": gameID}, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// TableLobby creates the table gameID of def in seeded mode (seed) with
// one seat per token, tokens[0] its owner; each token joins its seat (its
// index, no options) at the version its getView shows, and the owner
// starts it.
func TableLobby(ctx context.Context, c *Client, def game.Definition, gameID, seed string, tokens []string) error {
	return TableLobbyWith(ctx, c, def, gameID, seed, tokens, nil)
}

// TableLobbyWith is TableLobby with more fields in createGame's data
// (visibility, spectators).
func TableLobbyWith(ctx context.Context, c *Client, def game.Definition, gameID, seed string, tokens []string, more map[string]any) error {
	var r functions.TableResult
	create := map[string]any{"game": def.Name(), "gameId": gameID,
		"actionId": "create", "mode": "seeded", "seed": seed, "seats": len(tokens)}
	for k, v := range more {
		create[k] = v
	}
	if err := c.Call(ctx, "createGame", tokens[0], create, &r); err != nil {
		return fmt.Errorf("createGame: %w", err)
	}
	for i, tok := range tokens {
		v, err := TableView(ctx, c, gameID, tok)
		if err != nil {
			return err
		}
		if err := c.Call(ctx, "joinGame", tok, map[string]any{"gameId": gameID, "actionId": "join",
			"version": v.Version, "seat": i}, &r); err != nil {
			return fmt.Errorf("joinGame %d: %w", i, err)
		}
	}
	return c.Call(ctx, "startGame", tokens[0], map[string]any{"gameId": gameID, "actionId": "start", "version": r.Version}, &r)
}

// PlayTable plays the started table gameID to its end (at most max
// moves) through getView and act: the token of the seat the view awaits
// picks uniformly among its view's legal moves (match's random bot on
// bots) and sends it. It returns the moves and the final view of
// tokens[0].
func PlayTable(ctx context.Context, c *Client, def game.Definition, gameID string, tokens []string, bots *rng.Stream, max int) ([]game.Move, *functions.TableView, error) {
	bot := match.NewRandom(bots)
	var moves []game.Move
	for range max {
		v, err := TableView(ctx, c, gameID, tokens[0])
		if err != nil {
			return nil, nil, err
		}
		if v.Phase == "finished" {
			return moves, v, nil
		}
		tok := tokens[v.ToMove]
		if v, err = TableView(ctx, c, gameID, tok); err != nil {
			return nil, nil, err
		}
		var raw []json.RawMessage
		if err := json.Unmarshal(v.Legal, &raw); err != nil {
			return nil, nil, err
		}
		legal := make([]game.Move, len(raw))
		for i, m := range raw {
			if legal[i], err = game.DecodeMove(def.Kinds(), v.Seat, m); err != nil {
				return nil, nil, fmt.Errorf("legal move %s: %w", m, err)
			}
		}
		if len(legal) == 0 {
			return nil, nil, fmt.Errorf("seat %d awaited without a legal move", v.Seat)
		}
		mv := bot.Choose(nil, v.Seat, legal)
		var r functions.TableResult
		if err := c.Call(ctx, "act", tok, map[string]any{"gameId": gameID, "actionId": fmt.Sprintf("m%d", len(moves)),
			"version": v.Version, "move": json.RawMessage(game.AppendMoveJSON(nil, def.Kinds(), mv))}, &r); err != nil {
			return nil, nil, fmt.Errorf("act %d: %w", len(moves), err)
		}
		moves = append(moves, mv)
	}
	return nil, nil, fmt.Errorf("no end in %d moves", max)
}

// GameEvents returns the game's own events of a table log (JSON of
// tablestore.AppendEventJSON) without their seq and game marker, as
// JSON objects: what game.AppendEventJSON writes of the same events
// without the seq.
func GameEvents(log json.RawMessage) ([]map[string]any, error) {
	var evs []map[string]any
	if err := json.Unmarshal(log, &evs); err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, e := range evs {
		if e["game"] == true {
			delete(e, "seq")
			delete(e, "game")
			out = append(out, e)
		}
	}
	return out, nil
}

// MatchEvents returns the public events of m as GameEvents returns a
// table's: game.AppendEventJSON of each, without its seq.
func MatchEvents(def game.Definition, m *match.Match) ([]map[string]any, error) {
	var out []map[string]any
	for i, e := range m.Events() {
		if e.To != game.All {
			continue
		}
		var o map[string]any
		if err := json.Unmarshal(game.AppendEventJSON(nil, def.EventTypes(), i+1, e), &o); err != nil {
			return nil, err
		}
		delete(o, "seq")
		out = append(out, o)
	}
	return out, nil
}

// EndsAsMatch checks end, the final view of a seeded table of def played
// with moves on seats seats, against match on the same seed and moves (an
// independent path): the public state, the game's log and the outcome. It
// returns the first difference, or nil.
func EndsAsMatch(def game.Definition, seed string, seats int, moves []game.Move, end *functions.TableView) error {
	m, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, seats)})
	if err != nil {
		return err
	}
	for i, mv := range moves {
		if _, err := m.Apply(mv); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	if !m.Over() {
		return fmt.Errorf("match is not over after the table's %d moves", len(moves))
	}
	var want, got any
	if err := json.Unmarshal(m.State().AppendPublic(nil), &want); err != nil {
		return err
	}
	if err := json.Unmarshal(end.State, &got); err != nil {
		return fmt.Errorf("the table's state: %w", err)
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Errorf("public state %s; match gives %s", end.State, m.State().AppendPublic(nil))
	}
	wantEv, err := MatchEvents(def, m)
	if err != nil {
		return err
	}
	gotEv, err := GameEvents(end.Log)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(wantEv, gotEv) {
		return fmt.Errorf("the log has %d game events that differ from match's %d", len(gotEv), len(wantEv))
	}
	o := m.State().Outcome()
	if end.Outcome == nil || end.Outcome.Abandoned || !reflect.DeepEqual(o.Winners, end.Outcome.Winners) || !reflect.DeepEqual(o.Payoffs, end.Outcome.Payoffs) {
		return fmt.Errorf("outcome %+v; match gives winners %v, payoffs %v", end.Outcome, o.Winners, o.Payoffs)
	}
	return nil
}
