package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// TrustTable is a trustless table reached through its players' own
// Tables, as a table/trustseat.Server (trustseat.Play drives it): each
// action goes through its actor's Table (Send: its acknowledgement
// checked where that Table pins the server's key), each view through the
// reader's Table.
type TrustTable struct {
	Ctx context.Context
	// Def is the table's game, which decodes the legal moves; Do and
	// View give it to each Table without one (Table.Def).
	Def game.Definition
	// Tables are the players' Tables of the one table, by uid; Public is
	// the uid whose view is read for the public one ("").
	Tables map[string]*Table
	Public string
	// Seats are the players' seats, by uid (nil, or a uid missing: none):
	// after each acknowledgement, Do keeps it in its actor's seat
	// (Table.KeepIn), so that the seat's secrets carry it.
	Seats map[string]*trustseat.Seat
}

// Do sends a through its actor's Table, and keeps the acknowledgement
// it brought in the actor's seat (Seats). Errors: an actor without a
// Table, Send's, and KeepIn's.
func (tt *TrustTable) Do(a table.Action) (*table.Result, error) {
	t := tt.Tables[a.Actor]
	if t == nil {
		return nil, fmt.Errorf("client: no Table for %q", a.Actor)
	}
	if t.Def == nil {
		t.Def = tt.Def
	}
	before := t.last
	r, err := t.Send(tt.Ctx, a)
	if err != nil {
		return nil, err
	}
	if s := tt.Seats[a.Actor]; s != nil && t.last != before {
		if err := t.KeepIn(s); err != nil {
			return nil, err
		}
	}
	return &table.Result{ActionID: r.ActionID, Version: r.Version, Replayed: r.Replayed}, nil
}

// View reads uid's view ("": Public's) through its Table, as the
// table.View a trustseat.Seat reads (TrustView): once uid's seat (Seats)
// has checked moves, only the moves after its checkpoint and no log
// (trustview.go).
func (tt *TrustTable) View(uid string) (*table.View, error) {
	if uid == "" {
		uid = tt.Public
	}
	t := tt.Tables[uid]
	if t == nil {
		return nil, fmt.Errorf("client: no Table for %q", uid)
	}
	if t.Def == nil {
		t.Def = tt.Def
	}
	v, err := tt.view(t, uid)
	if err != nil {
		return nil, err
	}
	return v.TrustView(tt.Def)
}

// TrustView is v as the table.View a trustseat.Seat reads: the public
// part, the reader's seat and state, its legal moves decoded by def, the
// outcome and the trustless protocol (the log left out: a seat reads the
// protocol). Errors: a legal move or a protocol that does not decode.
func (v *TableView) TrustView(def game.Definition) (*table.View, error) {
	out := &table.View{Game: v.Game, Mode: rng.Mode(v.Mode), Owner: v.Owner, Phase: table.Phase(v.Phase), Version: v.Version,
		Rules: v.Rules, RulesHash: v.RulesHash, Seat: v.Seat, ToMove: v.ToMove, State: v.State, Private: v.Private}
	for _, s := range v.Seats {
		out.Seats = append(out.Seats, table.SeatInfo{UID: s.UID, Options: s.Options})
	}
	for _, m := range v.Legal {
		mv, err := game.DecodeMove(def.Kinds(), v.Seat, m)
		if err != nil {
			return nil, fmt.Errorf("client: legal move %.200s: %w", m, err)
		}
		out.Legal = append(out.Legal, mv)
	}
	if len(v.Trustless) > 0 && string(v.Trustless) != "null" {
		out.Trustless = &table.TrustlessView{}
		if err := json.Unmarshal(v.Trustless, out.Trustless); err != nil {
			return nil, fmt.Errorf("client: the trustless protocol: %w", err)
		}
	}
	if o := v.Outcome; o != nil {
		out.Outcome = &table.Outcome{Abandoned: o.Abandoned, Winners: o.Winners, Payoffs: o.Payoffs, Reason: o.Reason, Missing: o.Missing}
	}
	return out, nil
}
