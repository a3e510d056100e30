package fsstore_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/iterator"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// A game of the previous layout playing on in this one, and the log's listener.

// TestPreviousLayoutGamePlaysOn: a game played first by the previous
// release's writer (WithPreviousLayout: one log document per event, the
// audit ring written after the commit as one document per slot) and then
// by this release's reads as one game: its log whole and in order, paged
// from every seq (pages starting inside a per-action document and across
// the boundary), and followed by a listener on the log ordered by id
// (put in seq order as the page does, see listen); its audit ring the
// newest entry of each slot from both layouts; a replay of an action
// recorded by the previous release repairs its entries if they are
// missing. After the boundary every action writes at most 5 documents.
func TestPreviousLayoutGamePlaysOn(t *testing.T) {
	prev := newStore(t, fsstore.WithPreviousLayout())
	defer prev.Close()
	ctx := context.Background()
	const id = "old-game"
	g := newBotGame(id, 3, true)
	var p engine.Public
	var all []engine.Event
	var sent []engine.Action
	play := func(svc *service.Service, st *fsstore.Store, actions int) {
		t.Helper()
		for range actions {
			a, ok := g.next(&p)
			if !ok {
				return
			}
			sent = append(sent, a)
			s0 := st.Stats()
			r, err := svc.Do(ctx, id, a)
			if err != nil {
				t.Fatalf("%s: %v", a.Kind, err)
			}
			if st != prev && st.Stats().Writes-s0.Writes > 5 {
				t.Fatalf("after the boundary, %s wrote %d documents", a.Kind, st.Stats().Writes-s0.Writes)
			}
			all = append(all, r.Events...)
			full, err := st.State(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			p = full.Public
		}
	}
	oldSvc := newSvc(prev)
	play(oldSvc, prev, 40)
	oldDocs := logDocs(t, prev.Client(), id)
	if len(oldDocs) != len(all) {
		t.Fatalf("the previous layout wrote %d log documents for %d events", len(oldDocs), len(all))
	}
	if _, ok := oldDocs[0].Data()["type"]; !ok {
		t.Fatalf("an old log document is not one event: %v", oldDocs[0].Data())
	}
	boundary, oldActions := uint64(len(all)), len(sent)
	slots, _ := prev.Client().Collection("games/" + id + "/rngAudit").Documents(ctx).GetAll()
	if len(slots) == 0 {
		t.Fatal("the previous layout wrote no rngAudit documents")
	}
	// Lose one old entry, as a failed ring write of the previous release
	// did: a replay of its action repairs it.
	if _, err := slots[0].Ref.Delete(ctx); err != nil {
		t.Fatal(err)
	}

	cur := storeOnEmulator(t)
	defer cur.Close()
	svc := newSvc(cur)
	// Listen to the log from the start, as a client does.
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	heard := make(chan []engine.Event, 1)
	go func() { heard <- listen(t, lctx, cur.Client(), id) }()
	t0 := time.Now()
	play(svc, cur, 1<<20)
	t.Logf("played on in %v", time.Since(t0))
	if p.Phase != engine.PhaseFinished {
		t.Fatalf("the game ended in phase %s", p.Phase)
	}
	docs := logDocs(t, cur.Client(), id)
	if len(docs) <= len(oldDocs) || len(docs) >= len(all) {
		t.Fatalf("%d log documents for %d events, %d of them old; want per-action documents after the boundary", len(docs), len(all), len(oldDocs))
	}
	whole, err := cur.Log(ctx, id, 0, 0)
	if err != nil || eventsJSON(whole) != eventsJSON(all) {
		t.Fatalf("Log across the boundary: %d events (%v); want the game's %d", len(whole), err, len(all))
	}
	var indoc []uint64 // seqs followed by another in the same document
	for _, d := range docs[len(oldDocs):] {
		es := docEvents(t, d)
		for _, e := range es[:len(es)-1] {
			indoc = append(indoc, e.Seq)
		}
	}
	if len(indoc) == 0 {
		t.Fatal("no per-action document holds two events")
	}
	// Pages from every seq around the boundary, from inside per-action
	// documents, and from every 17th seq.
	afters := []uint64{uint64(len(all)), uint64(len(all)) + 1}
	for a := uint64(0); a < uint64(len(all)); a += 17 {
		afters = append(afters, a)
	}
	for a := boundary - min(boundary, 3); a <= boundary+3; a++ {
		afters = append(afters, a)
	}
	afters = append(afters, indoc[:min(len(indoc), 20)]...)
	for _, after := range afters {
		for _, limit := range []int{1, 3, 25} {
			page, err := cur.Log(ctx, id, after, limit)
			n := uint64(len(all))
			want := all[min(after, n):min(after+uint64(limit), n)]
			if err != nil || eventsJSON(page) != eventsJSON(want) {
				t.Fatalf("Log(after %d, limit %d) across the boundary at %d: %d events (%v); want %d", after, limit, boundary, len(page), err, len(want))
			}
		}
	}
	select {
	case got := <-heard:
		if eventsJSON(got) != eventsJSON(all) {
			t.Fatalf("the listener heard %d events; want the game's %d, in order", len(got), len(all))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the listener never heard the whole game")
	}

	// The ring: the newest entry of each slot, from the old slot documents
	// and the private state's; all but the entry deleted above.
	want := min(p.RNG.Seq, audit.RingSize)
	ringHolds := func(n uint64) {
		t.Helper()
		ring, err := cur.Audit(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if uint64(len(ring)) != n || ring[len(ring)-1].Seq != p.RNG.Seq ||
			!slices.IsSortedFunc(ring, func(a, b audit.Entry) int { return int(a.Seq) - int(b.Seq) }) {
			t.Fatalf("ring of %d entries; want %d, in seq order up to %d", len(ring), n, p.RNG.Seq)
		}
	}
	t.Logf("paged and listened in %v", time.Since(t0))
	ringHolds(want - 1)
	// Replaying the old actions repairs what the previous release lost
	// (one action's record finds its entry missing), and nothing else.
	for _, a := range sent[:oldActions] {
		r, err := svc.Do(ctx, id, a)
		if err != nil || !r.Replayed {
			t.Fatalf("replay of the old %s: %+v, %v", a.Kind, r, err)
		}
	}
	if st := svc.Stats(); st.AuditRepairs != 1 || st.AuditFailures != 0 {
		t.Errorf("service stats after replaying the old actions %+v; want one repair", st)
	}
	ringHolds(want)
}

// listen follows the log of a game with a snapshot listener on the log
// collection ordered by id, as the play page does, and returns the events
// it heard in seq order, each once, once it hears FairnessRevealed (the end
// of every game) or its context ends.
//
// Like the page (web/play/src/log.ts, InOrder), it hands on only the run of
// events that follows the last one handed on, and holds the rest: a
// snapshot is not always the whole log up to some point. The emulator's
// first snapshot of a long log can hold its later documents without its
// earlier ones, which come in the next (seen here: seqs 88-125 first, then
// 1-87), so a listener that trusts the arrival order loses or reorders
// events.
func listen(t *testing.T, ctx context.Context, c *firestore.Client, gameID string) []engine.Event {
	q := c.Collection("games/"+gameID+"/log").OrderBy(firestore.DocumentID, firestore.Asc)
	it := q.Snapshots(ctx)
	defer it.Stop()
	var out []engine.Event
	held := map[uint64]engine.Event{}
	early := 0 // the most events held for an earlier one
	defer func() {
		if early > 0 {
			t.Logf("the listener held up to %d events for an earlier one, and put them in order", early)
		}
	}()
	for {
		snap, err := it.Next()
		if err == iterator.Done || ctx.Err() != nil {
			return out
		}
		if err != nil {
			t.Errorf("listener: %v", err)
			return out
		}
		for _, ch := range snap.Changes {
			if ch.Kind == firestore.DocumentRemoved {
				t.Errorf("listener: log document %s removed", ch.Doc.Ref.ID)
				continue
			}
			for _, e := range docEvents(t, ch.Doc) {
				if e.Seq <= uint64(len(out)) {
					continue
				}
				if prev, ok := held[e.Seq]; ok && eventsJSON([]engine.Event{prev}) != eventsJSON([]engine.Event{e}) {
					t.Errorf("listener: seq %d heard as two different events", e.Seq)
				}
				held[e.Seq] = e
			}
		}
		for {
			e, ok := held[uint64(len(out))+1]
			if !ok {
				break
			}
			delete(held, e.Seq)
			out = append(out, e)
		}
		early = max(early, len(held))
		if len(out) > 0 && out[len(out)-1].Type == engine.EvFairnessRevealed {
			return out
		}
	}
}
