package functest

import (
	"context"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
)

// Table is a trustless game played over HTTP by seats whose player.Seat
// signs and reveals (the test's own client, without client's I/O): for
// the functions' tests and benchmarks that need to send exactly one call
// at a time, or a bad one.
type Table struct {
	C       *Client
	ID      string
	Players []Player // their UIDs and tokens; Seat.Class is their class
	Seats   []*player.Seat
	Log     []engine.Event
	State   engine.Public
	Marks   []Mark
}

// Mark is a reveal marker as getView shows it (store.Mark).
type Mark struct {
	UID        string `json:"uid"`
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	At         int64  `json:"at"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
}

// Call calls the function as the seat's player, on the table's game.
func (tb *Table) Call(ctx context.Context, name string, seat int, data map[string]any, res any) error {
	data["gameId"] = tb.ID
	return tb.C.Call(ctx, name, tb.Players[seat].Token, data, res)
}

// NewTable creates the trustless game id (create's extra fields: e.g.
// deadlineMs) by players[0] and seats every player in order, each with a
// fresh chain and key.
func NewTable(ctx context.Context, c *Client, id string, players []Player, rules *engine.Ruleset, create map[string]any) (*Table, error) {
	tb := &Table{C: c, ID: id, Players: players}
	d := map[string]any{"actionId": "create", "mode": "trustless"}
	for k, v := range create {
		d[k] = v
	}
	if err := tb.Call(ctx, "createGame", 0, d, nil); err != nil {
		return nil, fmt.Errorf("createGame: %w", err)
	}
	if err := tb.Sync(ctx); err != nil {
		return nil, err
	}
	for i, p := range players {
		s, err := player.NewSeat(rules, id, p.UID, i, tb.State.Trustless.ChainLength)
		if err != nil {
			return nil, err
		}
		if err := s.Follow(tb.Log); err != nil {
			return nil, err
		}
		tb.Seats = append(tb.Seats, s)
		a, err := s.Join(p.Seat.Class, false, tb.State.Version)
		if err != nil {
			return nil, err
		}
		if err := tb.Call(ctx, "joinGame", i, map[string]any{"actionId": "join", "seat": i, "class": a.Class, "chainHead": a.ChainHead,
			"publicKey": a.PublicKey, "version": a.Version, "signature": a.Signature}, nil); err != nil {
			return nil, fmt.Errorf("joinGame %s: %w", p.UID, err)
		}
		if err := tb.Sync(ctx); err != nil {
			return nil, err
		}
	}
	return tb, nil
}

// Sync reads the game (getView as players[0]) from the last seq read and
// feeds every seat the new events.
func (tb *Table) Sync(ctx context.Context) error {
	for {
		var v struct {
			View
			Reveals []Mark `json:"reveals"`
		}
		if err := tb.Call(ctx, "getView", 0, map[string]any{"afterSeq": len(tb.Log)}, &v); err != nil {
			return fmt.Errorf("getView: %w", err)
		}
		tb.State, tb.Marks = v.State, v.Reveals
		for _, s := range tb.Seats {
			if err := s.Follow(v.Events); err != nil {
				return fmt.Errorf("%s's seat: %w", s.UID(), err)
			}
		}
		tb.Log = append(tb.Log, v.Events...)
		if !v.More {
			return nil
		}
	}
}

// Act has seat i sign a (its actor and the game version set here) and
// send it with action id id: startGame for a start, act for the rest.
func (tb *Table) Act(ctx context.Context, i int, a engine.Action, id string) error {
	a.Actor, a.Version = tb.Players[i].UID, tb.State.Version
	if err := tb.Seats[i].Sign(&a); err != nil {
		return err
	}
	if a.Kind == engine.ActStart {
		return tb.Call(ctx, "startGame", i, map[string]any{"actionId": id, "version": a.Version, "signature": a.Signature}, nil)
	}
	d := ActData(tb.ID, a)
	d["actionId"], d["signature"] = id, a.Signature
	return tb.Call(ctx, "act", i, d, nil)
}

// ActRevealing is Act with the actor's own reveal when a draws (as
// dungeonclient.Client.Act sends it: docs/fairness.md, "An action with its
// reveal"): it reports whether a went with a reveal.
func (tb *Table) ActRevealing(ctx context.Context, i int, a engine.Action, id string) (bool, error) {
	a.Actor, a.Version = tb.Players[i].UID, tb.State.Version
	if err := tb.Seats[i].Sign(&a); err != nil {
		return false, err
	}
	rv, draws, err := tb.Seats[i].ActReveal(&a)
	if err != nil {
		return false, err
	}
	d := ActData(tb.ID, a)
	d["actionId"], d["signature"] = id, a.Signature
	if draws {
		r := RevealData(rv, "")
		delete(r, "actionId")
		d["reveal"] = r
	}
	return draws, tb.Call(ctx, "act", i, d, nil)
}

// RevealData is the reveal function's data for a (without the game).
func RevealData(a engine.Action, id string) map[string]any {
	return map[string]any{"actionId": id, "seat": a.Seat, "index": a.Index, "link": a.Link, "digest": a.Digest,
		"transcript": a.Transcript, "signature": a.Signature}
}

// Reveal is seat i's reveal of the pending index, checked against its
// replica (not sent).
func (tb *Table) Reveal(i int) (engine.Action, error) {
	return tb.Seats[i].Reveal(&tb.State, 0)
}

// SendReveal sends a as seat i's reveal, action id "r<index>".
func (tb *Table) SendReveal(ctx context.Context, i int, a engine.Action) error {
	return tb.Call(ctx, "reveal", i, RevealData(a, fmt.Sprint("r", a.Index)), nil)
}

// Awaited returns the seat the game awaits, or -1.
func (tb *Table) Awaited() int {
	for i, p := range tb.Players {
		if p.UID == tb.State.Awaiting {
			return i
		}
	}
	return -1
}
