package fstables_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore/fstables"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// The ring of an audited table on Firestore is the draws of a match of
// its own on the same seed and moves (storetest.CheckAudit), on a
// store that seals every 4 events too; audit off keeps none.
func TestFirestoreAuditRing(t *testing.T) {
	s := newStore(t)
	storetest.CheckAudit(t, s, pig.Def, "fs-audit", 2)
	storetest.CheckAudit(t, fstables.NewChunked(emu.Client(t), registry.Lookup, 4), pig.Def, "fs-audit-chunked", 2)
}

// The ring keeps the newest entry of each slot: 520 entries written in
// two commits leave the last 500 (seqs 21 to 520), in seq order.
func TestFirestoreAuditRingWraps(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	_, err := s.Create(ctx, "fs-wrap", "pig", table.CreateRequest{Actor: "o", ActionID: "c", Mode: rng.ModeCrypto, Audit: true})
	require.NoError(t, err)
	var want []audit.Entry
	batch := func(from, to uint64) *table.Head {
		h := &table.Head{}
		for seq := from; seq <= to; seq++ {
			e := audit.Entry{TS: int64(seq), Entry: rng.Entry{Seq: seq, Tag: pig.TagRoll, Kind: rng.KindDice, Data: rng.Data{Sides: 6, Value: int64(seq%6 + 1)}}}
			b, err := e.MarshalJSON()
			require.NoError(t, err)
			h.Audit = append(h.Audit, table.AuditEntry{Slot: audit.Slot(seq), Seq: seq, JSON: b})
			want = append(want, e)
		}
		return h
	}
	require.NoError(t, s.WriteAuditOf(ctx, "fs-wrap", batch(1, 300)))
	require.NoError(t, s.WriteAuditOf(ctx, "fs-wrap", batch(301, 520)))
	ring, err := s.Audit(ctx, "fs-wrap")
	require.NoError(t, err)
	require.Len(t, ring, audit.RingSize)
	require.Equal(t, want[20:], ring)
}

// An action's commit holds the table and its ring together: after a
// roll the public document, the head and the ring have the same update
// time (the commit's). Positive control: after a hold, which draws
// nothing, the ring keeps its older time while the head takes the new
// one.
func TestFirestoreAuditInTheActionsCommit(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	g := "fs-audit-commit"
	storetest.PlayAudited(t, s, pig.Def, g, "fs-audit-commit", 2, true, 0)
	fc := emu.Client(t)
	refs := []*firestore.DocumentRef{fc.Doc("games/" + g), fc.Doc("games/" + g + "/private/table"), fc.Doc("games/" + g + "/private/audit")}
	do := func(id, kind string) {
		pub, _, err := s.View(ctx, g, "")
		require.NoError(t, err)
		_, err = s.Do(ctx, g, table.Action{Actor: pub.Seats[pub.ToMove].UID, ActionID: id, Version: pub.Version, Kind: table.KindMove,
			Move: []byte(`{"kind":"` + kind + `"}`), At: storetest.AuditAt + 1})
		require.NoError(t, err)
	}
	times := func() [3]int64 {
		snaps, err := fc.GetAll(ctx, refs)
		require.NoError(t, err)
		var out [3]int64
		for i, sn := range snaps {
			require.True(t, sn.Exists(), refs[i].Path)
			out[i] = sn.UpdateTime.UnixNano()
		}
		return out
	}
	do("r1", "roll")
	at := times()
	require.Equal(t, at[0], at[1])
	require.Equal(t, at[1], at[2], "the ring is written by the roll's commit")
	ring, err := s.Audit(ctx, g)
	require.NoError(t, err)
	require.Len(t, ring, 1)
	do("h1", "hold")
	at2 := times()
	require.Equal(t, at2[0], at2[1])
	require.Greater(t, at2[1], at[1])
	require.Equal(t, at[2], at2[2], "positive control: a hold draws nothing and leaves the ring as it was")
}

// No client reads the ring: under firestore.rules neither a seated
// player nor the owner nor an outsider gets games/{id}/private/audit,
// and the public document and every getView (the store's View) hold no
// entry. Positive controls: the seated player reads the public
// document; under rules opened at private/ the same read gets the ring
// with its entries (a copy under the real rules refuses it).
func TestFirestoreAuditRingReadByNoClient(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	tok, uid := map[string]string{}, map[string]string{}
	for _, who := range []string{"s0", "s1", "outsider"} {
		u, tk, err := emu.Auth().SignInAnonymously(ctx)
		require.NoError(t, err)
		uid[who], tok[who] = u, tk
	}
	g := "fs-audit-hidden"
	_, err := s.Create(ctx, g, "pig", table.CreateRequest{Actor: uid["s0"], ActionID: "c", Mode: rng.ModeSeeded, Seed: g, Audit: true})
	require.NoError(t, err)
	v := uint64(1)
	for i, who := range []string{"s0", "s1"} {
		res, err := s.Do(ctx, g, table.Action{Actor: uid[who], ActionID: "j", Version: v, Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
		v = res.Version
	}
	res, err := s.Do(ctx, g, table.Action{Actor: uid["s0"], ActionID: "s", Version: v, Kind: table.KindStart})
	require.NoError(t, err)
	v = res.Version
	for i := range 6 {
		pub, _, err := s.View(ctx, g, "")
		require.NoError(t, err)
		_, err = s.Do(ctx, g, table.Action{Actor: pub.Seats[pub.ToMove].UID, ActionID: fmt.Sprintf("m%d", i), Version: pub.Version,
			Kind: table.KindMove, Move: []byte(`{"kind":"roll"}`), At: storetest.AuditAt})
		require.NoError(t, err)
	}
	ring, err := s.Audit(ctx, g)
	require.NoError(t, err)
	require.NotEmpty(t, ring)
	holds := func(b string) bool {
		return strings.Contains(b, string(pig.TagRoll)) || strings.Contains(b, "auditRing")
	}

	fs := emu.Firestore()
	get := func(f interface {
		REST(context.Context, string, string, string, any) (int, []byte, error)
	}, path, who string) (int, string) {
		t.Helper()
		code, b, err := f.REST(ctx, http.MethodGet, path, tok[who], nil)
		require.NoError(t, err)
		return code, string(b)
	}
	auditPath := "/games/" + g + "/private/audit"
	for _, who := range []string{"s0", "s1", "outsider", "nobody"} {
		code, body := get(fs, auditPath, who)
		require.Equal(t, http.StatusForbidden, code, "%s reads the ring: %s", who, body)
		require.False(t, holds(body))
	}
	code, body := get(fs, "/games/"+g, "s1")
	require.Equal(t, http.StatusOK, code, "positive control: a seat reads the public document: %s", body)
	require.False(t, holds(body), "the public document holds no entry")
	for _, who := range []string{"", uid["s0"], uid["s1"], uid["outsider"]} {
		v, _, err := s.View(ctx, g, who)
		require.NoError(t, err)
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.False(t, holds(string(b)), "%q's view", who)
	}

	copies := []string{"games/" + g, "games/" + g + "/private/audit"}
	real := emu.Weakened(t, nil, copies...)
	code, _ = get(real, auditPath, "s1")
	require.Equal(t, http.StatusForbidden, code, "the copy under the real rules")
	weak := emu.Weakened(t, []string{"/private/{doc}"}, copies...)
	code, body = get(weak, auditPath, "s1")
	require.Equal(t, http.StatusOK, code, "under rules opened at private/: %s", body)
	require.True(t, holds(body), "positive control: the ring holds its entries")
}
