package fstables_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore/fstables"
)

// seatQuery is a runQuery body over the seats collection under a game
// (or, with group, every seats collection), as a listener's query.
func seatQuery(group bool) map[string]any {
	return map[string]any{"structuredQuery": map[string]any{
		"from": []any{map[string]any{"collectionId": "seats", "allDescendants": group}},
	}}
}

// A Kuhn poker table on Firestore, owned by a uid that holds no seat:
// each seat's card and its Dealt event are in games/{id}/seats/{seat}
// (the cards known from match on the same seed, an independent path),
// written by the start's transaction and by no move after; the public
// log holds every seq, the deals as their traces only. Under the rules,
// the seat's uid reads its document; the other seat, the owner, an
// outsider, an unauthenticated user, a list, a query and a
// collection-group query are refused. Positive control: under rules
// opened at seats/ the other seat reads the card; a copy under the real
// rules refuses it (the weakening, not the copy, lets it through).
func TestFirestoreSeatDocuments(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	kuhn, err := registry.Lookup("kuhn")
	require.NoError(t, err)
	tok := map[string]string{}
	uid := map[string]string{}
	for _, who := range []string{"owner", "s0", "s1", "outsider"} {
		u, tk, err := emu.Auth().SignInAnonymously(ctx)
		require.NoError(t, err)
		uid[who], tok[who] = u, tk
	}
	g, seed := "fs-seats", "fs-seats-seed"
	_, err = s.Create(ctx, g, "kuhn", table.CreateRequest{Actor: uid["owner"], ActionID: "c", Mode: rng.ModeSeeded, Seed: seed})
	require.NoError(t, err)
	v := uint64(1)
	for i, who := range []string{"s0", "s1"} {
		res, err := s.Do(ctx, g, table.Action{Actor: uid[who], ActionID: "j", Version: v, Kind: table.KindJoin, Seat: i})
		require.NoError(t, err)
		v = res.Version
	}
	fc := emu.Client(t)
	seats, err := fc.Collection("games/" + g + "/seats").Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Empty(t, seats, "nothing private before the start")
	_, err = s.Do(ctx, g, table.Action{Actor: uid["owner"], ActionID: "s", Version: v, Kind: table.KindStart})
	require.NoError(t, err)

	ref, err := match.New(kuhn, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, 2)})
	require.NoError(t, err)
	dealt := map[int]int{} // seq → seat; the table's log: create, 2 joins, Started (4), the deck's commitment (5), then the deals
	for i := range 2 {
		sn, err := fc.Doc(fmt.Sprintf("games/%s/seats/%d", g, i)).Get(ctx)
		require.NoError(t, err)
		var d fstables.SeatDoc
		require.NoError(t, sn.DataTo(&d))
		require.Equal(t, int64(i), d.Seat)
		require.Equal(t, uid[fmt.Sprintf("s%d", i)], d.UID)
		require.Equal(t, string(ref.State().AppendPrivate(nil, i)), d.Private)
		require.Len(t, d.Events, 1)
		e := d.Events[0].(map[string]any)
		require.Equal(t, "Dealt", e["type"])
		require.Equal(t, int64(i), e["to"])
		require.Contains(t, d.Private, fmt.Sprintf(`"card":%d`, e["card"]))
		dealt[int(e["seq"].(int64))] = i
	}
	require.Equal(t, map[int]int{6: 0, 7: 1}, dealt)
	before, err := fc.Collection("games/" + g + "/seats").Documents(ctx).GetAll()
	require.NoError(t, err)
	pv, _, err := s.View(ctx, g, uid["s0"])
	require.NoError(t, err)
	_, err = s.Do(ctx, g, table.Action{Actor: uid["s0"], ActionID: "m", Version: pv.Version, Kind: table.KindMove, Move: []byte(`{"kind":"pass"}`)})
	require.NoError(t, err)
	after, err := fc.Collection("games/" + g + "/seats").Documents(ctx).GetAll()
	require.NoError(t, err)
	for i := range before {
		require.Equal(t, before[i].UpdateTime, after[i].UpdateTime, "a move that changes no seat's part rewrote seat %d", i)
	}

	logs, err := fc.Collection("games/" + g + "/log").Documents(ctx).GetAll()
	require.NoError(t, err)
	seq := int64(0)
	for _, doc := range logs {
		for _, x := range doc.Data()["events"].([]any) {
			e := x.(map[string]any)
			seq++
			require.Equal(t, seq, e["seq"])
			if seat, ok := dealt[int(seq)]; ok {
				require.Equal(t, map[string]any{"seq": seq, "type": table.TypeAddressed, "seat": int64(seat)}, e, "the public log holds the deal's trace, nothing of the card")
			}
		}
	}
	require.Greater(t, seq, int64(6))

	fs := emu.Firestore()
	path := func(i int) string { return fmt.Sprintf("/games/%s/seats/%d", g, i) }
	card := func(i int) string {
		return strings.TrimSuffix(strings.TrimPrefix(string(ref.State().AppendPrivate(nil, i)), "{"), "}")
	}
	req := func(f *emulator.Firestore, method, p, who string, body any) (int, string) {
		t.Helper()
		code, b, err := f.REST(ctx, method, p, tok[who], body)
		require.NoError(t, err)
		return code, string(b)
	}
	for i := range 2 {
		own := fmt.Sprintf("s%d", i)
		code, body := req(fs, http.MethodGet, path(i), own, nil)
		require.Equal(t, http.StatusOK, code, "seat %d reads its own document: %s", i, body)
		require.Contains(t, body, strings.ReplaceAll(card(i), `"`, `\"`), "seat %d's document holds its card", i)
		for _, who := range []string{fmt.Sprintf("s%d", 1-i), "owner", "outsider", "nobody"} {
			code, body := req(fs, http.MethodGet, path(i), who, nil)
			require.Equal(t, http.StatusForbidden, code, "%s reads seat %d's document: %s", who, i, body)
		}
	}
	for _, c := range []struct {
		name, method, path string
		body               any
	}{
		{"list", http.MethodGet, "/games/" + g + "/seats", nil},
		{"query", http.MethodPost, "/games/" + g + ":runQuery", seatQuery(false)},
		{"collection-group query", http.MethodPost, ":runQuery", seatQuery(true)},
	} {
		for _, who := range []string{"s0", "owner"} {
			code, body := req(fs, c.method, c.path, who, c.body)
			require.Equal(t, http.StatusForbidden, code, "%s's %s of the seats: %s", who, c.name, body)
		}
	}

	copies := []string{"games/" + g, "games/" + g + "/seats/0"}
	real := emu.Weakened(t, nil, copies...)
	code, _ := req(real, http.MethodGet, path(0), "s1", nil)
	require.Equal(t, http.StatusForbidden, code, "the copy under the real rules")
	weak := emu.Weakened(t, []string{"/seats/{seat}"}, copies...)
	code, body := req(weak, http.MethodGet, path(0), "s1", nil)
	require.Equal(t, http.StatusOK, code, "under rules opened at seats/: %s", body)
	require.Contains(t, body, strings.ReplaceAll(card(0), `"`, `\"`))
}
