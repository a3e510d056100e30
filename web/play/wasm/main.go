//go:build js && wasm

// Command wasm is the engine's part of the play page, compiled to
// WebAssembly (static/play.wasm): the rules exist once, in Go, and the
// page asks them through the global object `fairboard` it defines:
//
//	fairboard.rules()           the board (36 tiles: index, kind, zone tier),
//	                            the cards' names and kinds, the classes and
//	                            the ruleset's hash, as JSON
//	fairboard.help(name?)       how to play: the game's own help
//	                            (game.Helper: sections of named items), as JSON;
//	                            the dungeon's without a name
//	fairboard.games()           the registered games, the dungeon first: name,
//	                            seats (min, max, default, options), move kinds
//	                            (args, doc) and event types (fields), as JSON
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
// and, for a trustless game (docs/play.md, "Trustless games"):
//
//	fairboard.marks(json)       the open round's reveal markers as read
//	fairboard.seat(json)        take this player's seat: its chain's secret,
//	                            N, seat, public key and what it revealed last;
//	                            answers the chain's head
//	fairboard.signBytes(json)   the bytes this seat signs for its action
//	                            (hex; rng/trustless.ActionMessage)
//	fairboard.reveal()          the reveal the checked game waits for from
//	                            this seat (link, digest, transcript) and the
//	                            bytes its signature covers, or nothing
//	fairboard.actReveal(json)   the reveal to send with this seat's signed
//	                            action, if the action draws (and the bytes
//	                            its signature covers), or nothing
//	fairboard.seedSign(seed, msg) an Ed25519 signature by the key of a
//	                            32-byte seed (hex), for a browser whose
//	                            WebCrypto has no Ed25519
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
// A trustless game is also replayed as the CLI's client replays it
// (package player: player.Follower, player.CheckShown,
// player.CheckMarks), each event once as it arrives: every signature,
// link, R_v and draw; the game document must be the replay's once the log
// has caught up with it, and every reveal marker of the open round its
// seat's signature over the pending action. A reveal is made by
// player.Seat.PrepareReveal from the replay alone, and only the bytes to
// sign leave for the page's WebCrypto key.
//
// Every answer is a JSON string or {ok, error} object; it does no I/O.
// Build it with go generate ./web/play.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/export"
	"github.com/fairboard/fairboard/player"
	"github.com/fairboard/fairboard/store"
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

// seatSecrets is what the page keeps of its seat (in IndexedDB) and gives
// back after a reload: player.Secrets without the key's seed (the
// private key stays in WebCrypto), with the seat's public key.
type seatSecrets struct {
	player.Secrets
	PublicKey engine.Hash32 `json:"publicKey"`
}

// takeSeat makes this player's seat from its secrets, following the game
// with the replay read so far; it returns the chain's head.
func (g *game) takeSeat(text string) (string, error) {
	var s seatSecrets
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return "", fmt.Errorf("the seat's secrets: %v", err)
	}
	if g.f == nil || s.GameID != g.id {
		return "", fmt.Errorf("the seat is in game %q; this page follows %q, a trustless game: %v", s.GameID, g.id, g.f != nil)
	}
	seat, err := player.ExternalSeat(s.Secrets, s.PublicKey, g.f)
	if err != nil {
		return "", err
	}
	g.seat = seat
	return seat.Head().String(), nil
}

// actReveal answers the reveal to send with this seat's signed action
// (its JSON): {ok, action, message, index, digest} when the action draws
// (player.Seat.PrepareActReveal: the index and digest are recorded in the
// seat), {ok, none: true} when it draws nothing, {ok: false, error} when
// it cannot be made (not sticky: the page's own request).
func (g *game) actReveal(text string) js.Value {
	if g.err != nil {
		return answer(g.err, nil)
	}
	if g.seat == nil || !g.trustless() || g.f.Seq() != g.state.LogSeq {
		return answer(errors.New("actReveal needs this seat's checked trustless game, its log caught up"), nil)
	}
	var a engine.Action
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		return answer(fmt.Errorf("not an action: %v", err), nil)
	}
	rv, msg, draws, err := g.seat.PrepareActReveal(&a)
	switch {
	case err != nil:
		return answer(err, nil)
	case !draws:
		return answer(nil, map[string]any{"none": true})
	}
	b, _ := json.Marshal(rv)
	return answer(nil, map[string]any{"action": string(b), "message": hex.EncodeToString(msg), "index": int(rv.Index), "digest": rv.Digest})
}

// reveal answers the reveal the checked game waits for from this seat:
// {ok, action, message, index, digest} (the action without its
// signature, message the bytes to sign, hex), {ok, none: true} when it
// waits for none, or {ok: false, error} when the server shows what the
// log does not make (sticky).
func (g *game) reveal() js.Value {
	switch {
	case g.err != nil:
		return answer(g.err, nil)
	case g.seat == nil || !g.trustless() || g.f.Seq() != g.state.LogSeq || g.state.Phase == engine.PhaseFinished:
		return answer(nil, map[string]any{"none": true})
	}
	a, msg, err := g.seat.PrepareReveal(g.state, 0)
	if errors.Is(err, player.ErrNothingToReveal) {
		return answer(nil, map[string]any{"none": true})
	}
	if err != nil {
		return answer(g.sticky(err), nil)
	}
	b, _ := json.Marshal(a)
	return answer(nil, map[string]any{"action": string(b), "message": hex.EncodeToString(msg), "index": int(a.Index), "digest": a.Digest})
}

func main() {
	describeJSON, _ := json.Marshal(describe())
	api := map[string]any{
		"rules": js.FuncOf(func(js.Value, []js.Value) any { return string(describeJSON) }),
		"help": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) > 0 && args[0].Type() == js.TypeString {
				return helpJSON(args[0].String())
			}
			return helpJSON("dungeon")
		}),
		"games": js.FuncOf(func(js.Value, []js.Value) any { return gamesJSON() }),
		"reset": js.FuncOf(func(_ js.Value, args []js.Value) any {
			id, ok := str(args)
			if !ok || id == "" {
				return answer(errors.New("reset takes the game id"), nil)
			}
			cur = game{id: id, f: player.NewFollower(rules)}
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
		"marks": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("marks takes a JSON list of markers"), nil)
			}
			if cur.err != nil {
				return answer(cur.err, nil)
			}
			var ms []store.Mark
			if err := json.Unmarshal([]byte(text), &ms); err != nil {
				return answer(cur.sticky(fmt.Errorf("the reveal markers are not markers: %v", err)), nil)
			}
			cur.marks = ms
			return answer(cur.sticky(cur.checkTrust()), nil)
		}),
		"seat": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("seat takes the seat's secrets as JSON"), nil)
			}
			head, err := cur.takeSeat(text)
			if err != nil {
				return answer(err, nil)
			}
			return answer(nil, map[string]any{"head": head})
		}),
		"signBytes": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok || cur.seat == nil {
				return answer(errors.New("signBytes takes an action as JSON, once the seat is taken"), nil)
			}
			var a engine.Action
			if err := json.Unmarshal([]byte(text), &a); err != nil {
				return answer(fmt.Errorf("not an action: %v", err), nil)
			}
			msg, err := cur.seat.SignMessage(&a)
			if err != nil {
				return answer(err, nil)
			}
			return answer(nil, map[string]any{"message": hex.EncodeToString(msg)})
		}),
		"reveal": js.FuncOf(func(js.Value, []js.Value) any {
			return cur.reveal()
		}),
		"actReveal": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("actReveal takes a signed action as JSON"), nil)
			}
			return cur.actReveal(text)
		}),
		"seedSign": js.FuncOf(func(_ js.Value, args []js.Value) any {
			if len(args) != 2 {
				return answer(errors.New("seedSign takes a seed and a message, hex"), nil)
			}
			seed, err1 := hex.DecodeString(args[0].String())
			msg, err2 := hex.DecodeString(args[1].String())
			if err1 != nil || err2 != nil || len(seed) != ed25519.SeedSize {
				return answer(errors.New("seedSign takes a 32-byte seed and a message, hex"), nil)
			}
			key := ed25519.NewKeyFromSeed(seed)
			return answer(nil, map[string]any{"signature": hex.EncodeToString(ed25519.Sign(key, msg)),
				"publicKey": hex.EncodeToString(key.Public().(ed25519.PublicKey))})
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
	tableAPI(api)
	js.Global().Set("fairboard", js.ValueOf(api))
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("fairboard-ready"))
	select {} // keep the functions alive for the page's lifetime
}
