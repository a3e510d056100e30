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
//	fairboard.verify(text)      the export verifier (judge.Export: the registry's dungeon checks it)
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
// The stored games' functions (rules, reset, state, events, legal, marks,
// seat, signBytes, reveal, actReveal, check) are the reference game's,
// reached through the registry and its definition alone
// (game.StoredGames, stored.go): the follower it returns
// (games/dungeon/server/page) does the work on plain values and JSON,
// and this package only wraps it for JavaScript.
//
// The follower is stateful: it keeps the game's public state and a
// digest of every log event it has accepted, so each event is checked
// once, when it arrives: its seq must follow the last one's (no gap,
// nothing reordered), an event delivered again must be exactly the one
// accepted (a past event that changed is named), the game document must
// belong to the game followed, under this ruleset, with a version and a
// log that never go back. The first problem sticks: the page shows it
// and offers no action after it.
//
// A trustless game is also replayed, by the follower, as the CLI's
// client replays it (the dungeon's package player: player.Follower,
// player.CheckShown, player.CheckMarks), each event once as it arrives:
// every signature, link, R_v and draw; the game document must be the
// replay's once the log has caught up with it, and every reveal marker
// of the open round its seat's signature over the pending action. A
// reveal is made by player.Seat.PrepareReveal from the replay alone, and
// only the bytes to sign leave for the page's WebCrypto key.
// (All of it is games/dungeon/server/page's; here is only the glue.)
//
// Every answer is a JSON string or {ok, error} object; it does no I/O.
// Build it with go generate ./web/play.
package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"syscall/js"

	"github.com/fairboard/fairboard/web/verify/judge"
)

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

// str returns args[0] as a string, or ok false.
func str(args []js.Value) (string, bool) {
	if len(args) != 1 || args[0].Type() != js.TypeString {
		return "", false
	}
	return args[0].String(), true
}

func main() {
	describeJSON := stored.StoredBoard()
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
			cur = stored.FollowStored(id)
			return answer(nil, nil)
		}),
		"state": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("state takes the game document as JSON"), nil)
			}
			return answer(cur.State([]byte(text)), nil)
		}),
		"events": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("events takes a JSON list of events"), nil)
			}
			if err := cur.Err(); err != nil {
				return answer(err, map[string]any{"added": 0})
			}
			n, checked, err := cur.Events([]byte(text))
			return answer(err, map[string]any{"added": n, "checked": checked})
		}),
		"legal": js.FuncOf(func(_ js.Value, args []js.Value) any {
			uid, ok := str(args)
			if !ok {
				return "[]"
			}
			return string(cur.Legal(uid))
		}),
		"marks": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("marks takes a JSON list of markers"), nil)
			}
			return answer(cur.Marks([]byte(text)), nil)
		}),
		"seat": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("seat takes the seat's secrets as JSON"), nil)
			}
			head, err := cur.TakeSeat([]byte(text))
			if err != nil {
				return answer(err, nil)
			}
			return answer(nil, map[string]any{"head": head})
		}),
		"signBytes": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("signBytes takes an action as JSON, once the seat is taken"), nil)
			}
			msg, err := cur.SignBytes([]byte(text))
			if err != nil {
				return answer(err, nil)
			}
			return answer(nil, map[string]any{"message": hex.EncodeToString(msg)})
		}),
		"reveal": js.FuncOf(func(js.Value, []js.Value) any {
			return revealAnswer(cur.Reveal())
		}),
		"actReveal": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return answer(errors.New("actReveal takes a signed action as JSON"), nil)
			}
			return revealAnswer(cur.ActReveal([]byte(text)))
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
			if err := cur.Err(); err != nil {
				return err.Error()
			}
			return ""
		}),
		"verify": js.FuncOf(func(_ js.Value, args []js.Value) any {
			text, ok := str(args)
			if !ok {
				return js.ValueOf(map[string]any{"status": "invalid", "code": 2, "message": "verify takes the export's text"})
			}
			return js.ValueOf(judge.Export([]byte(text)).Map())
		}),
	}
	tableAPI(api)
	ackAPI(api)
	marksAPI(api)
	checkedAPI(api)
	js.Global().Set("fairboard", js.ValueOf(api))
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("fairboard-ready"))
	select {} // keep the functions alive for the page's lifetime
}
