//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	gamedef "github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/web/verify/judge"
)

// A trustless table's seat in this page (docs/play.md, "Trustless
// tables"): the Go seat client (table/trustseat) draws the chain and the
// key here, in the page's memory, signs the join and the moves, and
// reveals only after it has checked the table's protocol as getView shows
// it. The page's script sees the chain's secret and the private key only
// inside the opaque blob it keeps (secrets, below):
//
//	fairboard.tableJoin(json)      {game, gameId, uid, seat, chainLength,
//	                               version, secrets?}: the seat (drawn once
//	                               per game, uid and seat, or made again
//	                               from secrets, the blob kept on the
//	                               device), and its join's chainHead,
//	                               publicKey and signature, and secrets
//	fairboard.tableSeat(view, secrets) the page's seat of the view's table
//	                               made again from secrets (a reload, or
//	                               another tab's newer blob); nothing when
//	                               the page's seat already holds them
//	fairboard.tableMove(view, mv)  the signed move mv (its JSON) against
//	                               getView's answer view, with the seat's
//	                               own reveal when it draws, and secrets
//	fairboard.tableReveal(view)    the seat's reveal of the view's pending
//	                               round, or {none: true}, and secrets
//	fairboard.tableDeal(view)      the seat's mental-poker deal action at a
//	                               dealing table (Kuhn), or {none: true}
//	fairboard.tableCards(gameId, uid) the seat's own cards, opened here
//	fairboard.tableChecked(gameId, uid) {checked}: the moves the seat has
//	                               checked, getView's checkedMoves
//	                               (tablekeep.go)
//	fairboard.tableVerify(record, gameId, uid) the finished table's record
//	                               judged as the verifier page does, and
//	                               whether it holds this seat's head and key
//
// secrets is trustseat's Export: the chain's secret, the key's seed, the
// seed of the deal's keys, the last index revealed and, at a Pig table,
// the seat's checkpoint (where its check of the table stands), which the page
// keeps in IndexedDB (tablekeep.ts) and never reads or sends; the page
// stores each answer's secrets before it sends the action (tablekeep.go).

// tableSeats are this page's seats, by "gameId/uid".
var tableSeats = map[string]*trustseat.Seat{}

// wireView is getView's answer (functions.TableView) as far as the seat
// reads it.
type wireView struct {
	Game      string               `json:"game"`
	GameID    string               `json:"gameId"`
	Mode      string               `json:"mode"`
	Owner     string               `json:"owner"`
	Phase     string               `json:"phase"`
	Version   uint64               `json:"version"`
	Seats     []wireSeat           `json:"seats"`
	Rules     json.RawMessage      `json:"rules"`
	RulesHash string               `json:"rulesHash"`
	Seat      int                  `json:"seat"`
	ToMove    int                  `json:"toMove"`
	State     json.RawMessage      `json:"state"`
	Trustless *table.TrustlessView `json:"trustless"`
}

type wireSeat struct {
	UID     string   `json:"uid"`
	Options []string `json:"options"`
}

// tableView reads getView's answer as the table.View the seat checks.
func tableView(text string) (*table.View, error) {
	var w wireView
	if err := json.Unmarshal([]byte(text), &w); err != nil {
		return nil, fmt.Errorf("the table's view is not a view: %v", err)
	}
	if w.Trustless == nil {
		return nil, errors.New("the table's view shows no trustless protocol")
	}
	v := &table.View{Game: w.Game, Mode: rng.Mode(w.Mode), Owner: w.Owner, Phase: table.Phase(w.Phase), Version: w.Version,
		Rules: w.Rules, RulesHash: w.RulesHash, Seat: w.Seat, ToMove: w.ToMove, State: w.State, Trustless: w.Trustless}
	for _, s := range w.Seats {
		v.Seats = append(v.Seats, table.SeatInfo{UID: s.UID, Options: s.Options})
	}
	return v, nil
}

// joinReq is tableJoin's argument.
type joinReq struct {
	Game        string `json:"game"`
	GameID      string `json:"gameId"`
	UID         string `json:"uid"`
	Seat        int    `json:"seat"`
	ChainLength uint32 `json:"chainLength"`
	Version     uint64 `json:"version"`
	Secrets     string `json:"secrets"`
}

func tableJoin(text string) (map[string]any, error) {
	var q joinReq
	if err := json.Unmarshal([]byte(text), &q); err != nil {
		return nil, fmt.Errorf("tableJoin: %v", err)
	}
	def, err := registry.Lookup(q.Game)
	if err != nil {
		return nil, err
	}
	if len(def.Seats().Options) > 0 {
		return nil, fmt.Errorf("tableJoin: %s's seats pick options; a trustless seat on this page does not yet", q.Game)
	}
	key := q.GameID + "/" + q.UID
	s := tableSeats[key]
	if q.Secrets != "" && (s == nil || !s.Holds([]byte(q.Secrets))) {
		// The seat kept on the device, if it is this seat's (a join
		// drawn for another seat is drawn again).
		if kept, err := trustseat.Restore(def, q.GameID, q.UID, q.Seat, []byte(q.Secrets)); err == nil {
			s = kept
		}
	}
	if s == nil || s.Index() != q.Seat {
		if s, err = trustseat.New(def, q.GameID, q.UID, q.Seat, q.ChainLength); err != nil {
			return nil, err
		}
	}
	tableSeats[key] = s
	a := s.Join("", q.Version, nil, nil)
	return map[string]any{"chainHead": a.ChainHead, "publicKey": a.PublicKey, "signature": a.Signature, "secrets": string(s.Export())}, nil
}

// seatFor is the page's seat at the view's table, for uid.
func seatFor(v *table.View, gameID string) (*trustseat.Seat, gamedef.Definition, error) {
	if v.Seat < 0 || v.Seat >= len(v.Seats) {
		return nil, nil, errors.New("this page holds no seat of the table")
	}
	s := tableSeats[gameID+"/"+v.Seats[v.Seat].UID]
	if s == nil {
		return nil, nil, errors.New("this seat's chain and key are not on this device (joined in another browser)")
	}
	def, err := registry.Lookup(v.Game)
	return s, def, err
}

func revealJSON(r *table.Reveal) map[string]any {
	return map[string]any{"seat": r.Seat, "index": int(r.Index), "link": r.Link, "digest": r.Digest, "transcript": r.Transcript, "signature": r.Signature}
}

func tableMove(viewText, moveText string) (map[string]any, error) {
	var w struct {
		GameID string `json:"gameId"`
	}
	_ = json.Unmarshal([]byte(viewText), &w)
	v, err := tableView(viewText)
	if err != nil {
		return nil, err
	}
	s, def, err := seatFor(v, w.GameID)
	if err != nil {
		return nil, err
	}
	mv, err := gamedef.DecodeMove(def.Kinds(), s.Index(), []byte(moveText))
	if err != nil {
		return nil, fmt.Errorf("the move: %v", err)
	}
	a, err := s.Move("", v, mv)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"move": string(a.Move), "signature": a.Signature, "secrets": string(s.Export())}
	if a.Reveal != nil {
		out["reveal"] = revealJSON(a.Reveal)
	}
	return out, nil
}

func tableReveal(viewText string) (map[string]any, error) {
	var w struct {
		GameID string `json:"gameId"`
	}
	_ = json.Unmarshal([]byte(viewText), &w)
	v, err := tableView(viewText)
	if err != nil {
		return nil, err
	}
	p := v.Trustless.Pending
	if v.Phase != table.PhasePlaying || p == nil {
		return map[string]any{"none": true}, nil
	}
	// The markers first (tablemarks.go): a seat reveals nothing at a
	// table whose view lies about the others' reveals.
	if err := trustseat.CheckMarks(v.Trustless); err != nil {
		return nil, err
	}
	s, _, err := seatFor(v, w.GameID)
	if err != nil {
		return nil, err
	}
	for _, r := range p.Reveals {
		if r.Seat == s.Index() {
			return map[string]any{"none": true}, nil
		}
	}
	a, err := s.Reveal("", v)
	if err != nil {
		return nil, err
	}
	out := revealJSON(a.Reveal)
	out["secrets"] = string(s.Export())
	return out, nil
}

// tableAPI is the functions above, each answering {ok, error, ...}.
func tableAPI(api map[string]any) {
	wrap := func(f func(args []js.Value) (map[string]any, error)) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) any {
			for _, a := range args {
				if a.Type() != js.TypeString {
					return answer(errors.New("the table seat's functions take JSON strings"), nil)
				}
			}
			m, err := f(args)
			return answer(err, m)
		})
	}
	api["tableJoin"] = wrap(func(a []js.Value) (map[string]any, error) {
		if len(a) != 1 {
			return nil, errors.New("tableJoin takes one argument")
		}
		return tableJoin(a[0].String())
	})
	api["tableSeat"] = wrap(func(a []js.Value) (map[string]any, error) {
		if len(a) != 2 {
			return nil, errors.New("tableSeat takes the view and the secrets")
		}
		return tableSeat(a[0].String(), a[1].String())
	})
	for _, f := range testAPI {
		f(api)
	}
	api["tableMove"] = wrap(func(a []js.Value) (map[string]any, error) {
		if len(a) != 2 {
			return nil, errors.New("tableMove takes the view and the move")
		}
		return tableMove(a[0].String(), a[1].String())
	})
	api["tableVerify"] = js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) != 3 {
			return answer(errors.New("tableVerify takes the record, the game id and the uid"), nil)
		}
		return js.ValueOf(tableVerify(a[0].String(), a[1].String(), a[2].String()))
	})
	api["tableDeal"] = wrap(func(a []js.Value) (map[string]any, error) {
		if len(a) != 1 {
			return nil, errors.New("tableDeal takes the view")
		}
		return tableDeal(a[0].String())
	})
	api["tableCards"] = wrap(func(a []js.Value) (map[string]any, error) {
		if len(a) != 2 {
			return nil, errors.New("tableCards takes the game id and the uid")
		}
		return tableCards(a[0].String(), a[1].String())
	})
	api["tableReveal"] = wrap(func(a []js.Value) (map[string]any, error) {
		if len(a) != 1 {
			return nil, errors.New("tableReveal takes the view")
		}
		return tableReveal(a[0].String())
	})
}

// tableDeal answers the seat's deal action at a dealing table (Kuhn,
// Leduc: docs/fairness.md, "Dealing without a dealer who sees"): its
// mental-poker pass, keys or reveal, made by trustseat after it has
// checked the table's protocol and the deal so far, as the JSON of
// table.DealMessage; {none: true} when the deal waits for another seat
// or for a move. Its own cards are opened here, on this device.
func tableDeal(viewText string) (map[string]any, error) {
	var w struct {
		GameID string `json:"gameId"`
	}
	_ = json.Unmarshal([]byte(viewText), &w)
	v, err := tableView(viewText)
	if err != nil {
		return nil, err
	}
	if v.Trustless.Deal == nil || v.Phase != table.PhasePlaying {
		return map[string]any{"none": true}, nil
	}
	s, _, err := seatFor(v, w.GameID)
	if err != nil {
		return nil, err
	}
	a, err := s.DealTo("", v)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return map[string]any{"none": true}, nil
	}
	b, err := json.Marshal(a.Deal)
	if err != nil {
		return nil, err
	}
	return map[string]any{"deal": string(b)}, nil
}

// tableCards answers the seat's own cards opened on this device, by
// position in the deck ({"0": 2}), as JSON.
func tableCards(gameID, uid string) (map[string]any, error) {
	s := tableSeats[gameID+"/"+uid]
	if s == nil {
		return map[string]any{"cards": "{}"}, nil
	}
	b, err := json.Marshal(s.Cards())
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		b = []byte("{}")
	}
	return map[string]any{"cards": string(b)}, nil
}

// tableVerify judges a finished table's record (exportGame's answer) as
// the verifier page does (web/verify/judge: match.CheckRecord replays it,
// every signature, link and round of a trustless one), and, for a seat
// of this page, that the record's chain head and key at its seat are the
// ones this page joined with: {status, code, message, mine} (mine: "yes",
// "no", or "" when this page holds no seat of the game).
func tableVerify(recordText, gameID, uid string) map[string]any {
	out := judge.File([]byte(recordText)).Map()
	out["mine"] = ""
	s := tableSeats[gameID+"/"+uid]
	if s == nil {
		return out
	}
	r, err := match.ReadRecord([]byte(recordText))
	if err != nil || r.Trustless == nil || s.Index() >= len(r.Trustless.Seats) {
		out["mine"] = "no"
		return out
	}
	j := s.Join("", 0, nil, nil)
	rs := r.Trustless.Seats[s.Index()]
	if rs.UID == uid && rs.ChainHead == j.ChainHead && rs.PublicKey == j.PublicKey {
		out["mine"] = "yes"
	} else {
		out["mine"] = "no"
	}
	return out
}
