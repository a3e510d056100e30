package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/tablestore"
)

// AuditStore is a Store that reads a table's audit ring.
type AuditStore interface {
	tablestore.Store
	tablestore.AuditReader
}

// AuditAt is the time (unix ms) PlayAudited sends the start with; move i
// goes at AuditAt+1+i.
const AuditAt = 1_700_000_000_000

// PlayAudited creates the seeded table g of def at n seats with audit as
// asked, starts it at AuditAt and plays it to its end (at most max
// moves) as PlayOut does, move i sent at AuditAt+1+i. It returns the
// moves.
func PlayAudited(t testing.TB, s tablestore.Store, def game.Definition, g, seed string, n int, on bool, max int) []game.Move {
	t.Helper()
	ctx := context.Background()
	_, err := s.Create(ctx, g, def.Name(), table.CreateRequest{Actor: UID(0), ActionID: "create", Mode: rng.ModeSeeded, Seed: seed, Seats: n, Audit: on})
	require.NoError(t, err)
	v := uint64(1)
	for i := range n {
		res, err := s.Do(ctx, g, table.Action{Actor: UID(i), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: i, At: AuditAt - 1})
		require.NoError(t, err)
		v = res.Version
	}
	_, err = s.Do(ctx, g, table.Action{Actor: UID(0), ActionID: "start", Version: v, Kind: table.KindStart, At: AuditAt})
	require.NoError(t, err)
	bots, err := rng.NewSeeded(seed + "/bots")
	require.NoError(t, err)
	bot := match.NewRandom(bots)
	var moves []game.Move
	for range max {
		pub, _, err := s.View(ctx, g, "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			return moves
		}
		who := pub.Seats[pub.ToMove].UID
		v, _, err := s.View(ctx, g, who)
		require.NoError(t, err)
		mv := bot.Choose(nil, v.Seat, v.Legal)
		_, err = s.Do(ctx, g, table.Action{Actor: who, ActionID: fmt.Sprintf("m%d", len(moves)), Version: v.Version,
			Kind: table.KindMove, Move: game.AppendMoveJSON(nil, def.Kinds(), mv), At: AuditAt + 1 + int64(len(moves))})
		require.NoError(t, err)
		moves = append(moves, mv)
	}
	return moves
}

// ReplayAudit plays moves again on a match of its own (match.New on the
// seed, n seats, the default ruleset: not the store) and returns every
// audit entry it draws, stamped with the time PlayAudited sent the
// action that drew it.
func ReplayAudit(t testing.TB, def game.Definition, seed string, n int, moves []game.Move) []audit.Entry {
	t.Helper()
	var out []audit.Entry
	at := int64(AuditAt)
	m, err := match.New(def, match.Config{Mode: rng.ModeSeeded, Seed: seed, Seats: make([]game.Seat, n),
		Auditor: rng.AuditorFunc(func(e rng.Entry) { out = append(out, audit.Entry{Entry: e, TS: at}) })})
	require.NoError(t, err)
	for i, mv := range moves {
		at = AuditAt + 1 + int64(i)
		_, err := m.Apply(mv)
		require.NoError(t, err)
	}
	return out
}

// CheckAudit plays a seeded game of def at n seats through s with audit
// on, and another with audit off: the first's ring is the last
// audit.RingSize entries a match of its own draws on the same seed and
// moves (seq, tag, context, values and the action's time), the
// second's is empty, and a table that is not is not_created.
func CheckAudit(t *testing.T, s AuditStore, def game.Definition, g string, n int) {
	ctx := context.Background()
	seed := "tablestore-audit-" + g
	moves := PlayAudited(t, s, def, g, seed, n, true, 2000)
	want := ReplayAudit(t, def, seed, n, moves)
	require.NotEmpty(t, want)
	ring, err := s.Audit(ctx, g)
	require.NoError(t, err)
	require.Equal(t, want[max(0, len(want)-audit.RingSize):], ring)

	off := PlayAudited(t, s, def, g+"-off", seed, n, false, 2000)
	require.Equal(t, moves, off, "audit changes no draw")
	ring, err = s.Audit(ctx, g+"-off")
	require.NoError(t, err)
	require.Empty(t, ring)
	_, err = s.Audit(ctx, g+"-none")
	require.ErrorIs(t, err, table.CodeNotCreated)
}
