package play_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	fbmatch "github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/table"
)

// A trustless seat's checkpoint on the page (docs/store.md, "The saved
// table's parts"; tabletrustview.ts): a seated page's poll sends getView
// the moves its seat has checked (checkedMoves), and is answered only the
// moves after them; a seat that has checked none sends none and reads
// every move. The checks below run inside TestTrustlessPigInChromium's
// game (no game of their own).

// callTrust is the trustless protocol of a getView answer, or nil.
func callTrust(t *testing.T, c viewCall) *table.TrustlessView {
	t.Helper()
	var v struct {
		Trustless *table.TrustlessView `json:"trustless"`
	}
	if len(c.raw) == 0 {
		return nil
	}
	require.NoError(t, json.Unmarshal(c.raw, &v))
	return v.Trustless
}

// seatCheckpoints reads, at a quiet moment of a trustless table (no round
// open, only the page to move about to act), each page's seat checkpoint
// from its WebAssembly (fairboard.tableChecked), above 0 by then, and
// waits for each page's next getView: it carries exactly that count as
// checkedMoves and is answered the moves after it (MovesBase).
func seatCheckpoints(t *testing.T, srv *server, id string, players ...*player) {
	t.Helper()
	from := len(srv.viewCalls())
	want := map[string]int{}
	for _, p := range players {
		n, err := strconv.Atoi(p.String(`String(fairboard.tableChecked("` + id + `", "` + p.uid + `").checked)`))
		require.NoError(t, err)
		require.Positive(t, n, "%s's seat has checked moves by now", p.name)
		want[p.uid] = n
	}
	got := map[string]viewCall{}
	require.Eventually(t, func() bool {
		for _, c := range srv.viewCalls()[from:] {
			if _, ok := want[c.uid]; ok && got[c.uid].uid == "" {
				got[c.uid] = c
			}
		}
		return len(got) == len(want)
	}, time.Minute, 20*time.Millisecond, "each page polls again")
	for uid, c := range got {
		require.Equal(t, want[uid], c.checked, "%s's poll sends its seat's checkpoint", uid)
		tv := callTrust(t, c)
		require.NotNil(t, tv)
		require.Equal(t, want[uid], tv.MovesBase, "%s's poll is answered the moves after its checkpoint", uid)
	}
	t.Logf("the seats' checkpoints at a quiet moment: %v", want)
}

// checkpointPolls checks every getView of the seated pages against the
// finished table's record (the independent source of the moves): a poll
// that sent checkedMoves n was answered the record's moves from move n+1
// on (MovesBase n); one that sent none (each page's first, and those
// before its seat first checked a move) every move from the first (the
// control: the same reading of an answer finds every move in it). Each
// page's checkpoint never goes back, its first poll sends none, and the
// pages' polls include both kinds, some without a checkpoint answered
// moves.
func checkpointPolls(t *testing.T, srv *server, rec *fbmatch.Record, players ...*player) {
	t.Helper()
	seated := map[string]bool{}
	for _, p := range players {
		seated[p.uid] = true
	}
	last := map[string]int{}
	after, whole, wholeMoves := 0, 0, 0
	for i, c := range srv.viewCalls() {
		tv := callTrust(t, c)
		if !seated[c.uid] || tv == nil {
			continue
		}
		if _, seen := last[c.uid]; !seen {
			require.Zero(t, c.checked, "%s's first poll sends no checkpoint", c.uid)
		}
		require.GreaterOrEqual(t, c.checked, last[c.uid], "call %d: %s's checkpoint went back", i, c.uid)
		last[c.uid] = c.checked
		require.Equal(t, c.checked, tv.MovesBase, "call %d (%s, checkedMoves %d): the moves start after the checkpoint", i, c.uid, c.checked)
		require.LessOrEqual(t, tv.MovesBase+len(tv.Moves), min(len(rec.Moves), len(rec.Trustless.Moves)), "call %d", i)
		for k, m := range tv.Moves {
			// The record keeps the move itself in its Moves, not in its
			// protocol's.
			n := tv.MovesBase + k
			require.JSONEq(t, string(rec.Moves[n]), m.Move, "call %d: move %d is the record's", i, n+1)
			m.Move = ""
			require.Equal(t, rec.Trustless.Moves[n], m, "call %d: move %d's protocol is the record's", i, n+1)
		}
		if c.checked > 0 {
			after++
		} else {
			whole++
			if len(tv.Moves) > 0 {
				wholeMoves++
			}
		}
	}
	t.Logf("the pages' polls: %d from a checkpoint, %d of every move (%d of them with moves)", after, whole, wholeMoves)
	require.Positive(t, after, "polls sent their seat's checkpoint")
	require.Positive(t, wholeMoves, "a poll without one read every move")
	for _, p := range players {
		require.Positive(t, last[p.uid], "%s's polls sent a checkpoint", p.name)
	}
}
