package integration

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/deploy"
	"github.com/fairboard/fairboard/functest"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

// The floor of a trustless random action (BenchmarkTrustlessAction's
// floor-ratio-p50): the protocol's requests and commits, and nothing
// else, through the same function path (a callable over HTTP, its ID
// token verified by the same verifier) on the same emulator. For n
// players:
//
//  1. one request-commit, the act with its actor's reveal: one GetAll of
//     the game, its private state and the record, then one commit of
//     five writes (the game document, conditional on its update time;
//     the private state; a log document; the applied run; the record);
//  2. then the other n-1 seats' requests at once: n-2 of them read as a
//     reveal does (the GetAll, and beside it the round's staged reveals)
//     and commit a staging (three creates: marker, link, record); the
//     last, the round's closer, reads the same, waits until those n-2
//     commits have landed (told in process: no look of its own, the
//     least any closer can wait), reads the staged reveals once (their
//     links) and commits the close (the game document, conditional; the
//     log; the applied run; its record). With 2 players there is no
//     staging: the closer's first read holds every link it needs.
//
// Its documents are a shadow game's (its own id), written with the real
// game's documents of the action just played: its public state as the
// game document's fields (every field, so at least the real diff), the
// log documents of the act and of the close with the real events, the
// staged reveals with the real reveals. No engine, no service, no
// conversion of the store's: what the random action spends beyond its
// floor is theirs, and the closer's looks at the staged reveals.

// trustlessFloor is the floor's server and the plan of the round it
// runs: the documents each request writes (prepared before the round is
// timed) and the closer's wait.
type trustlessFloor struct {
	cl   *firestore.Client
	c    *functest.Client
	mu   sync.Mutex
	plan *floorPlan
	n    int // floor rounds run
	// waits counts the closers that waited for stagings, waited their
	// time in all (the stagings' landing and the read after)
	waits  int
	waited time.Duration
}

// floorPlan is one floor round: the shadow game, the documents each
// request writes, and the stagings the closer waits for.
type floorPlan struct {
	game    *firestore.DocumentRef
	index   uint32
	pub     map[string]any // the game document's fields (act and close)
	actLog  map[string]any
	actLink map[string]any // the private state's update (the actor's link)
	clsLog  map[string]any
	applied map[string]any
	rec     map[string]any
	stages  map[int][2]map[string]any // seat → marker, staged reveal
	staged  sync.WaitGroup
}

func newTrustlessFloor(b *testing.B, cl *firestore.Client) *trustlessFloor {
	b.Helper()
	v, err := deploy.AdminVerifier(context.Background(), emu.ProjectID())
	if err != nil {
		b.Fatal(err)
	}
	f := &trustlessFloor{cl: cl}
	mux := http.NewServeMux()
	mux.Handle("/floor", callable.Handler(v, f.serve))
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	f.c = &functest.Client{Base: srv.URL}
	return f
}

// floorReq is a floor request's data: what to do, as which seat, and
// the record's id.
type floorReq struct {
	Op   string `json:"op"` // act, stage, close
	Seat int    `json:"seat"`
	Rec  string `json:"rec"`
}

func (f *trustlessFloor) serve(ctx context.Context, req callable.Request) (any, error) {
	var d floorReq
	if err := callable.DecodeData(req.Data, &d); err != nil {
		return nil, err
	}
	f.mu.Lock()
	p := f.plan
	f.mu.Unlock()
	g := p.game
	refs := []*firestore.DocumentRef{g, g.Collection("private").Doc("state"), g.Collection("actions").Doc(d.Rec)}
	round := g.Collection("links").OrderBy(firestore.DocumentID, firestore.Asc).
		StartAt(fmt.Sprintf("%020d-", p.index)).EndBefore(fmt.Sprintf("%020d.", p.index))
	var snaps []*firestore.DocumentSnapshot
	var err error
	if d.Op == "act" {
		snaps, err = f.cl.GetAll(ctx, refs)
	} else {
		// a reveal reads its round's staged reveals beside the game
		qerr := make(chan error, 1)
		go func() { _, err := round.Documents(ctx).GetAll(); qerr <- err }()
		snaps, err = f.cl.GetAll(ctx, refs)
		err = errors.Join(err, <-qerr)
	}
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 WriteBatch is the store's commit (fsstore's commit.go).
	wb := f.cl.Batch()
	switch d.Op {
	case "act":
		wb.Update(g, updates(p.pub), firestore.LastUpdateTime(snaps[0].UpdateTime))
		wb.Update(refs[1], updates(p.actLink))
		wb.Create(g.Collection("log").Doc(fmt.Sprintf("%020d-a", p.index)), p.actLog)
		wb.Create(g.Collection("applied").Doc(fmt.Sprintf("%020d-a", p.index)), p.applied)
		wb.Create(refs[2], p.rec)
	case "stage":
		id := fmt.Sprintf("%020d-%03d", p.index, d.Seat)
		wb.Create(g.Collection("reveals").Doc(id), p.stages[d.Seat][0])
		wb.Create(g.Collection("links").Doc(id), p.stages[d.Seat][1])
		wb.Create(refs[2], p.rec)
		_, err := wb.Commit(ctx)
		p.staged.Done()
		return map[string]any{}, err
	case "close":
		if len(p.stages) > 0 {
			t0 := time.Now()
			p.staged.Wait()
			if _, err := round.Documents(ctx).GetAll(); err != nil {
				return nil, err
			}
			f.mu.Lock()
			f.waits++
			f.waited += time.Since(t0)
			f.mu.Unlock()
		}
		wb.Update(g, updates(p.pub), firestore.LastUpdateTime(snaps[0].UpdateTime))
		wb.Create(g.Collection("log").Doc(fmt.Sprintf("%020d-c", p.index)), p.clsLog)
		wb.Create(g.Collection("applied").Doc(fmt.Sprintf("%020d-c", p.index)), p.applied)
		wb.Create(refs[2], p.rec)
	default:
		return nil, callable.InvalidArgument("op %q", d.Op)
	}
	_, err = wb.Commit(ctx)
	return map[string]any{}, err
}

// updates sets every field of doc.
func updates(doc map[string]any) []firestore.Update {
	ups := make([]firestore.Update, 0, len(doc))
	for k, v := range doc {
		ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
	}
	return ups
}

// prepare plans the floor of the random action just played in game id
// (untimed): pub its public state after the round, actEv and closeEv the
// events of its act and of its round, reveals the other seats' reveals
// (by player; the closer is the highest), actor the act's uid.
func (f *trustlessFloor) prepare(b *testing.B, id string, pub *engine.Public, actEv, closeEv []engine.Event, reveals map[int]engine.Action, actor string) {
	b.Helper()
	ctx := context.Background()
	toDoc := func(v any) map[string]any {
		d, err := store.ToDoc(v)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	logDoc := func(ev []engine.Event) map[string]any {
		list := make([]any, len(ev))
		for i := range ev {
			d, err := store.JSONToDoc(ev[i].AppendJSON(nil))
			if err != nil {
				b.Fatal(err)
			}
			list[i] = d
		}
		return map[string]any{"events": list}
	}
	game := f.cl.Collection("games").Doc(id + "-floor")
	pd := toDoc(pub)
	if f.plan == nil || f.plan.game.ID != game.ID {
		if _, err := game.Set(ctx, pd); err != nil {
			b.Fatal(err)
		}
		if _, err := game.Collection("private").Doc("state").Set(ctx, map[string]any{"links": []any{}}); err != nil {
			b.Fatal(err)
		}
	}
	index := uint32(0)
	closer := -1
	var act engine.Action // the act's reveal: as large as any other's
	for seat, a := range reveals {
		index, closer, act = a.Index, max(closer, seat), a
	}
	act.Actor = actor
	p := &floorPlan{game: game, index: index, pub: pd, actLog: logDoc(actEv), clsLog: logDoc(closeEv),
		actLink: map[string]any{"links": []any{map[string]any{"seat": int64(0), "link": act.Link}}},
		applied: toDoc(store.RunOf(pub.Version, []engine.Action{act})),
		rec:     toDoc(&store.Record{ActionID: "a", Actor: act.Actor, Kind: act.Kind, Fingerprint: act.Digest, Version: pub.Version, Events: []engine.Event{}}),
		stages:  map[int][2]map[string]any{}}
	for seat, a := range reveals {
		if seat != closer {
			p.stages[seat] = [2]map[string]any{toDoc(store.MarkOf(&a)), toDoc(store.StagedReveal{Index: a.Index, Seat: seat, Action: a})}
		}
	}
	p.staged.Add(len(p.stages))
	f.mu.Lock()
	f.plan = p
	f.mu.Unlock()
}

// run makes the planned floor round and returns its time: the act's
// request, then the other seats' at once (tokens by seat).
func (f *trustlessFloor) run(ctx context.Context, actor string, tokens map[int]string) (time.Duration, error) {
	f.n++
	closer := -1
	for seat := range tokens {
		closer = max(closer, seat)
	}
	recs := make(map[int]string, len(tokens))
	for seat := range tokens {
		recs[seat] = fmt.Sprintf("f%d-%d", f.n, seat)
	}
	t := time.Now()
	if err := f.c.Call(ctx, "floor", actor, map[string]any{"op": "act", "seat": -1, "rec": fmt.Sprintf("f%d-act", f.n)}, nil); err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(tokens))
	for seat, tok := range tokens {
		op := "stage"
		if seat == closer {
			op = "close"
		}
		wg.Go(func() {
			if err := f.c.Call(ctx, "floor", tok, map[string]any{"op": op, "seat": seat, "rec": recs[seat]}, nil); err != nil {
				errs <- fmt.Errorf("floor %s of seat %d: %w", op, seat, err)
			}
		})
	}
	wg.Wait()
	d := time.Since(t)
	close(errs)
	return d, <-errs
}
