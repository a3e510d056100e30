package page

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// Game is the followed game (it implements game.StoredFollower). It keeps
// the game's public state and a digest of every log event it has
// accepted, so each event is checked once, when it arrives. The first
// problem sticks. Not safe for concurrent use.
type Game struct {
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

// New returns a follower of game id, which replays the log in case the
// game is a trustless one; for "" one that follows nothing (State
// refuses every document: "no game followed (reset first)").
func New(id string) *Game {
	if id == "" {
		return &Game{}
	}
	return &Game{id: id, f: player.NewFollower(rules)}
}

// Err returns the first problem found, or nil.
func (g *Game) Err() error { return g.err }

// sticky records the first problem and returns the one in force.
func (g *Game) sticky(err error) error {
	if g.err == nil && err != nil {
		g.err = err
	}
	return g.err
}

// trustless reports whether the followed game is a trustless one.
func (g *Game) trustless() bool {
	return g.f != nil && g.state != nil && g.state.Trustless != nil
}

// caughtUp reports whether the replay of a trustless game has read the
// log up to the game document's seq.
func (g *Game) caughtUp() bool { return g.trustless() && g.f.Seq() == g.state.LogSeq }

// checkTrust compares the game document and the markers with the replay,
// once the replay has read the log up to the document's seq.
func (g *Game) checkTrust() error {
	if !g.caughtUp() {
		return nil
	}
	mine := g.f.Game().Public
	if err := player.CheckShown(mine, *g.state); err != nil {
		return err
	}
	return player.CheckMarks(g.id, &mine, g.marks)
}

// State takes the game document (engine.Public, JSON) as read. It
// returns the problem in force: the one that stuck before, or the
// document's own (which then sticks): not a game, no game followed,
// another game's, another ruleset's, a version or a log seq that went
// back, or a trustless game's document that is not the replay's.
func (g *Game) State(doc []byte) error {
	if g.err != nil {
		return g.err
	}
	return g.sticky(g.setState(doc))
}

func (g *Game) setState(doc []byte) error {
	var p engine.Public
	if err := json.Unmarshal(doc, &p); err != nil {
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

// Events checks and accepts new log events (a JSON list of
// engine.Event), in order: a seq must follow the last accepted (no gap,
// nothing reordered), an event delivered again must be exactly the one
// accepted (a past event that changed is named), and a trustless game's
// replay must accept each. It returns how many were new, how many are
// accepted in all, and the problem in force (a new one sticks); after an
// earlier problem it reads nothing.
func (g *Game) Events(list []byte) (added, checked int, err error) {
	if g.err != nil {
		return 0, len(g.digests), g.err
	}
	n, err := g.addEvents(list)
	return n, len(g.digests), g.sticky(err)
}

func (g *Game) addEvents(list []byte) (int, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(list, &raw); err != nil {
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

// Legal returns the actions uid may send now (engine.LegalActions of
// engine.AllKinds &^ engine.ProtocolKinds: the page holds no chain, key
// or contribution, so it never offers a reveal, an open, an abort or a
// removeSeat), as a JSON list: "[]" for none, before a game document,
// or after a problem.
func (g *Game) Legal(uid string) []byte {
	if g.state == nil || g.err != nil {
		return []byte("[]")
	}
	g.buf = engine.LegalActions(g.state, rules, uid, engine.AllKinds&^engine.ProtocolKinds, g.buf)
	if len(g.buf) == 0 {
		return []byte("[]")
	}
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(g.buf); err != nil {
		return []byte("[]")
	}
	return b.Bytes()
}

// Marks takes the open round's reveal markers (a JSON list of
// store.Mark) as read and checks them with the game document against the
// replay (player.CheckMarks), once it has caught up. It returns the
// problem in force: not markers, or a marker that is not its seat's
// signature over the pending action (a new one sticks).
func (g *Game) Marks(list []byte) error {
	if g.err != nil {
		return g.err
	}
	var ms []store.Mark
	if err := json.Unmarshal(list, &ms); err != nil {
		return g.sticky(fmt.Errorf("the reveal markers are not markers: %v", err))
	}
	g.marks = ms
	return g.sticky(g.checkTrust())
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
