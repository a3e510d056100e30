package table_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// commitTo is the commitment of docs/fairness.md ("Openings") written
// out from the document, not through rng/fair: SHA-256(field(domain) ‖
// field(gameId) ‖ u32(seat) ‖ field(c)), field(b) = u32(len b) ‖ b, big
// endian.
func commitTo(gameID string, seat uint32, cHex string) string {
	c, err := hex.DecodeString(cHex)
	if err != nil {
		panic(err)
	}
	var b []byte
	for _, f := range [][]byte{[]byte("fairboard/fair-commit/v1"), []byte(gameID)} {
		b = binary.BigEndian.AppendUint32(b, uint32(len(f)))
		b = append(b, f...)
	}
	b = binary.BigEndian.AppendUint32(b, seat)
	b = binary.BigEndian.AppendUint32(b, uint32(len(c)))
	b = append(b, c...)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

var contribs = []string{strings.Repeat("a1", 32), strings.Repeat("07", 32)}

// openLobby creates the fair Pig table g with openings (deadline 5 s) and
// seats u0 and u1 with their commitments; it returns the version.
func openLobby(t *testing.T, s *table.Memory, g string) uint64 {
	t.Helper()
	_, err := s.Create(g, pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2, Openings: true, DeadlineMs: 5000})
	require.NoError(t, err)
	v := uint64(1)
	for i := range 2 {
		res, err := s.Do(g, table.Action{Actor: uid(i), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: i, EntropyCommitment: commitTo(g, uint32(i), contribs[i])})
		require.NoError(t, err)
		v = res.Version
	}
	return v
}

// do applies a and returns the new version, or fails the test.
func do(t *testing.T, s *table.Memory, g string, a table.Action) uint64 {
	t.Helper()
	res, err := s.Do(g, a)
	require.NoError(t, err)
	return res.Version
}

// A fair table with openings: the seats commit at join, open once every
// seat is taken, and the game seed is the fair one of the opened
// contributions; nothing a reader sees holds a contribution before the
// end (the control: at the end every view holds both); the record
// verifies, and the record with a commitment changed is refused by name
// (the commitment check's positive control: the seed check alone would
// pass it).
func TestFairTableWithOpenings(t *testing.T) {
	s := table.NewMemory()
	v := openLobby(t, s, "op")
	pub, err := s.View("op", "")
	require.NoError(t, err)
	require.Equal(t, []string{commitTo("op", 0, contribs[0]), commitTo("op", 1, contribs[1])}, pub.Fairness.Openings.Commitments)
	require.Equal(t, []bool{false, false}, pub.Fairness.Openings.Opened)
	require.Zero(t, pub.Fairness.Openings.Deadline)
	require.Empty(t, s.Due(1<<62, 0), "no opening awaited: not due")

	v = do(t, s, "op", table.Action{Actor: uid(1), ActionID: "open", Version: v, Kind: table.KindOpen, Entropy: strings.ToUpper(contribs[1]), At: 1000})
	pub, err = s.View("op", "")
	require.NoError(t, err)
	require.Equal(t, int64(6000), pub.Fairness.Openings.Deadline)
	require.Equal(t, []string{"op"}, s.Due(6000, 0))
	v = do(t, s, "op", table.Action{Actor: uid(0), ActionID: "open", Version: v, Kind: table.KindOpen, Entropy: contribs[0], At: 2000})
	require.Empty(t, s.Due(1<<62, 0), "every seat opened: nothing due")
	for _, who := range []string{"", uid(0), uid(1)} {
		vw, err := s.View("op", who)
		require.NoError(t, err)
		b, err := json.Marshal(vw)
		require.NoError(t, err)
		for _, c := range contribs {
			require.NotContains(t, strings.ToLower(string(b)), c, "%q's view before the end", who)
		}
	}
	do(t, s, "op", table.Action{Actor: uid(0), ActionID: "start", Version: v, Kind: table.KindStart})
	finish(t, s, "op")

	end, err := s.View("op", uid(1))
	require.NoError(t, err)
	b, err := json.Marshal(end)
	require.NoError(t, err)
	for _, c := range contribs {
		require.Contains(t, string(b), c, "the end reveals every contribution")
	}
	wantSeed, err := match.GameSeedHex(serverSeed, contribs)
	require.NoError(t, err)
	require.Equal(t, wantSeed, end.Fairness.GameSeedHex)

	rec, err := s.Record("op", uid(0))
	require.NoError(t, err)
	require.Equal(t, &match.RecordOpenings{GameID: "op", CommitmentsHex: []string{commitTo("op", 0, contribs[0]), commitTo("op", 1, contribs[1])}}, rec.Fairness.Openings)
	div, err := match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.NoError(t, div)
	rec.Fairness.Openings.CommitmentsHex[1] = commitTo("op", 1, strings.Repeat("08", 32))
	div, err = match.CheckRecord(pig.Def, rec)
	require.NoError(t, err)
	require.ErrorContains(t, div, "seat 1's contribution does not open its commitment")
}

// finish plays the started table g to its end with a seeded random bot.
func finish(t *testing.T, s *table.Memory, g string) {
	t.Helper()
	bots, err := rng.NewSeeded("openings/bots")
	require.NoError(t, err)
	bot := match.NewRandom(bots)
	for i := 0; ; i++ {
		require.Less(t, i, 5000, "the game does not end")
		pub, err := s.View(g, "")
		require.NoError(t, err)
		if pub.Phase == table.PhaseFinished {
			return
		}
		who := pub.Seats[pub.ToMove].UID
		vw, err := s.View(g, who)
		require.NoError(t, err)
		mv := bot.Choose(nil, vw.Seat, vw.Legal)
		do(t, s, g, table.Action{Actor: who, ActionID: fmt.Sprintf("m%d", i), Version: vw.Version,
			Kind: table.KindMove, Move: game.AppendMoveJSON(nil, pig.Def.Kinds(), mv)})
	}
}

// Every refusal of the openings, each forced: at create (openings
// outside fair mode, a deadline out of range), at join (no commitment,
// entropy instead, a malformed commitment, a commitment at a table
// without openings), at open (a table without openings, a free seat, a
// reader without a seat, a short or non-hex contribution, one that does
// not open the commitment, a second opening), after the first opening (a
// leave, a removal), and the start before every seat opened. A refusal
// changes nothing: the version stays.
func TestOpeningsRefusals(t *testing.T) {
	s := table.NewMemory()
	for _, req := range []table.CreateRequest{
		{Actor: uid(0), ActionID: "c", Mode: rng.ModeCrypto, Seats: 2, Openings: true},
		{Actor: uid(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2, Openings: true, DeadlineMs: 999},
		{Actor: uid(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2, DeadlineMs: 5000},
	} {
		_, err := s.Create("bad", pig.Def, req)
		require.ErrorIs(t, err, table.CodeBadSetup, "%+v", req)
	}
	_, err := s.Create("plain", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "c", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2})
	require.NoError(t, err)
	_, err = s.Do("plain", table.Action{Actor: uid(0), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0, EntropyCommitment: commitTo("plain", 0, contribs[0])})
	require.ErrorIs(t, err, table.CodeBadEntropy)
	v := do(t, s, "plain", table.Action{Actor: uid(0), ActionID: "j", Version: 1, Kind: table.KindJoin, Seat: 0})
	_, err = s.Do("plain", table.Action{Actor: uid(0), ActionID: "o", Version: v, Kind: table.KindOpen, Entropy: contribs[0]})
	require.ErrorIs(t, err, table.CodeInvalidAction)

	_, err = s.Create("op", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2, Openings: true, DeadlineMs: 5000})
	require.NoError(t, err)
	join := func(seat int, mod func(a *table.Action)) error {
		a := table.Action{Actor: uid(seat), ActionID: "join", Version: 1, Kind: table.KindJoin, Seat: seat, EntropyCommitment: commitTo("op", uint32(seat), contribs[seat])}
		mod(&a)
		_, err := s.Do("op", a)
		return err
	}
	require.ErrorIs(t, join(0, func(a *table.Action) { a.EntropyCommitment = "" }), table.CodeBadEntropy)
	require.ErrorIs(t, join(0, func(a *table.Action) { a.Entropy = contribs[0] }), table.CodeBadEntropy)
	require.ErrorIs(t, join(0, func(a *table.Action) { a.EntropyCommitment = a.EntropyCommitment[2:] }), table.CodeBadEntropy)
	require.ErrorIs(t, join(0, func(a *table.Action) { a.EntropyCommitment = "zz" + a.EntropyCommitment[2:] }), table.CodeBadEntropy)
	require.NoError(t, join(0, func(*table.Action) {}))
	open := func(who int, version uint64, c string) error {
		_, err := s.Do("op", table.Action{Actor: uid(who), ActionID: "open" + c[:4], Version: version, Kind: table.KindOpen, Entropy: c, At: 1000})
		return err
	}
	require.ErrorIs(t, open(0, 2, contribs[0]), table.CodeTooFewPlayers)
	v = 2
	v = do(t, s, "op", table.Action{Actor: uid(1), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: 1, EntropyCommitment: commitTo("op", 1, contribs[1])})
	require.ErrorIs(t, open(2, v, contribs[0]), table.CodeNotSeated)
	require.ErrorIs(t, open(0, v, contribs[0][:62]), table.CodeBadEntropy)
	require.ErrorIs(t, open(0, v, "zz"+contribs[0][2:]), table.CodeBadEntropy)
	require.ErrorIs(t, open(0, v, contribs[1]), table.CodeWrongOpening, "another seat's contribution")
	require.ErrorIs(t, open(1, v, strings.Repeat("08", 32)), table.CodeWrongOpening)
	_, err = s.Do("op", table.Action{Actor: uid(0), ActionID: "start0", Version: v, Kind: table.KindStart})
	require.ErrorIs(t, err, table.CodeNotOpened)
	require.NoError(t, open(0, v, contribs[0]))
	v++
	require.ErrorIs(t, open(0, v, strings.Repeat("0a", 32)), table.CodeAlreadyOpened)
	_, err = s.Do("op", table.Action{Actor: uid(1), ActionID: "leave", Version: v, Kind: table.KindLeave})
	require.ErrorIs(t, err, table.CodeAlreadyStarted)
	_, err = s.Do("op", table.Action{Actor: uid(0), ActionID: "rm", Version: v, Kind: table.KindRemoveSeat, Seat: 1})
	require.ErrorIs(t, err, table.CodeAlreadyStarted)
	_, err = s.Do("op", table.Action{Actor: uid(0), ActionID: "start1", Version: v, Kind: table.KindStart})
	require.ErrorIs(t, err, table.CodeNotOpened)
	require.ErrorContains(t, err, "[1]")
	pub, err := s.View("op", "")
	require.NoError(t, err)
	require.Equal(t, v, pub.Version, "no refusal changed the table")
	require.Equal(t, []bool{true, false}, pub.Fairness.Openings.Opened)
}

// Before the first opening a seat may leave, and its commitment goes
// with it: the next player's join commits afresh.
func TestOpeningsLeaveBeforeTheFirst(t *testing.T) {
	s := table.NewMemory()
	v := openLobby(t, s, "lv")
	v = do(t, s, "lv", table.Action{Actor: uid(1), ActionID: "leave", Version: v, Kind: table.KindLeave})
	pub, err := s.View("lv", "")
	require.NoError(t, err)
	require.Equal(t, "", pub.Fairness.Openings.Commitments[1])
	c := commitTo("lv", 1, contribs[0])
	do(t, s, "lv", table.Action{Actor: uid(2), ActionID: "join", Version: v, Kind: table.KindJoin, Seat: 1, EntropyCommitment: c})
	pub, err = s.View("lv", "")
	require.NoError(t, err)
	require.Equal(t, c, pub.Fairness.Openings.Commitments[1])
}

// A seat that never opens: the abort before the first opening and
// before the deadline is refused, after it the table ends naming the
// seat (the sweep's path: DueAt, the server's abort with SweepActionID,
// its retry replayed); the table saved and restored between the
// openings goes on the same.
func TestUnopenedSeatAborts(t *testing.T) {
	tbl, _, err := table.Create(pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeFair, ServerSeed: serverSeed, Seats: 2, Openings: true, DeadlineMs: 5000, GameID: "un"})
	require.NoError(t, err)
	for i := range 2 {
		_, err := tbl.Do(table.Action{Actor: uid(i), ActionID: "join", Version: tbl.Version(), Kind: table.KindJoin, Seat: i, EntropyCommitment: commitTo("un", uint32(i), contribs[i])})
		require.NoError(t, err)
	}
	abort := table.Action{Actor: table.ServerActor, ActionID: table.SweepActionID, Kind: table.KindAbort, At: 99_999}
	_, err = tbl.Do(abort)
	require.ErrorIs(t, err, table.CodeWrongIndex, "nothing to abort before the first opening")
	_, err = tbl.Do(table.Action{Actor: uid(0), ActionID: "open", Version: tbl.Version(), Kind: table.KindOpen, Entropy: contribs[0], At: 10_000})
	require.NoError(t, err)

	saved, err := tbl.Save()
	require.NoError(t, err)
	tbl, err = table.Restore(pig.Def, saved)
	require.NoError(t, err)
	require.Equal(t, int64(15_000), tbl.DueAt(), "the restored table keeps its openings")
	require.False(t, tbl.AbortDue(15_000))
	require.True(t, tbl.AbortDue(15_001))

	abort.At = 15_000
	_, err = tbl.Do(abort)
	require.ErrorIs(t, err, table.CodeDeadlineNotPassed)
	abort.At = 15_001
	res, err := tbl.Do(abort)
	require.NoError(t, err)
	require.Equal(t, []string{table.AbortUnopened, uid(1)}, res.Events[len(res.Events)-1].Options)
	again, err := tbl.Do(abort)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	end := tbl.View("")
	require.Equal(t, &table.Outcome{Abandoned: true, Reason: table.AbortUnopened, Missing: []int{1}}, end.Outcome)
	require.Zero(t, tbl.DueAt())
	require.Equal(t, []string{contribs[0], ""}, end.Fairness.ContributionsHex, "the end reveals what was opened")
}

// openingsRefusals is TestEveryRefusal's part for the openings: each
// refusal leaves the table byte for byte as it was.
func openingsRefusals(t *testing.T, s *table.Memory, seen map[table.Code]bool) {
	t.Helper()
	v := openLobby(t, s, "orf")
	open := func(who int, c string) table.Action {
		return table.Action{Actor: uid(who), ActionID: "o" + c[:4], Version: v, Kind: table.KindOpen, Entropy: c, At: 1000}
	}
	refuseAll(t, s, "orf", []refusal{
		{"open another's", open(0, contribs[1]), table.CodeWrongOpening, "does not open seat 0's commitment"},
		{"open short", open(0, contribs[0][:60]), table.CodeBadEntropy, "64 hex digits"},
		{"start unopened", table.Action{Actor: uid(0), ActionID: "s", Version: v, Kind: table.KindStart}, table.CodeNotOpened, "[0 1]"},
	}, seen)
	v = do(t, s, "orf", open(0, contribs[0]))
	again := open(0, contribs[0])
	again.ActionID = "again"
	refuseAll(t, s, "orf", []refusal{
		{"open again", again, table.CodeAlreadyOpened, ""},
		{"leave once opened", table.Action{Actor: uid(1), ActionID: "l", Version: v, Kind: table.KindLeave}, table.CodeAlreadyStarted, "fixed by the first opening"},
		{"abort early", table.Action{Actor: table.ServerActor, ActionID: "ab", Kind: table.KindAbort, At: 6000}, table.CodeDeadlineNotPassed, ""},
	}, seen)
}
