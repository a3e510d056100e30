package reducers_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

// startVector is a whole start as rng/fair/testdata/gen.mjs computes it,
// independently of the engine (Node's OpenSSL, the spec's arithmetic).
type startVector struct {
	ServerSeedHex    string
	ContributionsHex []string
	CommitmentHex    string
	GameSeedHex      string
	Seed             string
	SaltKeyHex       string
	Shuffles         []struct {
		K             int
		DeckID        string `json:"deckId"`
		Order         []string
		SaltHex       string
		CommitmentHex string
	}
	TurnOrderRolls []int
}

func loadStarts(t *testing.T) (fairStart, seededStart startVector) {
	t.Helper()
	b, err := os.ReadFile("../../../rng/fair/testdata/vectors.json")
	require.NoError(t, err)
	var v struct{ FairStart, SeededStart startVector }
	require.NoError(t, json.Unmarshal(b, &v))
	return v.FairStart, v.SeededStart
}

// table applies actions to one game as the service does: a stream rebuilt
// from the stored game before each action, saved after.
type table struct {
	t   *testing.T
	eng *engine.Engine
	g   *engine.Game
	log []engine.Event
}

func newTable(t *testing.T) *table {
	return &table{t: t, eng: engine.New(engine.DefaultRules(), reducers.Table()), g: &engine.Game{}}
}

// do applies a and returns its rejection, if any.
func (tb *table) do(a engine.Action) error {
	tb.t.Helper()
	var s *rng.Stream
	if a.Kind != engine.ActCreate || tb.g.Public.Phase != engine.PhaseNone {
		var err error
		s, err = session.Stream(tb.g)
		require.NoError(tb.t, err)
	}
	before := len(tb.log)
	ev, err := tb.eng.Dispatch(tb.g, &a, s, tb.log)
	if err != nil {
		require.Len(tb.t, ev, before)
		return err
	}
	tb.log = ev
	if s != nil {
		require.NoError(tb.t, tb.g.SaveStream(s))
	}
	return nil
}

func (tb *table) must(a engine.Action) {
	tb.t.Helper()
	require.NoError(tb.t, tb.do(a), "%s by %s", a.Kind, a.Actor)
}

func (tb *table) events(typ engine.EventType) []engine.Event {
	var out []engine.Event
	for _, e := range tb.log {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

// A fair game's start draws exactly what the independent implementation
// draws from the contract's game seed: the commitment at create, the game
// seed, every salt, order and commitment of the seven shuffles, and the
// turn-order dice.
func TestFairStartMatchesIndependentVectors(t *testing.T) {
	v, _ := loadStarts(t)
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "fair", ServerSeed: v.ServerSeedHex})
	created := tb.log[0]
	require.Equal(t, v.CommitmentHex, created.Commitment.String())
	require.Equal(t, v.CommitmentHex, tb.g.Public.Fairness.CommitmentHex)
	for i, c := range v.ContributionsHex {
		tb.must(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: engine.Classes[i], Entropy: strings.ToUpper(c)})
	}
	tb.must(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	require.Equal(t, v.GameSeedHex, tb.g.Secret.GameSeed)
	require.Equal(t, v.SaltKeyHex, tb.g.Secret.SaltKey.String())
	checkStart(t, tb, v)
}

// The same for a seeded game (fixture 01's seed): salts from the seed,
// orders from sfc32.
func TestSeededStartMatchesIndependentVectors(t *testing.T) {
	_, v := loadStarts(t)
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: "seeded", Seed: v.Seed})
	for i := range 4 {
		tb.must(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: engine.Classes[i]})
	}
	tb.must(engine.Action{Kind: engine.ActStart, Actor: "p1"})
	require.Equal(t, v.SaltKeyHex, tb.g.Secret.SaltKey.String())
	checkStart(t, tb, v)
}

func checkStart(t *testing.T, tb *table, v startVector) {
	t.Helper()
	shuffled := tb.events(engine.EvDeckShuffled)
	require.Len(t, shuffled, len(v.Shuffles))
	for i, want := range v.Shuffles {
		rec := tb.g.Secret.Shuffles[i]
		require.Equal(t, want.K, rec.K)
		require.Equal(t, want.DeckID, rec.DeckID)
		require.Equal(t, want.Order, rec.Order, "order of %s", want.DeckID)
		require.Equal(t, want.SaltHex, rec.Salt.String(), "salt of %s", want.DeckID)
		require.EqualValues(t, i+1, rec.Seq, "one rng entry per shuffle")
		require.Equal(t, want.DeckID, shuffled[i].DeckID)
		require.Equal(t, len(want.Order), shuffled[i].Size)
		require.Equal(t, want.CommitmentHex, shuffled[i].Commitment.String(), "commitment of %s", want.DeckID)
	}
	var rolls []int
	for _, e := range tb.events(engine.EvTurnOrderRolled) {
		rolls = append(rolls, e.Value)
	}
	require.Equal(t, v.TurnOrderRolls, rolls)
}

func TestCreateChecksTheServerSeed(t *testing.T) {
	seed := strings.Repeat("ab", 32)
	for _, c := range []struct {
		a    engine.Action
		want string
	}{
		{engine.Action{Mode: "crypto"}, "a crypto game needs the server's seed: fair: invalid input: a server seed is 64 hex digits, not 0"},
		{engine.Action{}, "a crypto game needs the server's seed"},
		{engine.Action{Mode: "fair"}, "a fair game needs the server's seed"},
		{engine.Action{Mode: "fair", ServerSeed: strings.ToUpper(seed)}, "lower-case hex"},
		{engine.Action{Mode: "fair", ServerSeed: seed[:40]}, "not 40"},
		{engine.Action{Mode: "fair", ServerSeed: seed, Seed: "x"}, "a fair game takes no seed string"},
		{engine.Action{Mode: "seeded", Seed: "x", ServerSeed: seed}, "a seeded game takes no server seed"},
	} {
		tb := newTable(t)
		c.a.Kind, c.a.Actor, c.a.GameID = engine.ActCreate, "p1", "g"
		err := tb.do(c.a)
		require.ErrorIs(t, err, engine.CodeInvalidAction, "%+v", c.a)
		require.ErrorContains(t, err, c.want)
		require.Equal(t, engine.PhaseNone, tb.g.Public.Phase)
	}
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "crypto", ServerSeed: seed})
	require.Equal(t, seed, tb.g.Secret.SaltKey.String(), "a crypto game's salt key is its server seed")
	require.Nil(t, tb.g.Public.Fairness, "a crypto game publishes no commitment")
	require.True(t, tb.log[0].Commitment.IsZero())
}

func TestJoinEntropy(t *testing.T) {
	seed := strings.Repeat("01", 32)
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "fair", ServerSeed: seed})
	for _, c := range []struct{ entropy, want string }{
		{"abc", "odd number"},
		{strings.Repeat("00", 65), "at most 64 bytes"},
		{"xy", "not hex"},
	} {
		err := tb.do(engine.Action{Kind: engine.ActJoin, Actor: "p2", Seat: 1, Class: engine.ClassMonk, Entropy: c.entropy})
		require.ErrorIs(t, err, engine.CodeInvalidAction)
		require.ErrorContains(t, err, c.want)
		require.Empty(t, tb.g.Public.Players)
	}
	// Seats out of order: contributions follow the seats.
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p2", Seat: 2, Class: engine.ClassMonk, Entropy: "BEEF"})
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p1", Seat: 0, Class: engine.ClassWarrior})
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p3", Seat: 1, Class: engine.ClassScout, Entropy: strings.Repeat("Ff", 64)})
	require.Equal(t, []string{"", strings.Repeat("ff", 64), "beef"}, tb.g.Secret.Entropy)
	require.NoError(t, tb.g.Check(engine.DefaultRules()))
	// The entropy is secret: nothing public carries it.
	pub, _ := json.Marshal(tb.g.Public)
	for _, e := range tb.log {
		require.NotContains(t, string(e.AppendJSON(nil)), "beef")
	}
	require.NotContains(t, string(pub), "beef")

	seeded := newTable(t)
	seeded.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "seeded", Seed: "s"})
	err := seeded.do(engine.Action{Kind: engine.ActJoin, Actor: "p1", Seat: 0, Class: engine.ClassMonk, Entropy: "00"})
	require.ErrorIs(t, err, engine.CodeInvalidAction)
	require.ErrorContains(t, err, "entropy is only for fair games")
}

func TestServerSeedAndEntropyBelongToTheirActions(t *testing.T) {
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "seeded", Seed: "s"})
	err := tb.do(engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, ServerSeed: strings.Repeat("00", 32)})
	require.ErrorContains(t, err, "serverSeed belongs to create only")
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk})
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p2", Seat: 1, Class: engine.ClassMonk})
	err = tb.do(engine.Action{Kind: engine.ActStart, Actor: "p1", Entropy: "00"})
	require.ErrorContains(t, err, "entropy belongs to join and open only")
}

// Start refuses a stream that is not the fresh stream of the game seed the
// seated players make (a caller's wiring mistake must not go unnoticed).
func TestFairStartChecksTheStream(t *testing.T) {
	tb := newTable(t)
	tb.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "fair", ServerSeed: strings.Repeat("02", 32)})
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Entropy: "01"})
	tb.must(engine.Action{Kind: engine.ActJoin, Actor: "p2", Seat: 1, Class: engine.ClassMonk})
	for _, s := range []*rng.Stream{
		rng.NewFair([]byte("another seed")),
		rng.NewFair(make([]byte, 32)),
	} {
		_, err := tb.eng.Dispatch(tb.g, &engine.Action{Kind: engine.ActStart, Actor: "p1"}, s, nil)
		require.ErrorIs(t, err, engine.CodeBadStream)
		require.Equal(t, engine.PhaseLobby, tb.g.Public.Phase)
	}
	tb.must(engine.Action{Kind: engine.ActStart, Actor: "p1"})
}

// Every game reveals at its end, in Public.Fairness and in a last
// FairnessRevealed event, what it kept secret; and not one bit before.
func TestRevealAtTheEnd(t *testing.T) {
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassMonk, Policy: policy.Aggressive{}}}
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeCrypto, rng.ModeFair} {
		t.Run(string(mode), func(t *testing.T) {
			server := strings.Repeat("5a", 32)
			create := engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "g", Mode: string(mode)}
			switch mode {
			case rng.ModeSeeded:
				create.Seed = "reveal-seed"
			default:
				create.ServerSeed = server
			}
			tb := newTable(t)
			tb.must(create)
			for i, st := range seats {
				tb.must(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: st.Class, Entropy: map[bool]string{true: "c0ffee"}[mode == rng.ModeFair && i == 1]})
			}
			tb.must(engine.Action{Kind: engine.ActStart, Actor: "p1"})
			for n := 0; tb.g.Public.Phase == engine.PhasePlaying; n++ {
				require.Less(t, n, 5000)
				uid := tb.g.Public.Awaiting
				_, i := tb.g.Public.Player(uid)
				before, _ := json.Marshal(tb.g.Public)
				require.NotContains(t, string(before), `"revealed"`)
				tb.must(seats[i].Policy.Choose(&tb.g.Public, tb.eng.Rules(), uid))
			}
			last := tb.log[len(tb.log)-1]
			require.Equal(t, engine.EvFairnessRevealed, last.Type)
			require.Equal(t, engine.EvGameFinished, tb.log[len(tb.log)-2].Type)
			f := tb.g.Public.Fairness
			require.Same(t, f, last.Fair)
			require.True(t, f.Revealed)
			require.Len(t, f.Salts, len(tb.g.Secret.Shuffles))
			for i, s := range tb.g.Secret.Shuffles {
				require.Equal(t, engine.SaltReveal{K: i, DeckID: s.DeckID, Seq: s.Seq, SaltHex: s.Salt}, f.Salts[i])
			}
			switch mode {
			case rng.ModeSeeded:
				require.Equal(t, "reveal-seed", f.Seed)
				require.Empty(t, f.ServerSeedHex)
			case rng.ModeCrypto:
				require.Empty(t, f.Seed+f.ServerSeedHex+f.GameSeedHex, "a crypto game has no seed to reveal")
			case rng.ModeFair:
				require.Equal(t, server, f.ServerSeedHex)
				require.Equal(t, []string{"", "c0ffee"}, f.ContributionsHex)
				require.Equal(t, tb.g.Secret.GameSeed, f.GameSeedHex)
				require.NotEmpty(t, f.CommitmentHex)
			}
			// Before the reveal, no secret appears in the log.
			for _, e := range tb.log[:len(tb.log)-1] {
				js := string(e.AppendJSON(nil))
				for _, secret := range []string{server, "reveal-seed", tb.g.Secret.GameSeed, "c0ffee", f.Salts[0].SaltHex.String()} {
					if secret != "" {
						require.NotContains(t, js, secret)
					}
				}
			}
			// The reveal round-trips through the log's JSON.
			var back engine.Event
			require.NoError(t, json.Unmarshal(last.AppendJSON(nil), &back))
			require.Equal(t, f, back.Fair)
			require.NoError(t, tb.g.Check(tb.eng.Rules()))
		})
	}
}

func TestAbandon(t *testing.T) {
	server := strings.Repeat("77", 32)
	lobby := newTable(t)
	lobby.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "fair", ServerSeed: server})
	lobby.must(engine.Action{Kind: engine.ActJoin, Actor: "p2", Class: engine.ClassMonk, Entropy: "aa"})
	err := lobby.do(engine.Action{Kind: engine.ActAbandon, Actor: "p2"})
	require.ErrorIs(t, err, engine.CodeNotOwner)
	lobby.must(engine.Action{Kind: engine.ActAbandon, Actor: "p1", At: 42})
	p := &lobby.g.Public
	require.Equal(t, engine.PhaseFinished, p.Phase)
	require.EqualValues(t, 42, p.FinishedAt)
	fin := lobby.log[len(lobby.log)-2]
	require.Equal(t, engine.EvGameFinished, fin.Type)
	require.Equal(t, reducers.EndAbandoned, fin.Outcome)
	require.Empty(t, fin.Winner)
	require.Equal(t, server, p.Fairness.ServerSeedHex)
	require.Equal(t, []string{"aa"}, p.Fairness.ContributionsHex)
	require.Empty(t, p.Fairness.GameSeedHex, "a game abandoned in its lobby never fixed a game seed")
	require.ErrorIs(t, lobby.do(engine.Action{Kind: engine.ActAbandon, Actor: "p1"}), engine.CodeGameOver)

	// The server's sweep abandons a game left unfinished (its actor is
	// engine.ServerActor, no player): the same end and reveal.
	swept := newTable(t)
	swept.must(engine.Action{Kind: engine.ActCreate, Actor: "p1", Mode: "fair", ServerSeed: server})
	swept.must(engine.Action{Kind: engine.ActJoin, Actor: "p2", Class: engine.ClassMonk, Entropy: "bb"})
	swept.must(engine.Action{Kind: engine.ActAbandon, Actor: engine.ServerActor, At: 43})
	require.Equal(t, engine.PhaseFinished, swept.g.Public.Phase)
	require.Equal(t, reducers.EndAbandoned, swept.log[len(swept.log)-2].Outcome)
	require.Equal(t, server, swept.g.Public.Fairness.ServerSeedHex)

	// In play, in the middle of a fight: the enemies go back to their
	// discard piles, so the finished state is consistent.
	eng := engine.New(engine.DefaultRules(), reducers.Table())
	r := bot.NewRunner(eng)
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Cautious{}}, {Class: engine.ClassMonk, Policy: policy.Cautious{}}}
	for i := 0; ; i++ {
		require.Less(t, i, 200, "no game with a combat in progress")
		r.MaxActions = 40 + i
		g := &engine.Game{}
		s, _ := rng.NewSeeded("abandon")
		_ = r.PlayGame(g, s, "abandon", seats)
		if g.Public.Combat == nil {
			continue
		}
		ev, err := eng.Dispatch(g, &engine.Action{Kind: engine.ActAbandon, Actor: "p1"}, s, nil)
		require.NoError(t, err)
		require.Nil(t, g.Public.Combat)
		require.Empty(t, g.Public.Awaiting)
		require.Equal(t, engine.EvFairnessRevealed, ev[len(ev)-1].Type)
		require.Equal(t, "abandon", g.Public.Fairness.Seed)
		require.NoError(t, g.Check(eng.Rules()))
		_, err = eng.Dispatch(g, &engine.Action{Kind: engine.ActMove, Actor: g.Public.Order[0]}, s, nil)
		require.ErrorIs(t, err, engine.CodeGameOver)
		return
	}
}
