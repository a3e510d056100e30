package fsstore_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/internal/emulator"
	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/store/fsstore"
)

// faultyStore is a store on its own client to the suite's emulator, whose
// calls f can fail.
func faultyStore(t *testing.T, f *emulator.Faults, opts ...fsstore.Option) *fsstore.Store {
	t.Helper()
	emu.Require(t)
	emu.Reset(t)
	c, err := emu.Firestore().Client(context.Background(), f.DialOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	return fsstore.New(c, append(opts, fsstore.WithCloseClient())...)
}

// counted is bump that counts its calls.
func counted(calls *atomic.Int64) store.Mutator {
	return func(g *engine.Game) (store.Outcome, error) {
		calls.Add(1)
		return bump(g)
	}
}

func mustVersion(t *testing.T, s store.Store, want uint64) {
	t.Helper()
	p, err := s.Game(context.Background(), "hot")
	if err != nil || p.Version != want {
		t.Fatalf("game: %+v, %v; want version %d", p, err, want)
	}
	log, err := s.Log(context.Background(), "hot", 0, 0)
	if err != nil || len(log) != int(want) {
		t.Fatalf("log: %d events, %v; want %d (applied once each)", len(log), err, want)
	}
}

// TestLostCommitAnswerResolved (issue 10, item 3): the commit lands and
// its answer is lost (a deadline on the way back). Apply finds the record
// and answers the action as applied, not ABORTED, without running it
// again.
func TestLostCommitAnswerResolved(t *testing.T) {
	var f emulator.Faults
	s := faultyStore(t, &f)
	defer s.Close()
	var calls atomic.Int64
	f.LoseCommitAnswers(1, false)
	rec, err := s.Apply(context.Background(), store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}, counted(&calls))
	if err != nil || rec.Version != 1 || rec.Replayed {
		t.Fatalf("Apply with its commit's answer lost = %+v, %v; want the applied record", rec, err)
	}
	if calls.Load() != 1 || f.Commits() != 1 {
		t.Errorf("mutator ran %d times, %d commits; want 1 and 1 (found by the look-up)", calls.Load(), f.Commits())
	}
	if st := s.Stats(); st.Unknown != 1 || st.Resolved != 1 {
		t.Errorf("stats %+v; want 1 unknown outcome, resolved", st)
	}
	mustVersion(t, s, 1)
}

// TestDroppedCommitResolved: the commit never reached the database and
// the client got a deadline. Apply cannot know that; it looks for the
// record, does not find it, runs the transaction again and applies the
// action once.
func TestDroppedCommitResolved(t *testing.T) {
	var f emulator.Faults
	s := faultyStore(t, &f)
	defer s.Close()
	var calls atomic.Int64
	f.DropCommits(1)
	rec, err := s.Apply(context.Background(), store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}, counted(&calls))
	if err != nil || rec.Version != 1 {
		t.Fatalf("Apply with its commit dropped = %+v, %v; want the applied record", rec, err)
	}
	if calls.Load() != 2 || f.Commits() != 1 {
		t.Errorf("mutator ran %d times, %d commits; want 2 and 1", calls.Load(), f.Commits())
	}
	if st := s.Stats(); st.Unknown != 1 || st.Resolved != 1 {
		t.Errorf("stats %+v; want 1 unknown outcome, resolved", st)
	}
	mustVersion(t, s, 1)
}

// TestUnresolvableIsUnavailable: the commit lands, its answer is lost and
// the database then stops answering. Apply gives up after the resolve
// timeout with ErrUnavailable (never ErrContention, which says nothing was
// written); once the database answers again, the retry with the same id
// replays the action that landed.
func TestUnresolvableIsUnavailable(t *testing.T) {
	var f emulator.Faults
	s := faultyStore(t, &f, fsstore.WithResolveTimeout(time.Second))
	defer s.Close()
	var calls atomic.Int64
	req := store.Request{GameID: "hot", ActionID: "a1", Actor: "u"}
	f.LoseCommitAnswers(1, true)
	_, err := s.Apply(context.Background(), req, counted(&calls))
	if !errors.Is(err, store.ErrUnavailable) || errors.Is(err, store.ErrContention) {
		t.Fatalf("Apply = %v; want ErrUnavailable", err)
	}
	f.Unblock()
	rec, err := s.Apply(context.Background(), req, counted(&calls))
	if err != nil || !rec.Replayed || rec.Version != 1 {
		t.Fatalf("retry = %+v, %v; want the landed action replayed", rec, err)
	}
	mustVersion(t, s, 1)

	// Without an action id there is no record to look up: unknown.
	f.LoseCommitAnswers(1, false)
	_, err = s.Apply(context.Background(), store.Request{GameID: "hot", Actor: "u"}, counted(&calls))
	if !errors.Is(err, store.ErrUnavailable) {
		t.Errorf("Apply without an action id, answer lost = %v; want ErrUnavailable", err)
	}
}
