package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/service"
	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
)

// tailCount serves the functions with tables in memory and counts the
// getView calls that carry a checkedMoves (tails) among all (views).
type tailCount struct {
	url          string
	tails, views atomic.Int64
}

func newTailCount(t *testing.T) *tailCount {
	t.Helper()
	tc := &tailCount{}
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, Logger: quiet()})
	mux := functions.New(svc, functions.InsecureDevVerifier{}, quiet()).WithTables(tablestore.NewMemory(registry.Lookup)).Mux()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/getView") {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			tc.views.Add(1)
			if bytes.Contains(body, []byte(`"checkedMoves"`)) {
				tc.tails.Add(1)
			}
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	tc.url = srv.URL
	return tc
}

// A client.TrustTable whose players' seats it holds (Seats) asks each
// view after the seat's own checkpoint once the seat has checked moves:
// a trustless Pig game and a Kuhn poker hand (a dealing table) play to
// their end so (at Pig, most views asking for the moves after a
// checkpoint; a Kuhn hand's are mostly at its deal, before any move), and
// each exported record checks (match.CheckRecord).
func TestTrustTableViewsFromCheckpoint(t *testing.T) {
	for _, name := range []string{"pig", "kuhn"} {
		t.Run(name, func(t *testing.T) {
			def := defOf(name)
			tc := newTailCount(t)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			t.Cleanup(cancel)
			id := "cp-" + name
			tt := &client.TrustTable{Ctx: ctx, Def: def, Tables: map[string]*client.Table{}, Public: "p0", Seats: map[string]*trustseat.Seat{}}
			var seats []*trustseat.Seat
			for i, uid := range []string{"p0", "p1"} {
				tb, err := client.NewTable(devFunctions(tc.url, uid), name, id)
				require.NoError(t, err)
				tt.Tables[uid] = tb
				if i == 0 {
					_, err := tb.Create(ctx, client.TableCreate{Mode: "trustless", Seats: 2})
					require.NoError(t, err)
				}
				v, err := tt.View(uid)
				require.NoError(t, err)
				s, err := trustseat.New(def, id, uid, i, v.Trustless.ChainLength)
				require.NoError(t, err)
				seats, tt.Seats[uid] = append(seats, s), s
				_, err = tt.Do(s.Join("join", v.Version, nil, nil))
				require.NoError(t, err)
			}
			_, err := tt.Tables["p0"].Start(ctx)
			require.NoError(t, err)
			rolls := 0
			choose := func(v *table.View) game.Move {
				if name != "pig" {
					return v.Legal[len(v.Legal)-1]
				}
				for _, mv := range v.Legal {
					if mv.Kind == "hold" && rolls >= 3 {
						rolls = 0
						return mv
					}
				}
				rolls++
				return game.Move{Kind: "roll"}
			}
			end, err := trustseat.Play(tt, seats, choose, nil, 4000)
			require.NoError(t, err)
			require.Equal(t, table.PhaseFinished, end.Phase)
			require.False(t, end.Outcome.Abandoned)
			t.Logf("%s: %d moves, %d of %d views after a checkpoint", name, end.Trustless.Played(), tc.tails.Load(), tc.views.Load())
			require.Positive(t, tc.tails.Load())
			if name == "pig" { // a Kuhn hand's views are mostly at its deal, before any move
				require.Greater(t, 2*tc.tails.Load(), tc.views.Load(), "most views ask after a checkpoint")
			}

			var raw json.RawMessage
			f := devFunctions(tc.url, "p1")
			require.NoError(t, f.Call(ctx, "exportGame", map[string]any{"game": name, "gameId": id}, &raw))
			rec, err := match.ReadRecord(raw)
			require.NoError(t, err)
			div, err := match.CheckRecord(def, rec)
			require.NoError(t, err)
			require.NoError(t, div)
		})
	}
}
