package dungeonclient

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
)

func view(version uint64, more bool, marks []store.Mark, seqs ...uint64) any {
	v := View{State: engine.Public{GameID: "g", Version: version}, Events: []engine.Event{}, More: more, Reveals: marks}
	for _, s := range seqs {
		v.Events = append(v.Events, engine.Event{Seq: s, Type: engine.EvPlayerJoined, UID: "p1"})
	}
	return map[string]any{"result": v}
}

func pollerOf(t *testing.T, s *scripted) *Poller {
	c := scriptedClient(t, s)
	return &Poller{F: c.cfg.Functions, GameID: "g", Every: time.Millisecond}
}

func seqsOf(events []engine.Event) []uint64 {
	var out []uint64
	for _, e := range events {
		out = append(out, e.Seq)
	}
	return out
}

// TestPollerReadsEveryPage: a log longer than a page comes in pages, each
// asked after the last event of the one before; the update holds every
// event, and the state and markers of the last page.
func TestPollerReadsEveryPage(t *testing.T) {
	mark := []store.Mark{{UID: "p2", Index: 1}}
	s := &scripted{answers: []any{view(1, true, nil, 4, 5), view(2, true, nil, 6), view(3, false, mark, 7)}}
	up, err := pollerOf(t, s).Next(context.Background(), 3)
	require.NoError(t, err)
	require.Equal(t, []uint64{4, 5, 6, 7}, seqsOf(up.Events))
	require.Equal(t, uint64(3), up.State.Version)
	require.Equal(t, mark, up.Marks)
	require.Len(t, s.calls, 3)
	for i, after := range []float64{3, 5, 6} {
		require.Equal(t, after, s.calls[i]["afterSeq"], "page %d", i)
	}
}

// TestPollerWaitsForNews: Next returns only what differs from what it
// delivered last: the same state and markers without new events are
// polled again; another state, or other markers, are news.
func TestPollerWaitsForNews(t *testing.T) {
	mark := []store.Mark{{UID: "p2", Index: 1}}
	s := &scripted{answers: []any{view(1, false, nil, 1), view(1, false, nil), view(1, false, nil), view(2, false, nil), view(2, false, nil), view(2, false, mark)}}
	p := pollerOf(t, s)
	up, err := p.Next(context.Background(), 0)
	require.NoError(t, err)
	require.Equal(t, []uint64{1}, seqsOf(up.Events))
	up, err = p.Next(context.Background(), 1)
	require.NoError(t, err)
	require.Equal(t, uint64(2), up.State.Version, "the unchanged answers were polled past")
	require.Empty(t, up.Events)
	require.Len(t, s.calls, 4)
	up, err = p.Next(context.Background(), 1)
	require.NoError(t, err)
	require.Equal(t, mark, up.Marks, "other markers are news")
	require.Len(t, s.calls, 6)
}

// TestPollerPausesBetweenPolls: an unchanged view is polled again after
// Every, 250 ms when it is 0: within 100 ms, one poll (a Poller without
// a pause would poll the server as fast as it answers).
func TestPollerPausesBetweenPolls(t *testing.T) {
	s := &scripted{answers: []any{view(1, false, nil)}}
	p := pollerOf(t, s)
	_, err := p.Next(context.Background(), 0)
	require.NoError(t, err)
	p.Every = 0
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = p.Next(ctx, 0)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	s.mu.Lock()
	defer s.mu.Unlock()
	require.LessOrEqual(t, len(s.calls), 2, "the first view, and one poll in 100 ms (none on a machine too loaded to send it)")
}
