//go:build js && wasm

// Command wasm is the engine's part of the play page, compiled to
// WebAssembly (static/play.wasm): the rules exist once, in Go, and the
// page asks them through the global object `fairboard` it defines:
//
//	fairboard.rules()           the board (36 tiles: index, kind, zone tier),
//	                            the cards' names and kinds, the classes and
//	                            the ruleset's hash, as JSON
//	fairboard.reset(gameId)     forget the game followed so far
//	fairboard.state(json)       the game document (engine.Public) as read
//	fairboard.events(json)      new log events, in order
//	fairboard.legal(uid)        the actions uid may send now (engine.LegalActions
//	                            of engine.AllKinds &^ engine.ProtocolKinds: the
//	                            page holds no chain, key or contribution, so it
//	                            never offers a reveal, an open, an abort or a
//	                            removeSeat)
//	fairboard.check()           the first problem found, or ""
//	fairboard.verify(text)      the export verifier (export.Verify)
//
// It is stateful: it keeps the game's public state and a digest of every
// log event it has accepted, so each event is checked once, when it
// arrives: its seq must follow the last one's (no gap, nothing
// reordered), an event delivered again must be exactly the one accepted
// (a past event that changed is named), the game document must belong to
// the game followed, under this ruleset, with a version and a log that
// never go back. The first problem sticks: the page shows it and offers no
// action after it.
//
// Every answer is a JSON string or {ok, error} object; it does no I/O.
// Build it with go generate ./web/play.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/export"
)

// game is the followed game.
type game struct {
	id      string
	state   *engine.Public
	digests [][32]byte // digests[seq-1]: the accepted event with that seq
	err     error      // the first problem found
	buf     []engine.Action
}

var (
	rules = engine.DefaultRules()
	cur   game
)

// board is what the page draws, computed from the ruleset.
type board struct {
	Name       string         `json:"name"`
	RulesHash  string         `json:"rulesHash"`
	MinPlayers int            `json:"minPlayers"`
	MaxPlayers int            `json:"maxPlayers"`
	MaxHP      int            `json:"maxHp"`
	Classes    []engine.Class `json:"classes"`
	Tiles      []tile         `json:"tiles"`
	Cards      []card         `json:"cards"`
}

type tile struct {
	Index int             `json:"index"`
	Kind  engine.TileKind `json:"kind"`
	Tier  int             `json:"tier"`
}

type card struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Tier int    `json:"tier"`
}

func describe() board {
	b := board{Name: rules.Name, RulesHash: rules.Hash(), MinPlayers: rules.MinPlayers, MaxPlayers: rules.MaxPlayers,
		MaxHP: rules.MaxHP, Classes: engine.Classes}
	for i := 0; i < rules.Board.Length; i++ {
		b.Tiles = append(b.Tiles, tile{Index: i, Kind: rules.Tile(i), Tier: rules.Tier(i)})
	}
	for _, c := range rules.Cards() {
		b.Cards = append(b.Cards, card{ID: c.ID, Name: c.Name, Kind: fmt.Sprint(c.Kind), Tier: c.Tier})
	}
	return b
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
	return nil
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
		}
	}
	return n, nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// answer is {ok, error, ...}.
func answer(err error, extra map[string]any) js.Value {
	m := map[string]any{"ok": err == nil}
	if err != nil {
		m["error"] = err.Error()
	}
	for k, v := range extra {
		m[k] = v
	}
	return js.ValueOf(m)
}

// sticky records the first problem and returns the one in force.
func (g *game) sticky(err error) error {
	if g.err == nil && err != nil {
		g.err = err
	}
	return g.err
}

// str returns args[0] as a string, or ok false.
func str(args []js.Value) (string, bool) {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return "", false
	}
	return args[0].String(), true
}

func main() {
	describeJSON, _ := json.Marshal(describe())
	api := map[string]any{
		"rules": js.FuncOf(func(js.Value, []js.Value) any { return string(describeJSON) }),
		"reset": js.FuncOf(func(_ js.Value, args []js.Value) any {
			id, ok := str(args)
			if !ok || id == "" {
				return answer(errors.New("reset takes the game id"), nil)
			}
			cur = game{id: id}
			return answer(nil, nil)
		}),
		"state": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("state takes the game document as JSON"), nil)
			}
			if cur.err != nil {
				return answer(cur.err, nil)
			}
			return answer(cur.sticky(cur.setState(text)), nil)
		}),
		"events": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("events takes a JSON list of events"), nil)
			}
			if cur.err != nil {
				return answer(cur.err, map[string]any{"added": 0})
			}
			n, err := cur.addEvents(text)
			return answer(cur.sticky(err), map[string]any{"added": n, "checked": len(cur.digests)})
		}),
		"legal": js.FuncOf(func(_ js.Value, args []js.Value) any {
			uid, ok := str(args)
			if !ok || cur.state == nil || cur.err != nil {
				return "[]"
			}
			cur.buf = engine.LegalActions(cur.state, rules, uid, engine.AllKinds&^engine.ProtocolKinds, cur.buf)
			if len(cur.buf) == 0 {
				return "[]"
			}
			var b bytes.Buffer
			if err := json.NewEncoder(&b).Encode(cur.buf); err != nil {
				return "[]"
			}
			return b.String()
		}),
		"check": js.FuncOf(func(js.Value, []js.Value) any {
			if cur.err != nil {
				return cur.err.Error()
			}
			return ""
		}),
		"verify": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return js.ValueOf(map[string]any{"status": "invalid", "code": 2, "message": "verify takes the export's text"})
			}
			return js.ValueOf(export.Judge([]byte(text)).Map())
		}),
	}
	js.Global().Set("fairboard", js.ValueOf(api))
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("fairboard-ready"))
	select {} // keep the functions alive for the page's lifetime
}
