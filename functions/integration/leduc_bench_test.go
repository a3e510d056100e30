package integration

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
	"github.com/fairboard/fairboard/tablestore/fstables"
)

// BenchmarkTrustlessLeducHand (issue 28's speed figure, on request only:
// make bench-leduc-hand): a 2-seat trustless Leduc hand through the
// functions on a fresh Firestore emulator, from the first pass to the
// first bet applied, alternating in one run with its floor.
//
// The hand: a new table each iteration (create, joins and start
// untimed), then the seats' clients (trustseat) as a lean client plays:
// for each message, one getView by the seat that sends it, its message
// made on its device, one act. The clock starts when the first pass is
// sent and stops when the first bet's answer arrives; between, every
// view, every pass's work and every act is in. sequential-commits counts
// the acts the seats made one after another in that span (each a
// transaction on the table's document), from the calls themselves, not
// assumed.
//
// The floor (docs/fairness.md, "Dealing without a dealer who sees",
// "Cost in commits"): floor-commits (2S + 1 = 5) request-commits in a
// row through the same function path (a callable over HTTP, its ID
// token checked by the same verifier), each one transaction that reads
// a shadow of the table's private document and writes it back with the
// public one and a log document, as large as the real ones at the first
// bet; no view, no engine, no protocol work between them.
// floor-ratio-p50 is hand-p50-ms over floor-p50-ms; acts-p50-ms is the
// hand's acts alone (their requests' time, no view, no seat's work), to
// set against the floor's same number of bare request-commits.
func BenchmarkTrustlessLeducHand(b *testing.B) {
	fc, client, _ := benchFirestore(b)
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	if err != nil {
		b.Fatal(err)
	}
	def, err := registry.Lookup("leduc")
	if err != nil {
		b.Fatal(err)
	}
	svc := service.New(service.Config{Store: fsstore.New(fc), Engine: eng, Logger: quiet()})
	api := functions.New(dungeonfn.New(svc), v, quiet()).WithTables(fstables.New(client(), registry.Lookup))
	srv := httptest.NewServer(api.Mux())
	b.Cleanup(srv.Close)
	c := &functest.Client{Base: srv.URL}
	fl := newLeducFloor(b, fc, v)
	ctx := context.Background()
	prefix := runID("leduc-hand")
	ps := benchTrustPlayers(b, "lh", 2)
	var hand, acts, floor latencies
	commits, views, floorCommits := 0, 0, 0
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		id := fmt.Sprintf("%s-%d", prefix, i)
		tt, err := functest.NewTrustTable(ctx, c, def, id, ps, map[string]any{"chainLength": 64}, true)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		h, err := firstBet(tt)
		if err != nil {
			b.Fatal(err)
		}
		hand.add(h.d)
		acts.add(h.acts)
		commits, views = commits+h.commits, views+h.views
		b.StopTimer()
		if err := fl.prepare(ctx, id); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		d, n, err := fl.run(ctx, ps[0].Token)
		if err != nil {
			b.Fatal(err)
		}
		floor.add(d)
		floorCommits += n
	}
	b.StopTimer()
	b.ReportMetric(hand.q(0.50), "hand-p50-ms")
	b.ReportMetric(floor.q(0.50), "floor-p50-ms")
	b.ReportMetric(hand.q(0.50)/floor.q(0.50), "floor-ratio-p50")
	b.ReportMetric(float64(commits)/float64(b.N), "sequential-commits")
	b.ReportMetric(float64(floorCommits)/float64(b.N), "floor-commits")
	b.ReportMetric(float64(views)/float64(b.N), "views/hand")
	b.ReportMetric(acts.q(0.50), "acts-p50-ms") // the acts alone, without the views and the seats' work between them
}

// benchTrustPlayers is trustPlayers for a benchmark.
func benchTrustPlayers(b *testing.B, prefix string, n int) []functest.Player {
	ps := make([]functest.Player, n)
	for i := range ps {
		uid := prefix + string(rune('a'+i))
		ps[i] = functest.Player{UID: uid, Token: token(b, uid)}
	}
	return ps
}

// handRun is one hand's span from the first pass sent to the first bet
// answered: its time, the acts applied in it (each one commit) and the
// views read.
type handRun struct {
	d, acts        time.Duration // the span; the acts' own time in it
	commits, views int
}

// firstBet plays tt's started hand to its first move (a raise if the
// seat may, else its first legal move) as a lean client does: the seat
// whose message the deal awaits (the pass's seat; at the deal, the seat
// to move, whose move carries its keys, or another that still owes keys)
// reads its view, makes its message and sends it; then the other seat
// reads. Each act is counted; an act that changes nothing (a replay)
// would be an error here, as would a refusal.
func firstBet(tt *functest.TrustTable) (handRun, error) {
	var r handRun
	var start time.Time
	next := 0 // the seat to ask next
	for step := 0; step < 20; step++ {
		s := tt.Seats[next]
		v, err := tt.View(s.UID())
		if err != nil {
			return r, err
		}
		r.views++
		dv := v.Trustless.Deal
		if dv == nil {
			return r, fmt.Errorf("not a dealing table")
		}
		var a *table.Action
		switch {
		case dv.Phase == trustdeal.PhasePlay || dv.Phase == trustdeal.PhaseDeal && v.ToMove == s.Index():
			// the first move; at the deal, it carries the mover's keys
			if v.ToMove != s.Index() {
				next = v.ToMove
				continue
			}
			mv := v.Legal[0]
			for _, m := range v.Legal {
				if m.Kind == "raise" {
					mv = m
				}
			}
			act, err := s.Move(fmt.Sprint("m", step), v, mv)
			if err != nil {
				return r, err
			}
			a = &act
		case dv.Phase == trustdeal.PhasePass || dv.Phase == trustdeal.PhaseDeal:
			if a, err = s.DealTo(fmt.Sprint("d", step), v); err != nil {
				return r, err
			}
			if a == nil { // another seat's turn: the pass's, or the next that owes keys
				next = (next + 1) % len(tt.Seats)
				if dv.Phase == trustdeal.PhasePass {
					next = dv.NextSeat
				}
				continue
			}
		default:
			return r, fmt.Errorf("phase %s before the first move", dv.Phase)
		}
		if start.IsZero() {
			start = time.Now()
		}
		t0 := time.Now()
		res, err := tt.Do(*a)
		r.acts += time.Since(t0)
		if err != nil {
			return r, fmt.Errorf("seat %d's %s: %w", s.Index(), a.Kind, err)
		}
		if res.Replayed {
			return r, fmt.Errorf("seat %d's %s was a replay", s.Index(), a.Kind)
		}
		r.commits++
		next = (s.Index() + 1) % len(tt.Seats) // the other seat's turn: its pass, its keys or its move
		if a.Kind == table.KindMove {
			r.d = time.Since(start)
			return r, nil
		}
	}
	return r, fmt.Errorf("no first move in 20 steps")
}

// leducFloor is the floor's server: a callable that makes one no-op
// request-commit of a shadow table.
type leducFloor struct {
	cl      *firestore.Client
	c       *functest.Client
	pub     map[string]any // the shadow's public document
	priv    map[string]any // its private document
	shadow  string
	commits int // request-commits answered
}

// floorCommits is the protocol's floor for 2 seats: 2S passes and the
// first bet (docs/fairness.md).
const floorCommits = 2*2 + 1

func newLeducFloor(b *testing.B, cl *firestore.Client, v callable.TokenVerifier) *leducFloor {
	f := &leducFloor{cl: cl}
	mux := http.NewServeMux()
	mux.Handle("/floor", callable.Handler(v, f.serve))
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	f.c = &functest.Client{Base: srv.URL}
	return f
}

// serve is one request-commit: a transaction that reads the shadow's
// private document and writes it and the public one back, with a log
// document of its own.
func (f *leducFloor) serve(ctx context.Context, req callable.Request) (any, error) {
	pub := f.cl.Collection("games").Doc(f.shadow)
	priv := pub.Collection("private").Doc("table")
	f.commits++
	n := f.commits
	err := f.cl.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		if _, err := tx.Get(priv); err != nil {
			return err
		}
		if err := tx.Set(pub, f.pub); err != nil {
			return err
		}
		if err := tx.Set(priv, f.priv); err != nil {
			return err
		}
		return tx.Create(pub.Collection("log").Doc(fmt.Sprintf("floor-%020d", n)), map[string]any{"events": []any{}})
	})
	return map[string]any{}, err
}

// prepare copies table id's documents, as they are after its first bet,
// to its shadow (untimed).
func (f *leducFloor) prepare(ctx context.Context, id string) error {
	pub := f.cl.Collection("games").Doc(id)
	snaps, err := f.cl.GetAll(ctx, []*firestore.DocumentRef{pub, pub.Collection("private").Doc("table")})
	if err != nil {
		return err
	}
	f.pub, f.priv, f.shadow = snaps[0].Data(), snaps[1].Data(), id+"-floor"
	sh := f.cl.Collection("games").Doc(f.shadow)
	if _, err := sh.Set(ctx, f.pub); err != nil {
		return err
	}
	_, err = sh.Collection("private").Doc("table").Set(ctx, f.priv)
	return err
}

// run makes floorCommits request-commits one after another and returns
// their time and how many were answered.
func (f *leducFloor) run(ctx context.Context, tok string) (time.Duration, int, error) {
	n0 := f.commits
	t := time.Now()
	for range floorCommits {
		if err := f.c.Call(ctx, "floor", tok, map[string]any{}, nil); err != nil {
			return 0, 0, err
		}
	}
	return time.Since(t), f.commits - n0, nil
}
