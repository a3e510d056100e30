//go:build js && wasm

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// The server's acknowledgements of this page's seat (docs/play.md,
// "Acknowledgements kept"; docs/fairness.md, "Dropped, then blamed, at a
// table"), checked and kept as the Go table client does, with its code
// (table/trustseat: Acked, KeepAck, CheckDropped):
//
//	fairboard.tableAck(json)   {gameId, uid, key, fn, data, result}: the
//	                           success answer result of the function fn
//	                           ("reveal" or "act") to data (the request
//	                           sent) checked under key (the server's
//	                           published key, pinned by the page's
//	                           configuration; "": none pinned, an
//	                           unsigned one is kept) and kept with the
//	                           seat's secrets: {secrets, signed}; refused
//	                           ({ok: false, refused: true, error}) when
//	                           unsigned or signed by another key
//	fairboard.tableBlame(view, key) the view compared with the kept
//	                           acknowledgement: {none: true}, or
//	                           {dropped: true, words, index, reason,
//	                           missing, absent, verified, ack}
//
// The acknowledgement is kept in the seat's secrets (trustseat's Export,
// field "ack"), which the page stores on the device as it stores every
// blob (tablekeep.ts): a reload keeps it.

// ackReq is tableAck's argument.
type ackReq struct {
	GameID string  `json:"gameId"`
	UID    string  `json:"uid"`
	Key    string  `json:"key"`
	Fn     string  `json:"fn"`
	Data   ackData `json:"data"`
	Result struct {
		Version  uint64               `json:"version"`
		Replayed bool                 `json:"replayed"`
		Ack      *trustseat.ServerAck `json:"ack"`
	} `json:"result"`
}

// ackData is the request a reveal or an act sent, as far as the
// acknowledgement reads it: reveal's fields at the top, act's move or
// deal with a move's own reveal.
type ackData struct {
	ActionID   string             `json:"actionId"`
	Version    uint64             `json:"version"`
	Kind       string             `json:"kind"`
	Move       json.RawMessage    `json:"move"`
	Signature  string             `json:"signature"`
	Reveal     *wireReveal        `json:"reveal"`
	Deal       *table.DealMessage `json:"deal"`
	Seat       int                `json:"seat"`
	Index      uint32             `json:"index"`
	Link       string             `json:"link"`
	Digest     string             `json:"digest"`
	Transcript string             `json:"transcript"`
}

type wireReveal struct {
	Seat       int    `json:"seat"`
	Index      uint32 `json:"index"`
	Link       string `json:"link"`
	Digest     string `json:"digest"`
	Transcript string `json:"transcript"`
	Signature  string `json:"signature"`
}

func (r *wireReveal) reveal() *table.Reveal {
	return &table.Reveal{Seat: r.Seat, Index: r.Index, Link: r.Link, Digest: r.Digest, Transcript: r.Transcript, Signature: r.Signature}
}

// sentAction is the table.Action the request d of function fn was, by
// uid (client.Table's trustData read backwards). Errors: a function or
// kind that brings nothing to acknowledge.
func sentAction(uid, fn string, d *ackData) (table.Action, error) {
	a := table.Action{Actor: uid, ActionID: d.ActionID, Version: d.Version}
	switch {
	case fn == "reveal":
		a.Kind = table.KindReveal
		a.Reveal = &table.Reveal{Seat: d.Seat, Index: d.Index, Link: d.Link, Digest: d.Digest, Transcript: d.Transcript, Signature: d.Signature}
	case fn == "act" && d.Kind == "deal":
		a.Kind, a.Deal = table.KindDeal, d.Deal
	case fn == "act" && len(d.Move) > 0 && d.Kind == "":
		a.Kind, a.Move, a.Signature, a.Deal = table.KindMove, d.Move, d.Signature, d.Deal
		if d.Reveal != nil {
			a.Reveal = d.Reveal.reveal()
		}
	default:
		return a, fmt.Errorf("tableAck: %s (kind %q) brings no reveal nor deal message", fn, d.Kind)
	}
	return a, nil
}

func tableAck(text string) (map[string]any, error) {
	var q ackReq
	if err := json.Unmarshal([]byte(text), &q); err != nil {
		return nil, fmt.Errorf("tableAck: %v", err)
	}
	s := tableSeats[q.GameID+"/"+q.UID]
	if s == nil {
		return nil, errors.New("tableAck: this seat's chain and key are not on this device")
	}
	var key []byte
	if q.Key != "" {
		k, err := trustseat.ParseKey(q.Key)
		if err != nil {
			return nil, err
		}
		key = k
	}
	a, err := sentAction(q.UID, q.Fn, &q.Data)
	if err != nil {
		return nil, err
	}
	ack, err := trustseat.Acked(key, q.GameID, a, q.Result.Version, q.Result.Replayed, q.Result.Ack, time.Now())
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(ack)
	if err != nil {
		return nil, err
	}
	if err := s.KeepAck(b); err != nil {
		return nil, err
	}
	return map[string]any{"secrets": string(s.Export()), "signed": ack.Server != nil}, nil
}

// blameView is getView's answer as far as the comparison reads it.
type blameView struct {
	GameID string `json:"gameId"`
	Log    []struct {
		Type    string   `json:"type"`
		Game    bool     `json:"game"`
		Index   int64    `json:"index"`
		Options []string `json:"options"`
	} `json:"log"`
}

func tableBlame(viewText, keyText string) (map[string]any, error) {
	var w blameView
	if err := json.Unmarshal([]byte(viewText), &w); err != nil {
		return nil, fmt.Errorf("tableBlame: %v", err)
	}
	v, err := tableView(viewText)
	if err != nil {
		return nil, err
	}
	s, _, err := seatFor(v, w.GameID)
	if err != nil {
		return nil, err
	}
	kept := s.KeptAck()
	if kept == nil {
		return map[string]any{"none": true}, nil
	}
	ack, err := trustseat.ParseAck(kept)
	if err != nil {
		return nil, err
	}
	e := &trustseat.Ended{GameID: w.GameID, Trustless: v.Trustless}
	for _, seat := range v.Seats {
		e.Seats = append(e.Seats, seat.UID)
	}
	for _, ev := range w.Log {
		if !ev.Game && ev.Type == "Aborted" {
			e.Aborted = append(e.Aborted, trustseat.Aborted{Index: ev.Index, Options: ev.Options})
		}
	}
	d := trustseat.CheckDropped(ack, e)
	if d == nil {
		return map[string]any{"none": true}, nil
	}
	verified := false
	if keyText != "" {
		if k, err := trustseat.ParseKey(keyText); err == nil {
			verified = trustseat.VerifyAck(k, ack)
		}
	}
	missing, absent := make([]any, len(d.Missing)), make([]any, len(d.Absent))
	for i, m := range d.Missing {
		missing[i] = m
	}
	for i, m := range d.Absent {
		absent[i] = m
	}
	return map[string]any{"dropped": true, "words": d.Words(), "index": int(d.Index), "reason": d.Reason,
		"missing": missing, "absent": absent, "verified": verified, "ack": string(kept)}, nil
}

// ackAPI adds tableAck and tableBlame to the page's API.
func ackAPI(api map[string]any) {
	api["tableAck"] = js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) != 1 || a[0].Type() != js.TypeString {
			return answer(errors.New("tableAck takes one JSON string"), nil)
		}
		m, err := tableAck(a[0].String())
		var refused *trustseat.AckRefused
		if errors.As(err, &refused) {
			return answer(err, map[string]any{"refused": true})
		}
		return answer(err, m)
	})
	api["tableBlame"] = js.FuncOf(func(_ js.Value, a []js.Value) any {
		if len(a) != 2 || a[0].Type() != js.TypeString || a[1].Type() != js.TypeString {
			return answer(errors.New("tableBlame takes the view and the key"), nil)
		}
		m, err := tableBlame(a[0].String(), a[1].String())
		return answer(err, m)
	})
}
