//go:build js && wasm

package main

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// game is the followed game.
type game struct {
	id      string
	state   *engine.Public
	digests [][32]byte // digests[seq-1]: the accepted event with that seq
	err     error      // the first problem found
	buf     []engine.Action

	// A trustless game's replay: f follows the log from its first event
	// (nil once the game is known not to be trustless), marks are the
	// open round's markers as last read, seat is this player's seat once
	// the page gave its secrets.
	f     *player.Follower
	marks []store.Mark
	seat  *player.Seat
}

// trustless reports whether the followed game is a trustless one.
func (g *game) trustless() bool {
	return g.f != nil && g.state != nil && g.state.Trustless != nil
}

// checkTrust compares the game document and the markers with the replay,
// once the replay has read the log up to the document's seq.
func (g *game) checkTrust() error {
	if !g.trustless() || g.f.Seq() != g.state.LogSeq {
		return nil
	}
	mine := g.f.Game().Public
	if err := player.CheckShown(mine, *g.state); err != nil {
		return err
	}
	return player.CheckMarks(g.id, &mine, g.marks)
}

// setState takes the game document as read.
func (g *game) setState(text string) error {
	var p engine.Public
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		return fmt.Errorf("the game document is not a game: %v", err)
	}
	switch {
	case g.id == "":
		return errors.New("no game followed (reset first)")
	case p.GameID != g.id:
		return fmt.Errorf("the server sent game %q for game %q", p.GameID, g.id)
	case p.RulesHash != rules.Hash():
		return fmt.Errorf("the game is played under ruleset %s, this page knows %s (%s): reload the page", short(p.RulesHash), short(rules.Hash()), rules.Name)
	}
	if old := g.state; old != nil {
		if p.Version < old.Version {
			return fmt.Errorf("the game went back from version %d to %d", old.Version, p.Version)
		}
		if p.LogSeq < old.LogSeq {
			return fmt.Errorf("the log went back from event %d to %d", old.LogSeq, p.LogSeq)
		}
	}
	g.state = &p
	if p.Trustless == nil && p.RNG.Mode != "trustless" {
		g.f, g.seat = nil, nil // not a trustless game: nothing to replay
	}
	return g.checkTrust()
}

// addEvents checks and accepts new log events, in order; it returns how
// many were new.
func (g *game) addEvents(text string) (int, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return 0, fmt.Errorf("the log is not a list of events: %v", err)
	}
	n := 0
	for _, r := range raw {
		var e engine.Event
		if err := json.Unmarshal(r, &e); err != nil {
			return n, fmt.Errorf("a log event is not an event: %v", err)
		}
		canon, _ := e.MarshalJSON()
		d := sha256.Sum256(canon)
		switch next := uint64(len(g.digests)) + 1; {
		case e.Seq == 0:
			return n, errors.New("a log event has no seq")
		case e.Seq < next:
			if g.digests[e.Seq-1] != d {
				return n, fmt.Errorf("log event %d (%s) changed after it was shown", e.Seq, e.Type)
			}
		case e.Seq > next:
			return n, fmt.Errorf("the log skips from event %d to %d", next-1, e.Seq)
		default:
			g.digests = append(g.digests, d)
			n++
			if g.f != nil {
				if err := g.f.Follow([]engine.Event{e}); err != nil {
					return n, err
				}
			}
		}
	}
	return n, g.checkTrust()
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// sticky records the first problem and returns the one in force.
func (g *game) sticky(err error) error {
	if g.err == nil && err != nil {
		g.err = err
	}
	return g.err
}
