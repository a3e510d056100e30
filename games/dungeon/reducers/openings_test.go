package reducers_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng/fair"
)

// contribution is seat i's 32-byte contribution in these tests, and
// commit its commitment in game "g".
func contribution(i int) []byte {
	c := sha256.Sum256([]byte{byte(i)})
	return c[:]
}

func commit(i int) string {
	c := fair.ContributionCommitment("g", uint32(i), contribution(i))
	return hex.EncodeToString(c[:])
}

// openingsTable is a fair game with openings, players p1..pn joined with
// their commitments.
func openingsTable(t *testing.T, n int) *table {
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "fair", ServerSeed: strings.Repeat("07", 32), Openings: true, At: 1000})
	require.True(t, tb.g.Public.Fairness.Openings)
	require.Equal(t, int64(engine.DefaultDeadlineMs), tb.g.Public.Fairness.DeadlineMs)
	for i := range n {
		tb.must(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: engine.Classes[i%4], EntropyCommitment: commit(i), At: 2000})
	}
	return tb
}

// refused requires a to be refused with code and the game unchanged.
func (tb *table) refused(a engine.Action, code engine.Code) {
	tb.t.Helper()
	before, _ := tb.g.CanonicalJSON()
	err := tb.do(a)
	require.ErrorIs(tb.t, err, code, "%s by %s", a.Kind, a.Actor)
	after, _ := tb.g.CanonicalJSON()
	require.True(tb.t, bytes.Equal(before, after), "a refused %s changed the game", a.Kind)
}

func open(i int, at int64) engine.Action {
	return engine.Action{Kind: engine.ActOpen, Actor: policy.UID(i), Entropy: hex.EncodeToString(contribution(i)), At: at}
}

// TestOpenings: contributions are committed at join and opened before the
// start; the start waits for every seat; a wrong or short contribution,
// a second opening and a join after the first opening are refused; the
// game seed is made of the opened contributions.
func TestOpenings(t *testing.T) {
	tb := openingsTable(t, 3)
	joined := tb.events(engine.EvPlayerJoined)
	require.Equal(t, commit(1), joined[1].Keys.EntropyCommitment.String(), "the commitment is public")
	// Joins without a commitment, or with the entropy itself.
	tb.refused(engine.Action{Kind: engine.ActJoin, Actor: "p9", Seat: 3, Class: engine.ClassMonk}, engine.CodeInvalidAction)
	tb.refused(engine.Action{Kind: engine.ActJoin, Actor: "p9", Seat: 3, Class: engine.ClassMonk, EntropyCommitment: commit(3),
		Entropy: hex.EncodeToString(contribution(3))}, engine.CodeInvalidAction)
	tb.refused(engine.Action{Kind: engine.ActStart, Actor: "p1"}, engine.CodeNotOpened)
	err := tb.do(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	require.ErrorContains(t, err, "p1, p2, p3")

	// Another seat's contribution, one bit off, too short, by a stranger.
	wrong := open(0, 5000)
	wrong.Entropy = hex.EncodeToString(contribution(1))
	tb.refused(wrong, engine.CodeWrongOpening)
	flipped := contribution(0)
	flipped[31] ^= 1
	wrong.Entropy = hex.EncodeToString(flipped)
	tb.refused(wrong, engine.CodeWrongOpening)
	wrong.Entropy = "00"
	tb.refused(wrong, engine.CodeInvalidAction)
	stranger := open(0, 5000)
	stranger.Actor = "mallory"
	tb.refused(stranger, engine.CodeUnknownPlayer)

	tb.must(open(0, 5000))
	require.Equal(t, int64(5000+engine.DefaultDeadlineMs), tb.g.Public.Fairness.OpenDeadline)
	tb.refused(open(0, 5001), engine.CodeAlreadyOpened)
	tb.refused(engine.Action{Kind: engine.ActJoin, Actor: "p4", Seat: 3, Class: engine.ClassMonk, EntropyCommitment: commit(3)}, engine.CodeAlreadyStarted)
	tb.must(open(2, 5002))
	tb.refused(engine.Action{Kind: engine.ActStart, Actor: "p1"}, engine.CodeNotOpened)
	tb.must(open(1, 5003))
	opened := tb.events(engine.EvEntropyOpened)
	require.Len(t, opened, 3)
	// Nothing public holds a contribution before the end.
	pub, _ := json.Marshal(tb.g.Public)
	for i := range 3 {
		require.NotContains(t, string(pub), hex.EncodeToString(contribution(i)))
		for _, e := range tb.log {
			require.NotContains(t, string(e.AppendJSON(nil)), hex.EncodeToString(contribution(i)))
		}
	}
	tb.must(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	seed, _ := fair.ParseServerSeed(strings.Repeat("07", 32))
	gs := fair.GameSeed(seed[:], [][]byte{contribution(0), contribution(1), contribution(2)})
	require.Equal(t, hex.EncodeToString(gs[:]), tb.g.Secret.GameSeed)
	require.NoError(t, tb.g.Check(engine.DefaultRules()))
}

// TestRemoveUnopenedSeat: the owner may remove a seat that has not opened
// only after the public deadline that the first opening started; each
// removal is public and counted; the game then starts without it.
func TestRemoveUnopenedSeat(t *testing.T) {
	tb := openingsTable(t, 3)
	remove := engine.Action{Kind: engine.ActRemoveSeat, Actor: "p1", Target: "p3"}
	remove.At = 9000
	tb.refused(remove, engine.CodeDeadlineNotPassed) // no opening yet
	tb.must(open(0, 10_000))
	tb.must(open(1, 10_001))
	deadline := tb.g.Public.Fairness.OpenDeadline
	remove.At = deadline
	tb.refused(remove, engine.CodeDeadlineNotPassed)
	remove.At = deadline + 1
	byOther := remove
	byOther.Actor = "p2"
	tb.refused(byOther, engine.CodeNotOwner)
	opened := remove
	opened.Target = "p2"
	tb.refused(opened, engine.CodeInvalidAction)
	nobody := remove
	nobody.Target = "p9"
	tb.refused(nobody, engine.CodeUnknownPlayer)
	tb.must(remove)
	f := tb.g.Public.Fairness
	require.Equal(t, []engine.RemovedSeat{{UID: "p3", Seat: 2, At: deadline + 1}}, f.Removed)
	require.Len(t, tb.g.Public.Players, 2)
	require.Len(t, f.Seats, 2)
	require.Len(t, tb.g.Secret.Entropy, 2)
	ev := tb.events(engine.EvSeatRemoved)
	require.Len(t, ev, 1)
	require.Equal(t, "unopened", ev[0].Reason)
	tb.must(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	// The end reveals the contributions, the commitments and the removal.
	tb.must(engine.Action{Kind: engine.ActAbandon, Actor: "p1"})
	rev := tb.events(engine.EvFairnessRevealed)[0].Fair
	require.Equal(t, []string{hex.EncodeToString(contribution(0)), hex.EncodeToString(contribution(1))}, rev.ContributionsHex)
	require.Len(t, rev.Removed, 1)
	require.True(t, rev.Openings)
}

// TestOpeningsBelongToTheirGames: a fair game created without openings
// keeps the first rules (entropy at join; no open, no commitment), and
// openings belong to fair games only.
func TestOpeningsBelongToTheirGames(t *testing.T) {
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "fair", ServerSeed: strings.Repeat("07", 32)})
	require.False(t, tb.g.Public.Fairness.Openings)
	tb.refused(engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, EntropyCommitment: commit(0)}, engine.CodeInvalidAction)
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Entropy: "abcd"})
	tb.refused(open(0, 1), engine.CodeInvalidAction)
	tb.refused(engine.Action{Kind: engine.ActRemoveSeat, Actor: "p1", Target: "p1", At: 1 << 40}, engine.CodeInvalidAction)

	seeded := newTable(t)
	err := seeded.do(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "seeded", Seed: "s", Openings: true})
	require.ErrorIs(t, err, engine.CodeInvalidAction)
}
