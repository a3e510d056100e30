package functest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// TrustTable is a trustless table game reached through the functions, as
// a trustseat.Server: its bots (trustseat.Seat, one per player) sign and
// reveal, and every action goes through joinGame, startGame, act and
// reveal, every view through getView (docs/functions.md, "Table games").
type TrustTable struct {
	C       *Client
	Ctx     context.Context
	Def     game.Definition
	ID      string
	Players []Player // UID and Token; Players[0] owns the table
	Seats   []*trustseat.Seat
	// Answered, when not nil, is shown each success answer with its
	// action (the server's acknowledgement included); its error ends Do.
	Answered func(a table.Action, r *functions.TableResult) error
	// Checkpoint, when set, makes View ask for the moves after those the
	// viewer's seat has checked (getView's checkedMoves; the public view:
	// Players[0]'s seat) and no log, once it has checked some, as
	// client.TrustTable does; Tails counts the views so answered whose
	// protocol starts after the first move.
	Checkpoint bool
	Tails      int
}

func (tt *TrustTable) token(uid string) string {
	for _, p := range tt.Players {
		if p.UID == uid {
			return p.Token
		}
	}
	return tt.Players[0].Token // the public view: the owner's (a view without a seat's part is not asked for)
}

// Do sends a through the function of its kind: join (joinGame), start
// (startGame), move, abort and deal (act), reveal (reveal).
func (tt *TrustTable) Do(a table.Action) (*table.Result, error) {
	d := map[string]any{"game": tt.Def.Name(), "gameId": tt.ID, "actionId": a.ActionID}
	name := "act"
	switch a.Kind {
	case table.KindJoin:
		name = "joinGame"
		d["version"], d["seat"], d["chainHead"], d["publicKey"], d["signature"] = a.Version, a.Seat, a.ChainHead, a.PublicKey, a.Signature
	case table.KindStart:
		name = "startGame"
		d["version"] = a.Version
	case table.KindMove:
		d["version"], d["move"], d["signature"] = a.Version, json.RawMessage(a.Move), a.Signature
		if a.Deal != nil {
			d["deal"] = a.Deal // the seat's deal keys, riding with its first move
		}
		if r := a.Reveal; r != nil {
			d["reveal"] = map[string]any{"seat": r.Seat, "index": r.Index, "link": r.Link, "digest": r.Digest,
				"transcript": r.Transcript, "signature": r.Signature}
		}
	case table.KindAbort:
		d["kind"], d["version"] = "abort", 0
	case table.KindDeal:
		d["kind"], d["version"], d["deal"] = "deal", 0, a.Deal
	case table.KindReveal:
		name = "reveal"
		r := a.Reveal
		d["seat"], d["index"], d["link"], d["digest"], d["transcript"], d["signature"] = r.Seat, r.Index, r.Link, r.Digest, r.Transcript, r.Signature
	default:
		return nil, fmt.Errorf("functest: no function for %s", a.Kind)
	}
	var r functions.TableResult
	if err := tt.C.Call(tt.Ctx, name, tt.token(a.Actor), d, &r); err != nil {
		return nil, err
	}
	if tt.Answered != nil {
		if err := tt.Answered(a, &r); err != nil {
			return nil, err
		}
	}
	return &table.Result{ActionID: r.ActionID, Version: r.Version, Replayed: r.Replayed}, nil
}

// View returns getView for uid as the table.View a trustseat.Seat reads
// (its log left out: the bots read the protocol and the legal moves).
func (tt *TrustTable) View(uid string) (*table.View, error) {
	v, err := tt.view(uid)
	if err != nil {
		return nil, err
	}
	out := &table.View{Game: v.Game, Mode: rng.Mode(v.Mode), Owner: v.Owner, Phase: table.Phase(v.Phase), Version: v.Version,
		Rules: v.Rules, RulesHash: v.RulesHash, Seat: v.Seat, ToMove: v.ToMove, State: v.State, Trustless: v.Trustless}
	for _, s := range v.Seats {
		out.Seats = append(out.Seats, table.SeatInfo{UID: s.UID, Options: s.Options})
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(v.Legal, &raw); err != nil {
		return nil, err
	}
	for _, m := range raw {
		mv, err := game.DecodeMove(tt.Def.Kinds(), v.Seat, m)
		if err != nil {
			return nil, fmt.Errorf("legal move %s: %w", m, err)
		}
		out.Legal = append(out.Legal, mv)
	}
	if o := v.Outcome; o != nil {
		out.Outcome = &table.Outcome{Abandoned: o.Abandoned, Winners: o.Winners, Payoffs: o.Payoffs, Reason: o.Reason, Missing: o.Missing}
	}
	return out, nil
}

// view is getView for uid, after its seat's checkpoint with Checkpoint.
func (tt *TrustTable) view(uid string) (*functions.TableView, error) {
	checked := 0
	for i, s := range tt.Seats {
		if tt.Checkpoint && (s.UID() == uid || uid == "" && i == 0) {
			checked = s.Checked()
		}
	}
	if checked == 0 {
		return TableView(tt.Ctx, tt.C, tt.ID, tt.token(uid))
	}
	var v functions.TableView
	d := map[string]any{"gameId": tt.ID, "afterSeq": uint64(math.MaxUint64), "checkedMoves": checked}
	if err := tt.C.Call(tt.Ctx, "getView", tt.token(uid), d, &v); err != nil {
		return nil, err
	}
	if v.Trustless != nil && v.Trustless.MovesBase > 0 {
		tt.Tails++
	}
	return &v, nil
}

// NewTrustTable creates the trustless table id of def through createGame
// (create's extra fields: e.g. chainLength, deadlineMs), owned by
// players[0], and seats every player in order through joinGame with a
// fresh chain and key; with start, the owner starts it.
func NewTrustTable(ctx context.Context, c *Client, def game.Definition, id string, players []Player, create map[string]any, start bool) (*TrustTable, error) {
	tt := &TrustTable{C: c, Ctx: ctx, Def: def, ID: id, Players: players}
	d := map[string]any{"game": def.Name(), "gameId": id, "actionId": "create", "mode": "trustless", "seats": len(players)}
	for k, v := range create {
		d[k] = v
	}
	if err := c.Call(ctx, "createGame", players[0].Token, d, nil); err != nil {
		return nil, fmt.Errorf("createGame: %w", err)
	}
	for i, p := range players {
		v, err := tt.View(p.UID)
		if err != nil {
			return nil, err
		}
		s, err := trustseat.New(def, id, p.UID, i, v.Trustless.ChainLength)
		if err != nil {
			return nil, err
		}
		tt.Seats = append(tt.Seats, s)
		if _, err := tt.Do(s.Join("join", v.Version, nil, nil)); err != nil {
			return nil, fmt.Errorf("joinGame %s: %w", p.UID, err)
		}
	}
	if !start {
		return tt, nil
	}
	v, err := tt.View(players[0].UID)
	if err != nil {
		return nil, err
	}
	if _, err := tt.Do(table.Action{Actor: players[0].UID, ActionID: "start", Version: v.Version, Kind: table.KindStart}); err != nil {
		return nil, fmt.Errorf("startGame: %w", err)
	}
	return tt, nil
}

// RandomChoice is a trustseat.Choose: match's random bot on bots,
// uniform among the view's legal moves.
func RandomChoice(bots *rng.Stream) trustseat.Choose {
	bot := match.NewRandom(bots)
	return func(v *table.View) game.Move { return bot.Choose(nil, v.Seat, v.Legal) }
}
