package dungeonclient

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// Update is what the server shows of a game at one moment: its public
// state (the game document), log events (in seq order; they may repeat
// events already delivered, which the client checks are unchanged) and
// the public markers of the open round's reveals.
type Update struct {
	State  *engine.Public
	Events []engine.Event
	Marks  []store.Mark
}

// Watcher delivers a game as the server shows it. Next blocks until the
// game shows something it has not delivered yet (a new state, new events,
// other marks), or ctx ends; it returns every event after seq after (and
// may return earlier ones). A Watcher belongs to one client.
type Watcher interface {
	Next(ctx context.Context, after uint64) (*Update, error)
	Close() error
}

// Poller is the Watcher where no listener is available: it calls getView
// with the last seq the client has, every Every (0: 250 ms) until the
// answer differs from the last it delivered.
type Poller struct {
	F      *client.Functions
	GameID string
	Every  time.Duration

	last *View
}

// Next implements Watcher.
func (p *Poller) Next(ctx context.Context, after uint64) (*Update, error) {
	every := p.Every
	if every <= 0 {
		every = 250 * time.Millisecond
	}
	for first := true; ; first = false {
		if !first {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(every):
			}
		}
		var v View
		var events []engine.Event
		err := p.F.Call(ctx, "getView", map[string]any{"gameId": p.GameID, "afterSeq": after}, &v)
		for err == nil && v.More { // a page at a time
			events = append(events, v.Events...)
			after = v.Events[len(v.Events)-1].Seq
			more := v
			err = p.F.Call(ctx, "getView", map[string]any{"gameId": p.GameID, "afterSeq": after}, &more)
			v.State, v.Events, v.More, v.Reveals = more.State, more.Events, more.More, more.Reveals
		}
		if err != nil {
			if ce, ok := err.(*client.CallError); ok && ce.Retryable() {
				continue
			}
			return nil, fmt.Errorf("client: getView: %w", err)
		}
		events = append(events, v.Events...)
		if len(events) == 0 && p.last != nil && reflect.DeepEqual(p.last.State, v.State) && reflect.DeepEqual(p.last.Reveals, v.Reveals) {
			continue
		}
		p.last = &v
		st := v.State
		return &Update{State: &st, Events: events, Marks: v.Reveals}, nil
	}
}

// Close implements Watcher.
func (p *Poller) Close() error { return nil }
