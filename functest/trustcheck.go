package functest

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table/trustseat"
)

// CheckTrustlessRecord checks a trustless table's record two ways: with
// match.CheckRecord (every signature, link and round, then the replay),
// and against an independent replay that shares nothing with the
// machinery's trustless code: each round's randomness computed here from
// docs/fairness.md's definitions (the table action's canonical bytes,
// its digest, R_v, by SHA-256 over the bytes assembled by hand) over the
// record's links, each move applied by the game's own rules with
// rng.NewTrustless's stream of it, the log compared line for line and
// the winners against winners. It returns the first problem, or nil.
func CheckTrustlessRecord(def game.Definition, rec *match.Record, winners []int) error {
	if div, err := match.CheckRecord(def, rec); err != nil || div != nil {
		return fmt.Errorf("the record does not verify: %v %v", err, div)
	}
	p := rec.Trustless
	rules, err := def.DecodeRuleset(rec.Rules)
	if err != nil {
		return err
	}
	st, ev, err := def.Setup(rules, make([]game.Seat, rec.Seats), nil, nil)
	if err != nil {
		return err
	}
	field := func(b []byte) []byte { return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...) }
	for i, s := range rec.Moves {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			return err
		}
		var seat int
		if err := json.Unmarshal(m["seat"], &seat); err != nil {
			return err
		}
		delete(m, "seat")
		rest, _ := json.Marshal(m)
		mv, err := game.DecodeMove(def.Kinds(), seat, rest)
		if err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
		pm := p.Moves[i]
		var rnd game.Rand = game.FromStream(rng.NewRefusing(rng.ModeTrustless))
		if pm.Index > 0 {
			canon := field([]byte("fairboard/table-action/v1"))
			canon = append(canon, field([]byte("move"))...)
			canon = append(canon, field([]byte(p.Seats[seat].UID))...)
			canon = binary.BigEndian.AppendUint64(canon, pm.Version)
			canon = append(canon, field([]byte(s))...)
			canon = append(canon, field(nil)...)
			canon = append(canon, field(nil)...)
			digest := sha256.Sum256(slices.Concat(field([]byte("fairboard/action-digest/v1")), field([]byte(p.GameID)), field(canon)))
			in := slices.Concat(field([]byte("fairboard/trustless/v1")), field([]byte(p.GameID)))
			in = binary.BigEndian.AppendUint32(in, pm.Index)
			in = append(in, field(digest[:])...)
			for _, r := range pm.Reveals {
				l, err := hex.DecodeString(r.Link)
				if err != nil {
					return err
				}
				in = append(in, l...)
			}
			rnd = game.FromStream(rng.NewTrustless(sha256.Sum256(in)))
		}
		if ev, err = st.Apply(mv, rnd, ev); err != nil {
			return fmt.Errorf("the independent replay refuses move %d: %w", i+1, err)
		}
	}
	if len(ev) != len(rec.Log) {
		return fmt.Errorf("the independent replay gives %d events, the record %d", len(ev), len(rec.Log))
	}
	for i, e := range ev {
		var want, got any
		if err := json.Unmarshal(game.AppendEventJSON(nil, def.EventTypes(), i+1, e), &want); err != nil {
			return err
		}
		if err := json.Unmarshal(rec.Log[i], &got); err != nil {
			return err
		}
		if fmt.Sprint(want) != fmt.Sprint(got) {
			return fmt.Errorf("event %d: the independent replay gives %v, the record %v", i+1, want, got)
		}
	}
	if o := st.Outcome(); winners != nil && !slices.Equal(o.Winners, winners) {
		return fmt.Errorf("the independent replay's winners are %v, the table's %v", o.Winners, winners)
	}
	return nil
}

// PlayTrustless creates the trustless table gameID of def through c for
// players (create's extra fields: e.g. rules), plays it to its end with the trustseat bots choosing
// uniformly (bots seeded by gameID), exports it as players[1] and checks
// the record with CheckTrustlessRecord. It returns the record.
func PlayTrustless(ctx context.Context, c *Client, def game.Definition, gameID string, players []Player, create map[string]any) (*match.Record, error) {
	tt, err := NewTrustTable(ctx, c, def, gameID, players, create, true)
	if err != nil {
		return nil, err
	}
	bots, err := rng.NewSeeded(gameID + "/bots")
	if err != nil {
		return nil, err
	}
	end, err := trustseat.Play(tt, tt.Seats, RandomChoice(bots), nil, 20000)
	if err != nil {
		return nil, err
	}
	if end.Outcome == nil || end.Outcome.Abandoned {
		return nil, fmt.Errorf("the game ended as %+v", end.Outcome)
	}
	var raw json.RawMessage
	if err := c.Call(ctx, "exportGame", players[1].Token, map[string]any{"gameId": gameID}, &raw); err != nil {
		return nil, fmt.Errorf("exportGame: %w", err)
	}
	rec, err := match.ReadRecord(raw)
	if err != nil {
		return nil, err
	}
	if rec.Mode != rng.ModeTrustless {
		return nil, fmt.Errorf("a %s record", rec.Mode)
	}
	return rec, CheckTrustlessRecord(def, rec, end.Outcome.Winners)
}
