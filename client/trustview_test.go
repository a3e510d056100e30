package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
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
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
)

// tailCount serves the functions with tables in memory and counts the
// getView calls that carry a checkedMoves (tails) among all (views).
type tailCount struct {
	url          string
	tails, views atomic.Int64
	// checked is the last getView's checkedMoves (0: none).
	checked atomic.Int64
}

func newTailCount(t *testing.T) *tailCount {
	t.Helper()
	tc := &tailCount{}
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, Logger: quiet()})
	mux := functions.New(dungeonfn.New(svc), functions.InsecureDevVerifier{}, quiet()).WithTables(tablestore.NewMemory(registry.Lookup)).Mux()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/getView") {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			tc.views.Add(1)
			if bytes.Contains(body, []byte(`"checkedMoves"`)) {
				tc.tails.Add(1)
			}
			var q struct {
				Data struct {
					CheckedMoves int64 `json:"checkedMoves"`
				} `json:"data"`
			}
			_ = json.Unmarshal(body, &q)
			tc.checked.Store(q.Data.CheckedMoves)
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	tc.url = srv.URL
	return tc
}

// restarting is a client.TrustTable whose players' clients restart
// every every-th move or reveal of theirs: the actor's seat is made again
// from the secrets it exported (trustseat.Restore), in the TrustTable's
// Seats and in the seats Play holds. The restored seat's first getView is
// counted in restored, and in fromCheckpoint when it asked for the moves
// after its secrets' checkpoint (checkedMoves: the checkpoint, MovesBase
// the same); it must ask from exactly the checkpoint (0: none).
type restarting struct {
	*client.TrustTable
	tc                       *tailCount
	id                       string
	seats                    []*trustseat.Seat
	every, acts              int
	restarted                map[string]int
	restored, fromCheckpoint int
}

func (r *restarting) Do(a table.Action) (*table.Result, error) {
	res, err := r.TrustTable.Do(a)
	if err != nil || a.Kind != table.KindMove && a.Kind != table.KindReveal {
		return res, err
	}
	if r.acts++; r.acts%r.every == 0 {
		for i, s := range r.seats {
			if s.UID() == a.Actor {
				back, err := trustseat.Restore(r.Def, r.id, s.UID(), s.Index(), s.Export())
				if err != nil {
					return nil, err
				}
				r.seats[i], r.Seats[a.Actor], r.restarted[a.Actor] = back, back, back.Checked()
			}
		}
	}
	return res, nil
}

func (r *restarting) View(uid string) (*table.View, error) {
	v, err := r.TrustTable.View(uid)
	if uid == "" {
		uid = r.Public
	}
	if cp, ok := r.restarted[uid]; ok && err == nil {
		delete(r.restarted, uid)
		if got := r.tc.checked.Load(); got != int64(cp) {
			return nil, fmt.Errorf("a restored seat's first view asked after %d moves; its checkpoint is %d", got, cp)
		}
		r.restored++
		if cp > 0 && v.Trustless.MovesBase == cp {
			r.fromCheckpoint++
		}
	}
	return v, err
}

// A client.TrustTable whose players' seats it holds (Seats) asks each
// view after the seat's own checkpoint once the seat has checked moves:
// a trustless Pig game and a Kuhn poker hand (a dealing table) play to
// their end so (at Pig, most views asking for the moves after a
// checkpoint; a Kuhn hand's are mostly at its deal, before any move), and
// each exported record checks (match.CheckRecord). Their clients restart
// along the way (restarting: every 3rd action at Pig, every action at
// Kuhn): a Pig seat restored from its secrets asks from their checkpoint,
// a Kuhn seat (a dealing table keeps none) from the first move.
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
			rs := &restarting{TrustTable: tt, tc: tc, id: id, seats: seats, every: 3, restarted: map[string]int{}}
			if name != "pig" {
				rs.every = 1
			}
			end, err := trustseat.Play(rs, seats, choose, nil, 4000)
			require.NoError(t, err)
			require.Equal(t, table.PhaseFinished, end.Phase)
			require.False(t, end.Outcome.Abandoned)
			t.Logf("%s: %d moves, %d of %d views after a checkpoint; %d restarts, %d of whose first views asked after their secrets' checkpoint",
				name, end.Trustless.Played(), tc.tails.Load(), tc.views.Load(), rs.restored, rs.fromCheckpoint)
			require.Positive(t, rs.restored)
			if name == "pig" {
				require.Greater(t, 2*rs.fromCheckpoint, rs.restored, "most restored seats ask after their checkpoint")
			} else {
				require.Zero(t, rs.fromCheckpoint, "a dealing table's seat keeps no checkpoint")
			}
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
