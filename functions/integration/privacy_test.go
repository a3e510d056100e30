package integration

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// restDocs reads what token reads of a table's documents as a client
// under the rules: the game document, the log's listener query, each
// seat document and the seats' query (every answer's body, refusals
// included).
func restDocs(ctx context.Context, gameID string, seats int, token string) ([]string, error) {
	fs := emu.Firestore()
	calls := []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, "/games/" + gameID, nil},
		{http.MethodPost, "/games/" + gameID + ":runQuery", map[string]any{"structuredQuery": map[string]any{
			"from":    []any{map[string]any{"collectionId": "log"}},
			"orderBy": []any{map[string]any{"field": map[string]any{"fieldPath": "__name__"}, "direction": "ASCENDING"}},
		}}},
		{http.MethodPost, "/games/" + gameID + ":runQuery", map[string]any{"structuredQuery": map[string]any{
			"from": []any{map[string]any{"collectionId": "seats"}},
		}}},
	}
	for i := range seats {
		calls = append(calls, struct {
			method, path string
			body         any
		}{http.MethodGet, fmt.Sprintf("/games/%s/seats/%d", gameID, i), nil})
	}
	var out []string
	for _, c := range calls {
		code, body, err := fs.REST(ctx, c.method, c.path, token, c.body)
		if err != nil {
			return nil, err
		}
		out = append(out, fmt.Sprintf("%d %s", code, body))
	}
	return out, nil
}

// leakToGame is a table store that copies seat 0's private part (from
// its seat document) into the public game document after every action:
// the positive control of the documents' check.
type leakToGame struct {
	tablestore.Store
	fc *firestore.Client
}

func (l leakToGame) Do(ctx context.Context, g string, a table.Action) (*table.Result, error) {
	res, err := l.Store.Do(ctx, g, a)
	if err != nil {
		return res, err
	}
	snap, serr := l.fc.Doc("games/" + g + "/seats/0").Get(ctx)
	if serr == nil {
		if p, ok := snap.Data()["private"].(string); ok {
			_, serr = l.fc.Doc("games/"+g).Update(ctx, []firestore.Update{{Path: "leak", Value: p}})
		}
	}
	_ = serr // before the start there is no seat document: nothing to leak
	return res, nil
}

// TestPrivatePartsStayPrivateOnFirestore: every registered table game
// with private parts (Kuhn poker, Leduc, Crazy Eights), 4 seeded games each (Crazy Eights 2) through the
// functions on the emulator with ID tokens from the Auth emulator,
// checked after every action by functest.Privacy with the documents
// each party reads under the rules (game document, log listener query,
// every seat document, the seats' query): no other seat's private part
// or addressed event anywhere, each seat finding its own in its getView
// and its seat document. Positive control: a store that copies seat 0's
// private part into the public game document is caught by the same
// check.
func TestPrivatePartsStayPrivateOnFirestore(t *testing.T) {
	var defs []game.Definition
	for _, def := range registry.All() {
		if def.Name() == functions.DungeonGame {
			continue
		}
		ok, err := functest.HasPrivateParts(def)
		require.NoError(t, err)
		if ok {
			defs = append(defs, def)
		}
	}
	require.NotEmpty(t, defs)
	run := func(c *functest.Client, def game.Definition, prefix string, games int) string {
		for g := range games {
			id := runID(prefix + "-" + def.Name())
			toks := make([]string, def.Seats().Default)
			for i := range toks {
				toks[i] = token(t, fmt.Sprintf("%s-%d", id, i))
			}
			bots, err := rng.NewSeeded(fmt.Sprintf("%s/%d/bots", prefix, g))
			require.NoError(t, err)
			p := functest.Privacy{Client: c, Def: def, GameID: id, Seed: fmt.Sprintf("%s-%d", prefix, g), Seats: toks,
				Outsider: token(t, "privacy-outsider"), Bots: bots, Docs: restDocs,
				Spectators: g%2 == 1} // the outsider is a spectator of every other game
			leak, err := p.Check(context.Background())
			require.NoError(t, err, "%s game %d", def.Name(), g)
			if leak != "" {
				return leak
			}
		}
		return ""
	}
	for _, def := range defs {
		games := 4
		if def.Name() == "eights" {
			// Crazy Eights' games are longer (about 23 moves, each
			// checked against every document): two, a spectator's
			// included, keep its share of the suite near 8 s.
			games = 2
		}
		require.Empty(t, run(newTableEnv(t), def, "fspriv", games))
		leaky := newTableEnvWith(t, func(fc *firestore.Client, ts tablestore.Store) tablestore.Store { return leakToGame{ts, fc} })
		leak := run(leaky, def, "fsleak", 1)
		require.Contains(t, leak, "private part", "control: the copy in the game document is caught")
		require.True(t, strings.Contains(leak, "200 "), "control: caught in a document read under the rules: %s", leak)
		t.Logf("control: %.300s", leak)
	}
}
