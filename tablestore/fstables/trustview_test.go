package fstables_test

import (
	"context"
	"encoding/json"
	"math"
	"sync/atomic"
	"testing"

	pb "cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/games/registry"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
	"github.com/fairboard/fairboard/tablestore/fstables"
	"github.com/fairboard/fairboard/tablestore/storetest"
)

// readCounter counts the documents a Firestore client is sent: those
// found by a BatchGetDocuments (every Get and GetAll) or a query.
type readCounter struct{ n atomic.Int64 }

func (c *readCounter) dial() grpc.DialOption {
	return grpc.WithStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string,
		streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		s, err := streamer(ctx, desc, cc, method, opts...)
		if err != nil {
			return nil, err
		}
		return &countedStream{ClientStream: s, c: c}, nil
	})
}

type countedStream struct {
	grpc.ClientStream
	c *readCounter
}

func (s *countedStream) RecvMsg(m any) error {
	err := s.ClientStream.RecvMsg(m)
	if err == nil {
		switch r := m.(type) {
		case *pb.BatchGetDocumentsResponse:
			if r.GetFound() != nil {
				s.c.n.Add(1)
			}
		case *pb.RunQueryResponse:
			if r.GetDocument() != nil {
				s.c.n.Add(1)
			}
		}
	}
	return err
}

// tailTwin is a trustseat.Server over a trustless table played on the
// in-memory store and on Firestore (twin); each seat reads Firestore's
// view of the moves its client has checked and no log, once it has
// checked some (tablestore.ViewAfter, as client.TrustTable's getView),
// which must be the in-memory store's, and the documents each view read
// are counted: head-only polls in heads, the others in whole.
//
// Every restart-th action of a seat (0: none), the seat's client
// restarts: the seat is made again from the secrets it exported after
// the action (trustseat.Restore, its checkpoint with them), and its next
// poll, the restored seat's first, is counted in restored, and in
// restoredHeads when it read the head alone.
type tailTwin struct {
	w       *twin
	reads   *readCounter
	seats   []*trustseat.Seat
	heads   int
	whole   int
	fresh   int
	chunks  int // the chunks a whole read read last
	restart int
	acts    int
	// restarted are the seats restored since their last poll, with the
	// moves their secrets' checkpoint holds.
	restarted               map[string]int
	restored, restoredHeads int
}

// head is what the table's head says its sealed chunks hold (read by
// another client, not counted).
func (s *tailTwin) head() (h struct {
	Chunks int `json:"chunks"`
	Moves  int `json:"moveBase"`
}) {
	snap, err := emu.Client(s.w.t).Doc("games/" + s.w.g + "/private/table").Get(context.Background())
	require.NoError(s.w.t, err)
	require.NoError(s.w.t, json.Unmarshal([]byte(snap.Data()["saved"].(string)), &h))
	return h
}

func (s *tailTwin) Do(a table.Action) (*table.Result, error) {
	r := s.w.do(a)
	if a.Kind != table.KindMove && a.Kind != table.KindReveal || s.restart == 0 {
		return r, nil
	}
	if s.acts++; s.acts%s.restart == 0 {
		for i, x := range s.seats {
			if x.UID() == a.Actor {
				back, err := trustseat.Restore(pig.Def, s.w.g, x.UID(), x.Index(), x.Export())
				require.NoError(s.w.t, err)
				require.Equal(s.w.t, x.Checked(), back.Checked(), "the restored seat resumes from its checkpoint")
				s.seats[i] = back // the slice Play holds
				s.restarted[x.UID()] = back.Checked()
			}
		}
	}
	return r, nil
}

func (s *tailTwin) View(uid string) (*table.View, error) {
	t, ctx := s.w.t, context.Background()
	if uid == "" {
		uid = s.seats[0].UID() // the public view is read as seat 0's (client.TrustTable.Public)
	}
	after := tablestore.After{}
	for _, x := range s.seats {
		if x.UID() == uid && x.Checked() > 0 {
			after = tablestore.After{Seq: math.MaxUint64, Moves: x.Checked()} // no log: a seat reads the protocol
		}
	}
	head := s.head()
	before := s.reads.n.Load()
	got, _, err := tablestore.ViewAfter(ctx, s.w.fs, s.w.g, uid, after)
	require.NoError(t, err)
	n := int(s.reads.n.Load() - before)
	want, _, err := tablestore.ViewAfter(ctx, s.w.mem, s.w.g, uid, after)
	require.NoError(t, err)
	cut := func(v *table.View) []table.Event {
		var out []table.Event
		for _, e := range v.Log {
			if uint64(e.Seq) > after.Seq {
				out = append(out, e)
			}
		}
		return out
	}
	require.Equal(t, cut(want), cut(got))
	got.Log = want.Log
	require.Equal(t, want, got, "the same view on both stores")
	if p := got.Trustless.Pending; p != nil {
		for _, m := range p.Reveals { // what each seat signed over, from the saved round
			require.Equal(t, [3]any{p.Index, p.Digest, p.Transcript}, [3]any{m.Index, m.Digest, m.Transcript}, "seat %d's marker", m.Seat)
		}
	}
	if after.Moves > 0 {
		require.Equal(t, after.Moves, got.Trustless.MovesBase, "the moves after the checkpoint")
	}
	cp, restored := s.restarted[uid]
	if restored {
		delete(s.restarted, uid)
		require.Equal(t, cp, after.Moves, "a restored seat's first poll asks from its checkpoint")
		s.restored++
	}
	if head.Chunks == 0 || after.Moves > 0 && after.Moves >= head.Moves { // nothing sealed, or the client checked every sealed move (and asks for no log)
		require.Equal(t, 1, n, "a poll from past the %d sealed moves (checked %d) reads the head alone", head.Moves, after.Moves)
		s.heads++
		if restored && head.Chunks > 0 {
			s.restoredHeads++
		}
	} else {
		require.Equal(t, 1+head.Chunks, n, "a poll from before the %d sealed moves (checked %d) reads the head and its %d chunks", head.Moves, after.Moves, head.Chunks)
		s.whole++
		s.chunks = head.Chunks
		if after.Moves == 0 {
			s.fresh++
		}
	}
	return got, nil
}

// A long trustless Pig game on a store that seals every 4 events: each
// seat reads Firestore's view of the moves after those its client
// checked (no log: the seat reads the protocol), which is the in-memory store's (its moves those
// after the checkpoint), and checks it from its own checkpoint; a poll
// by a client whose checkpoint is past the sealed moves reads the head
// alone (1 document), one from before them the head and every chunk
// (chunks of 4 events seal every move or two, so a seat's checkpoint,
// which moves on at its own actions, is often behind). Every 5th action
// its seat is restored from the secrets it exported (a restart): its
// first poll asks from their checkpoint, reading the head alone when that
// is past the sealed moves. At the end, a seat restored from its secrets
// reads the head alone, and one restored from them without their
// checkpoint (a blob written before checkpoints: it has checked nothing)
// reads the head and every chunk (the positive control of the count).
func TestFirestoreTrustlessViewFromCheckpoint(t *testing.T) {
	const chunk, g = 4, "fs-tl-tail"
	ctx := context.Background()
	emu.Require(t)
	emu.Reset(t)
	reads := &readCounter{}
	fs := fstables.NewChunked(emu.Client(t, reads.dial()), registry.Lookup, chunk)
	w := &twin{t: t, mem: tablestore.NewMemory(registry.Lookup), fs: fs, g: g}
	req := table.CreateRequest{Actor: storetest.UID(0), ActionID: "c", Mode: "trustless", Rules: []byte(`{"goal":60,"dieSides":6}`)}
	_, err := w.mem.Create(ctx, g, "pig", req)
	require.NoError(t, err)
	_, err = fs.Create(ctx, g, "pig", req)
	require.NoError(t, err)
	pub, _, err := fs.View(ctx, g, "")
	require.NoError(t, err)
	srv := &tailTwin{w: w, reads: reads, restart: 5, restarted: map[string]int{}}
	srv.seats = make([]*trustseat.Seat, 2)
	for i := range srv.seats {
		srv.seats[i], err = trustseat.New(pig.Def, g, storetest.UID(i), i, pub.Trustless.ChainLength)
		require.NoError(t, err)
		_, err = srv.Do(srv.seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = srv.Do(table.Action{Actor: storetest.UID(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	rolls := 0
	choose := func(v *table.View) game.Move {
		for _, mv := range v.Legal {
			if mv.Kind == pig.KindHold && rolls >= 3 {
				rolls = 0
				return mv
			}
		}
		rolls++
		return game.Move{Kind: pig.KindRoll}
	}
	end, err := trustseat.Play(srv, srv.seats, choose, nil, 20000)
	require.NoError(t, err)
	require.Equal(t, table.PhaseFinished, end.Phase)
	docs := privateDocs(t, g)
	chunks := countPrefix(docs, "c-")
	require.Greater(t, chunks, 8)
	t.Logf("polls: %d of the head alone, %d whole (%d of a fresh client); %d chunks; %d restarts, whose first polls read the head alone %d times",
		srv.heads, srv.whole, srv.fresh, chunks, srv.restored, srv.restoredHeads)
	require.Greater(t, srv.heads, 5)
	require.Greater(t, srv.restored, 10)
	require.Positive(t, srv.restoredHeads, "a restored seat's first poll from past the sealed moves read the head alone")

	// A client that checked every move reads the head alone, and no move.
	s := srv.seats[1]
	v, err := srv.View(s.UID())
	require.NoError(t, err)
	_, _ = s.Move("x", v, game.Move{Kind: pig.KindRoll}) // checks the view (the game is over: no move); never sent
	require.Equal(t, end.Trustless.Played(), s.Checked())
	before := srv.heads
	v, err = srv.View(s.UID())
	require.NoError(t, err)
	require.Equal(t, before+1, srv.heads)
	require.Equal(t, s.Checked(), v.Trustless.MovesBase)
	require.Empty(t, v.Trustless.Moves)

	// The same seat restored from its secrets (a restart, a fresh
	// device given them) resumes from their checkpoint: it reads the head
	// alone, and no move.
	back, err := trustseat.Restore(pig.Def, g, s.UID(), s.Index(), s.Export())
	require.NoError(t, err)
	require.Equal(t, s.Checked(), back.Checked())
	srv.seats[1] = back
	before = srv.heads
	v, err = srv.View(s.UID())
	require.NoError(t, err)
	require.Equal(t, before+1, srv.heads, "the restored seat's poll read the head alone")
	require.Equal(t, s.Checked(), v.Trustless.MovesBase)
	require.Empty(t, v.Trustless.Moves)
	_, _ = back.Move("x", v, game.Move{Kind: pig.KindRoll}) // checks the view from its checkpoint
	require.Equal(t, end.Trustless.Played(), back.Checked())

	// The control: the same seat restored from its secrets without their
	// checkpoint (a blob written before checkpoints) has checked nothing
	// and reads the head and every chunk.
	bare, err := trustseat.WithoutCheckpoint(s.Export())
	require.NoError(t, err)
	fresh, err := trustseat.Restore(pig.Def, g, s.UID(), s.Index(), bare)
	require.NoError(t, err)
	srv.seats[1] = fresh
	before = srv.whole
	v, err = srv.View(s.UID())
	require.NoError(t, err)
	require.Equal(t, before+1, srv.whole)
	require.Equal(t, chunks, srv.chunks, "the fresh client's poll read every chunk")
	require.Zero(t, v.Trustless.MovesBase)
	require.Len(t, v.Trustless.Moves, s.Checked())
}
