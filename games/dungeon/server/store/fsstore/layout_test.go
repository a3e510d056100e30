package fsstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
)

var eng = engine.NewReference(engine.DefaultRules())

func newSvc(st store.Store) *service.Service {
	return service.New(service.Config{Store: st, Engine: eng, AllowSeeded: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Now:    func() time.Time { return time.UnixMilli(1_760_000_000_000) }})
}

// botGame drives one seeded game through a service: create, joins, start,
// then the bots' choices. next returns the next action, or false once the
// game is over; seen tells it what the service applied.
type botGame struct {
	id    string
	seats []bot.Seat
	k     int
	pre   []engine.Action
}

func newBotGame(id string, n int, audited bool) *botGame {
	b := &botGame{id: id}
	for i, c := range policy.DefaultClasses(n) {
		s := bot.Seat{Class: c, Policy: policy.Cautious{}}
		if i%2 == 1 {
			s.Policy = policy.Aggressive{}
		}
		b.seats = append(b.seats, s)
	}
	b.pre = append(b.pre, engine.Action{Kind: engine.ActCreate, Actor: policy.UID(0), ID: "create", Mode: "seeded", Seed: id, Audit: audited})
	for i, s := range b.seats {
		b.pre = append(b.pre, engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), ID: "join-" + policy.UID(i), Seat: i, Class: s.Class})
	}
	b.pre = append(b.pre, engine.Action{Kind: engine.ActStart, Actor: policy.UID(0), ID: "start"})
	return b
}

// next is the next action to send, given the game's public state.
func (b *botGame) next(p *engine.Public) (engine.Action, bool) {
	if len(b.pre) > 0 {
		a := b.pre[0]
		b.pre = b.pre[1:]
		return a, true
	}
	if p.Phase != engine.PhasePlaying {
		return engine.Action{}, false
	}
	uid := p.Awaiting
	a := b.seats[int(uid[1]-'1')].Policy.Choose(p, eng.Rules(), uid)
	b.k++
	a.ID = fmt.Sprintf("a%d", b.k)
	return a, true
}

// playWhole plays b's game to its end through svc on st.
func playWhole(t *testing.T, svc *service.Service, st *fsstore.Store, b *botGame) {
	t.Helper()
	ctx := context.Background()
	var p engine.Public
	for {
		a, ok := b.next(&p)
		if !ok {
			return
		}
		if _, err := svc.Do(ctx, b.id, a); err != nil {
			t.Fatalf("%s %s: %v", b.id, a.Kind, err)
		}
		got, err := st.Game(ctx, b.id)
		if err != nil {
			t.Fatal(err)
		}
		p = *got
	}
}

// logDocs reads the game's log documents, ordered by id.
func logDocs(t *testing.T, c *firestore.Client, gameID string) []*firestore.DocumentSnapshot {
	t.Helper()
	snaps, err := c.Collection("games/"+gameID+"/log").OrderBy(firestore.DocumentID, firestore.Asc).Documents(context.Background()).GetAll()
	if err != nil {
		t.Fatal(err)
	}
	return snaps
}

// docEvents decodes one log document, of either layout, independently of
// the store's reader: an events array, or one event.
func docEvents(t *testing.T, snap *firestore.DocumentSnapshot) []engine.Event {
	t.Helper()
	d := snap.Data()
	list, ok := d["events"].([]any)
	if !ok {
		list = []any{d}
	}
	out := make([]engine.Event, len(list))
	for i, v := range list {
		if err := store.FromDoc(v.(map[string]any), &out[i]); err != nil {
			t.Fatalf("log %s[%d]: %v", snap.Ref.ID, i, err)
		}
	}
	return out
}

func secretJSON(t *testing.T, s engine.Secret) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func eventsJSON(es []engine.Event) string {
	var b strings.Builder
	for i := range es {
		b.Write(es[i].AppendJSON(nil))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestWholeGamesLayout plays whole seeded games (2 to 4 players, audit on
// and off) through the service on Firestore and, after every action,
// checks what it committed: at most 5 writes, whatever the number of its
// events and audit entries; one log document holding exactly the action's
// events, in order, with the id of its last event's seq, or none for an
// action without events; the private state written only by an action that
// changed it; the audit entries in the ring the private state holds, none
// in the old layout's rngAudit documents. At the end the log read back
// (whole, and a page from every seq) is the game's, in order, and the
// games had actions without events and actions with many.
func TestWholeGamesLayout(t *testing.T) {
	st := newStore(t)
	defer st.Close()
	svc := newSvc(st)
	c, ctx := st.Client(), context.Background()
	var kinds struct{ none, many int }
	for _, tc := range []struct {
		n       int
		audited bool
	}{{2, false}, {3, true}} {
		id := fmt.Sprintf("layout-%d-%v", tc.n, tc.audited)
		g := newBotGame(id, tc.n, tc.audited)
		var all []engine.Event
		var p engine.Public
		secret := ""
		lastDoc := fmt.Sprintf("%020d", 0)
		for {
			a, ok := g.next(&p)
			if !ok {
				break
			}
			privBefore, _ := c.Doc("games/" + id + "/private/state").Get(ctx)
			s0 := st.Stats()
			r, err := svc.Do(ctx, id, a)
			if err != nil {
				t.Fatalf("%s %s: %v", id, a.Kind, err)
			}
			s1 := st.Stats()
			if w := s1.Writes - s0.Writes; w > 5 || w < 2 {
				t.Fatalf("%s %s (%d events): %d writes; want 2 to 5", id, a.Kind, len(r.Events), w)
			}
			switch n := len(r.Events); {
			case n == 0:
				kinds.none++
			case n >= 5:
				kinds.many++
			}
			got, err := c.Collection("games/"+id+"/log").OrderBy(firestore.DocumentID, firestore.Asc).
				StartAfter(lastDoc).Documents(ctx).GetAll()
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Events) == 0 {
				if len(got) != 0 {
					t.Fatalf("%s %s without events: %d new log documents, want none", id, a.Kind, len(got))
				}
			} else {
				if len(got) != 1 {
					t.Fatalf("%s %s: %d new log documents, want 1", id, a.Kind, len(got))
				}
				last := got[0]
				lastDoc = last.Ref.ID
				if want := fmt.Sprintf("%020d", r.Events[len(r.Events)-1].Seq); last.Ref.ID != want {
					t.Fatalf("%s %s: log document %s, want %s", id, a.Kind, last.Ref.ID, want)
				}
				if _, ok := last.Data()["events"]; !ok || len(last.Data()) != 1 {
					t.Fatalf("%s %s: log document fields %v; want events only", id, a.Kind, last.Data())
				}
				if g, w := eventsJSON(docEvents(t, last)), eventsJSON(r.Events); g != w {
					t.Fatalf("%s %s: log document holds\n%s\nwant the action's events\n%s", id, a.Kind, g, w)
				}
			}
			all = append(all, r.Events...)
			full, err := st.State(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			privAfter, _ := c.Doc("games/" + id + "/private/state").Get(ctx)
			written := privBefore == nil || !privBefore.Exists() || !privAfter.UpdateTime.Equal(privBefore.UpdateTime)
			secretChanged := secretJSON(t, full.Secret) != secret
			drew := full.Public.RNG.Seq != p.RNG.Seq
			switch {
			case secretChanged && !written:
				t.Fatalf("%s %s changed the secret state but did not write it", id, a.Kind)
			case !secretChanged && written && !(drew && tc.audited):
				t.Fatalf("%s %s wrote the private state without changing it or ringing an entry", id, a.Kind)
			case drew && tc.audited && !written:
				t.Fatalf("%s %s drew with audit on but did not ring its entries", id, a.Kind)
			}
			p, secret = full.Public, secretJSON(t, full.Secret)
		}
		if p.Phase != engine.PhaseFinished {
			t.Fatalf("%s ended in phase %s", id, p.Phase)
		}
		if n, _ := c.Collection("games/" + id + "/rngAudit").Documents(ctx).GetAll(); len(n) != 0 {
			t.Errorf("%s: %d documents in the old layout's rngAudit", id, len(n))
		}
		if tc.audited {
			ring, err := st.Audit(ctx, id)
			want := min(p.RNG.Seq, audit.RingSize)
			if err != nil || uint64(len(ring)) != want || ring[len(ring)-1].Seq != p.RNG.Seq {
				t.Errorf("%s: ring of %d entries (%v); want the last %d up to seq %d", id, len(ring), err, want, p.RNG.Seq)
			}
		}
		whole, err := st.Log(ctx, id, 0, 0)
		if err != nil || eventsJSON(whole) != eventsJSON(all) {
			t.Fatalf("%s: Log(0, all) = %d events (%v); want the game's %d, in order", id, len(whole), err, len(all))
		}
		for after := uint64(0); after <= p.LogSeq; after += 7 {
			page, err := st.Log(ctx, id, after, 10)
			want := all[after:min(after+10, uint64(len(all)))]
			if err != nil || eventsJSON(page) != eventsJSON(want) {
				t.Fatalf("%s: Log(after %d, 10) = %d events (%v); want seq %d..", id, after, len(page), err, after+1)
			}
		}
	}
	if kinds.none == 0 || kinds.many == 0 {
		t.Errorf("the games had %d actions without events and %d with 5 or more; want some of each", kinds.none, kinds.many)
	}
	if st.Stats().MaxWrites > 5 {
		t.Errorf("MaxWrites %d; want at most 5", st.Stats().MaxWrites)
	}
}
