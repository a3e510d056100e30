package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	vkit "cloud.google.com/go/firestore/apiv1"
	pb "cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// The floor of an action: the remote calls it cannot do without, and
// nothing else. fsstore makes one attempt of an action as one batched
// read (BatchGetDocuments, with the field mask of what an action reads:
// not the private state's audit ring, which no action needs) of the
// game, its private state and the action's record, then one
// write-only Commit (no transaction, so no BeginTransaction round trip)
// of its writes with their preconditions. The floor makes exactly those
// two calls through the same raw client, with the same documents: a
// shadow game (its own id) whose documents are written, action after
// action, with the writes the store makes for the real game's action (the
// same documents, the same fields changed, the same sizes, the same
// preconditions: the game document only if unchanged since it was read,
// the others only if new), converted to the protobuf messages the call
// sends before they are timed: the floor's client CPU is gRPC's and
// protobuf's marshalling of those messages and nothing else. What the
// action spends beyond the floor is the engine's, the service's and the
// store's conversions.

// floorGame is the shadow game: its reference and its documents as the
// last commit left them (the private state without its audit ring).
type floorGame struct {
	ref      *firestore.DocumentRef
	pub, sec map[string]any
}

// floorCommit is one action's reads and writes, built from the mirror of
// the real game before they are timed.
type floorCommit struct {
	refs            []*firestore.DocumentRef // the game, its private state, the record
	create          map[string]any           // the new game document, or nil
	pubUps          []firestore.Update       // else its changed fields
	setPriv         map[string]any           // the new private state (ring included), or nil
	privUps         []firestore.Update       // else its changed fields and ring slots (none: not written)
	logDoc, applied map[string]any           // the log document (nil: no event) and the applied run
	rec             map[string]any
	writes          int
	pb              []*pb.Write // the writes as sent (pbWrites)
}

// prepare builds the commit the store makes for action a, which the
// mirror (src) has just applied: ev its events, src.drawn its audit
// entries, v0 the version it was applied to. It then takes the new
// documents as the shadow game's.
func (f *floorGame) prepare(b testing.TB, src *actionSource, a engine.Action, ev []engine.Event, v0 uint64) *floorCommit {
	toDoc := func(v any) map[string]any {
		d, err := store.ToDoc(v)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	p := &src.mirror.Public
	pub, sec := toDoc(p), toDoc(&src.mirror.Secret)
	uids := make([]any, len(p.Players))
	for i, pl := range p.Players {
		uids[i] = pl.UID
	}
	pub["ownerUid"], pub["playerUids"] = p.Owner, uids // fsstore's derived fields (a seeded game has no dueAt)
	key := store.RecordKey(a.Actor, a.ID)
	c := &floorCommit{refs: []*firestore.DocumentRef{f.ref, f.ref.Collection("private").Doc("state"), f.ref.Collection("actions").Doc(key)}}
	entries := audit.Stamp(src.drawn, fixedNow.UnixMilli())
	var ring []firestore.Update
	if src.audited {
		for _, e := range entries {
			js, err := json.Marshal(e)
			if err != nil {
				b.Fatal(err)
			}
			ring = append(ring, firestore.Update{FieldPath: firestore.FieldPath{"auditRing", strconv.Itoa(audit.Slot(e.Seq))}, Value: string(js)})
		}
	}
	if f.pub == nil {
		c.create = pub
		c.setPriv = maps.Clone(sec)
		if len(ring) > 0 {
			slots := map[string]any{}
			for _, u := range ring {
				slots[u.FieldPath[1]] = u.Value
			}
			c.setPriv["auditRing"] = slots
		}
		c.writes = 2
	} else {
		c.pubUps = replace(f.pub, pub)
		c.privUps = append(replace(f.sec, sec), ring...)
		c.writes = 1
		if len(c.privUps) > 0 {
			c.writes++
		}
	}
	if len(ev) > 0 {
		list := make([]any, len(ev))
		for i := range ev {
			d, err := store.JSONToDoc(ev[i].AppendJSON(nil))
			if err != nil {
				b.Fatal(err)
			}
			list[i] = d
		}
		c.logDoc = map[string]any{"events": list}
		c.writes++
	}
	ea := a
	ea.At, ea.ID = fixedNow.UnixMilli(), service.EngineActionID(a.Actor, a.ID)
	c.applied = toDoc(store.RunOf(v0, []engine.Action{ea}))
	r := &store.Record{ActionID: a.ID, Actor: a.Actor, Kind: a.Kind, Fingerprint: strings.Repeat("f", 64),
		Version: p.Version, Events: ev, Audit: entries, Ringed: src.audited && len(entries) > 0}
	if r.Events == nil {
		r.Events = []engine.Event{}
	}
	c.rec = toDoc(r)
	c.writes += 2
	f.pub, f.sec = pub, sec
	f.pbWrites(b, c)
	if len(c.pb) != c.writes {
		b.Fatalf("floor: %d writes built, %d counted", len(c.pb), c.writes)
	}
	return c
}

// replace is fsstore's diff: the fields of doc that old does not hold
// with the same value, set; the fields of old that doc lacks, deleted.
func replace(old, doc map[string]any) []firestore.Update {
	var ups []firestore.Update
	for k, v := range doc {
		if was, ok := old[k]; !ok || !reflect.DeepEqual(was, v) {
			ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
		}
	}
	for k := range old {
		if _, ok := doc[k]; !ok {
			ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: firestore.Delete})
		}
	}
	return ups
}

// do makes the floor's two calls for c: one masked BatchGetDocuments of
// the game, its private state and the record, then one Commit of c's
// writes, already protobuf (built untimed, by pbWrites), the game
// document's conditional on the update time read.
func (f *floorGame) do(ctx context.Context, rc *vkit.Client, c *floorCommit) error {
	updated, err := floorRead(ctx, rc, c.refs)
	if err != nil {
		return err
	}
	if !updated[2].IsZero() {
		return fmt.Errorf("floor: record %s exists", c.refs[2].ID)
	}
	if c.create == nil {
		c.pb[0].CurrentDocument = &pb.Precondition{ConditionType: &pb.Precondition_UpdateTime{UpdateTime: timestamppb.New(updated[0])}}
	}
	db, _, _ := strings.Cut(f.ref.Path, "/documents/")
	_, err = rc.Commit(metadata.AppendToOutgoingContext(ctx, "google-cloud-resource-prefix", db), &pb.CommitRequest{Database: db, Writes: c.pb})
	return err
}

// floorRead is the read an action cannot do without: one
// BatchGetDocuments of refs with the store's read mask (fsstore.ReadMask:
// the fields an action reads, not the audit ring), its answers received
// and nothing converted. It returns each document's update time (zero:
// not there).
func floorRead(ctx context.Context, rc *vkit.Client, refs []*firestore.DocumentRef) ([]time.Time, error) {
	names := make([]string, len(refs))
	for i, r := range refs {
		names[i] = r.Path
	}
	db, _, _ := strings.Cut(names[0], "/documents/")
	stream, err := rc.BatchGetDocuments(ctx, &pb.BatchGetDocumentsRequest{Database: db, Documents: names,
		Mask: &pb.DocumentMask{FieldPaths: floorMask}})
	if err != nil {
		return nil, err
	}
	out := make([]time.Time, len(refs))
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if d := resp.GetFound(); d != nil {
			out[slices.Index(names, d.GetName())] = d.GetUpdateTime().AsTime()
		}
	}
}

var floorMask = fsstore.ReadMask()

// BenchmarkActionVsBare alternates one real action (sequential 3-player
// bot games through the service on Firestore) with its floor (the same
// reads and the same writes, made by the two calls alone on a shadow
// game), on one fresh emulator, so that drift lands on both; 100 pairs
// of other games are played first, untimed, so that the emulator's JIT
// has compiled the paths of these documents (a fresh emulator warmed with
// small documents only measured audit=on 1.2-2 times slower than a warm
// one). It reports both medians, their ratio and difference, the client's
// CPU time per action and per floor (this process: the conversions, the
// engine, gRPC), the in-memory action's CPU (the same bot games through
// the service on store.NewMemory(), in this process after the run) and
// the ratio of the two, and the documents an action reads and writes,
// with the most one action wrote. audit=on plays games with the audit
// ring on. Each action's floor must write as many documents as the action
// did, or it fails.
func BenchmarkActionVsBare(b *testing.B) {
	for _, audited := range []bool{false, true} {
		b.Run(map[bool]string{false: "audit=off", true: "audit=on"}[audited], func(b *testing.B) {
			svc, st := benchEnv(b)
			warm := newVsRun(svc, st, audited)
			for range 100 {
				warm.step(b)
			}
			r := newVsRun(svc, st, audited)
			for b.Loop() {
				r.step(b)
			}
			mem := memoryCPU(b, audited, r.n)
			ap, fp := r.act.q(0.5), r.floor.q(0.5)
			perAction := float64(r.cpu.Microseconds()) / float64(r.n)
			b.ReportMetric(ap, "action-p50-ms")
			b.ReportMetric(fp, "floor-p50-ms")
			b.ReportMetric(ap/fp, "ratio-p50")
			b.ReportMetric(ap-fp, "overhead-ms")
			b.ReportMetric(perAction, "client-cpu-us/action")
			b.ReportMetric(float64(r.floorCPU.Microseconds())/float64(r.n), "floor-cpu-us")
			b.ReportMetric(mem, "memory-cpu-us/action")
			b.ReportMetric(perAction/mem, "cpu-ratio")
			own := perAction - float64(r.floorCPU.Microseconds())/float64(r.n)
			b.ReportMetric(own, "own-cpu-us/action")
			b.ReportMetric(own/mem, "own-cpu-ratio")
			r.counts.report(b)
		})
	}
}

// vsRun is a run of BenchmarkActionVsBare: real actions of bot games and
// their floors, one after the other.
type vsRun struct {
	svc           *service.Service
	st            *fsstore.Store
	src           *actionSource
	fg            *floorGame
	game          string
	act, floor    latencies
	counts        docCounts
	cpu, floorCPU time.Duration
	n             int
}

func newVsRun(svc *service.Service, st *fsstore.Store, audited bool) *vsRun {
	return &vsRun{svc: svc, st: st, src: newSource(runID("vs"), audited)}
}

// step plays the next action, then its floor, timing each.
func (r *vsRun) step(b *testing.B) {
	ctx, c := context.Background(), r.st.Client()
	id, a := r.src.next()
	if id != r.game { // a new real game: a new shadow
		r.game, r.fg = id, &floorGame{ref: c.Collection("games").Doc(id + "-floor")}
	}
	s0, c0 := r.st.Stats(), cpuTime()
	t := time.Now()
	if _, err := r.svc.Do(ctx, id, a); err != nil {
		b.Fatalf("%s %s: %v", id, a.Kind, err)
	}
	r.act.add(time.Since(t))
	r.cpu += cpuTime() - c0
	s1 := r.st.Stats()
	r.counts.count(s0, s1)
	b.StopTimer()
	v0 := r.src.mirror.Public.Version
	ev := r.src.applied(b, a)
	fc := r.fg.prepare(b, r.src, a, ev, v0)
	if w := s1.Writes - s0.Writes; w != int64(fc.writes) {
		b.Fatalf("%s %s: the action wrote %d documents, its floor would write %d", id, a.Kind, w, fc.writes)
	}
	b.StartTimer()
	c0 = cpuTime()
	t = time.Now()
	if err := r.fg.do(ctx, r.st.RPC(), fc); err != nil {
		b.Fatalf("floor of %s %s: %v", id, a.Kind, err)
	}
	r.floor.add(time.Since(t))
	r.floorCPU += cpuTime() - c0
	r.n++
}

// memoryCPU plays n actions of the same bot games through the service on
// store.NewMemory() and returns the CPU time per action (µs), measured as
// the Firestore action's is: this process's, around each service call.
func memoryCPU(b *testing.B, audited bool, n int) float64 {
	b.StopTimer()
	svc := service.New(service.Config{Store: store.NewMemory(), Engine: eng, AllowSeeded: true, Logger: quiet(),
		Now: func() time.Time { return fixedNow }})
	src := newSource(runID("mem"), audited)
	n = max(n, 200) // enough actions for the clock's granularity
	var cpu time.Duration
	for range n {
		id, a := src.next()
		c0 := cpuTime()
		if _, err := svc.Do(context.Background(), id, a); err != nil {
			b.Fatalf("memory %s %s: %v", id, a.Kind, err)
		}
		cpu += cpuTime() - c0
		src.applied(b, a)
	}
	return float64(cpu.Microseconds()) / float64(n)
}
