package bot

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
)

// reseal returns a copy of g with every secret replaced: each draw pile in
// another order, another seed and generator state, and the public fields
// that could name them (the game id, which a bot game takes from its seed,
// and the generator's position) changed alike. What a player may see is
// the same.
func reseal(t *testing.T, g *engine.Game, k int) *engine.Game {
	t.Helper()
	c := g.Clone()
	mix, err := rng.NewSeeded(fmt.Sprint("reseal-", k))
	require.NoError(t, err)
	for d := range c.Secret.Decks {
		cards := c.Secret.Decks[d].Cards
		before := slices.Clone(cards)
		rng.Shuffle(mix, cards, rng.TagTestOnly, nil)
		if len(cards) > 1 && slices.Equal(before, cards) { // another order, always
			cards[0], cards[1] = cards[1], cards[0]
		}
	}
	other, err := rng.NewSeeded(fmt.Sprint("other-seed-", k))
	require.NoError(t, err)
	for range k % 7 {
		other.Uint32(rng.TagTestOnly, nil)
	}
	c.Secret.Seed = fmt.Sprint("other-seed-", k)
	c.Secret.RNGState, err = other.State()
	require.NoError(t, err)
	c.Public.GameID = "bot-" + c.Secret.Seed
	c.Public.RNG.Seq += 1000 + uint64(k)
	return c
}

// peekCheck plays seeded games in which the seats of the search bots are
// played by mcts:n, and at every decision of theirs with two or more
// legal options asks the bot twice, through the one door a policy sees a
// game by (decide), with its stream in the same state: once on the game,
// once on the game with every secret replaced (reseal). It returns the
// decisions checked and how many of them differed. oracle turns the bot
// into one that reads the secret (the real draw piles and generator).
func peekCheck(t *testing.T, n, games int, oracle bool) (checked, differed int) {
	t.Helper()
	rules := engine.DefaultRules()
	eng := engine.NewReference(rules)
	var view engine.Public
	for game := range games {
		g := &engine.Game{}
		apply := func(a engine.Action) {
			t.Helper()
			var s *rng.Stream
			if g.Public.Phase != engine.PhaseNone {
				var err error
				s, err = session.Stream(g)
				require.NoError(t, err)
			}
			_, err := eng.Dispatch(g, &a, s, nil)
			require.NoError(t, err, "%s by %s", a.Kind, a.Actor)
			if s != nil {
				require.NoError(t, g.SaveStream(s))
			}
		}
		seed := fmt.Sprint("no-peek-", game)
		apply(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "bot-" + seed, Mode: "seeded", Seed: seed})
		bots := map[string]*MCTS{}
		for i := range 4 {
			apply(engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), Seat: i, Class: engine.Classes[(game+i)%4]})
			if i%2 == game%2 {
				m := NewMCTS(n)
				s, err := StreamFor(fmt.Sprint("peek-bots-", game), i)
				require.NoError(t, err)
				m.NewGame(s)
				bots[policy.UID(i)] = m
			}
		}
		apply(engine.Action{Kind: engine.ActStart, Actor: "p1"})
		for k := 0; g.Public.Phase == engine.PhasePlaying; k++ {
			uid := g.Public.Awaiting
			m := bots[uid]
			if m == nil {
				apply(decide(&view, g, policy.Cautious{}, rules, uid))
				continue
			}
			if len(engine.LegalActions(&g.Public, rules, uid, engine.TurnKinds, nil)) < 2 {
				seq := m.s.Seq()
				apply(decide(&view, g, m, rules, uid))
				require.Equal(t, seq, m.s.Seq(), "a decision of one option draws nothing")
				continue
			}
			st, err := m.s.State()
			require.NoError(t, err)
			seq := m.s.Seq()
			if oracle {
				m.peek = g
			}
			a := decide(&view, g, m, rules, uid)
			after := m.s.Seq()
			other := reseal(t, g, k)
			m.s, err = rng.Restore(st, "", rng.WithSeq(seq))
			require.NoError(t, err)
			if oracle {
				m.peek = other
			}
			b := decide(&view, other, m, rules, uid)
			require.Equal(t, after, m.s.Seq())
			checked++
			if a != b {
				differed++
			}
			apply(a)
		}
	}
	return checked, differed
}

// TestSearchBotCannotPeek: the search bot's choices depend on the public
// view and its own stream only. With every secret of the game replaced
// (deck orders, generator state, seed) and the bot's stream in the same
// state, every one of its decisions with two or more options is the same.
// The positive control is the same bot made an oracle (it reads the real
// draw piles and generator): the same test sees its choices change.
func TestSearchBotCannotPeek(t *testing.T) {
	checked, differed := peekCheck(t, 24, 2, false)
	t.Logf("honest mcts:24: %d decisions of two or more options, %d differed", checked, differed)
	require.GreaterOrEqual(t, checked, 40)
	require.Zero(t, differed)

	checked, differed = peekCheck(t, 24, 2, true)
	t.Logf("oracle mcts:24: %d decisions of two or more options, %d differed", checked, differed)
	require.Positive(t, differed, "the oracle reads the secret: the test must see its choices change")
}

// Every choice of the built-in policies is one engine.LegalActions lists,
// equal to it field for field (they build their actions themselves,
// listing nothing), over whole games of 2 to 6 players; among them, the
// choices with a parameter: a potion used, a player challenged, a card
// discarded.
func TestBuiltInChoicesAreListed(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	rules := eng.Rules()
	checked, byKind := 0, map[engine.ActionKind]int{}
	for game := range 60 {
		n := 2 + game%5
		pols := []policy.Policy{policy.Cautious{}, policy.Aggressive{}}
		g := &engine.Game{}
		s, err := rng.NewSeeded(fmt.Sprint("listed-", game))
		require.NoError(t, err)
		r := NewRunner(eng)
		r.MaxActions = 1
		seats := make([]Seat, n)
		for i := range seats {
			seats[i] = Seat{Class: engine.Classes[(game+i)%4], Policy: pols[(game+i)%2]}
		}
		_ = r.PlayGame(g, s, "listed", seats) // stops after one action: the game is set up
		for g.Public.Phase == engine.PhasePlaying {
			uid := g.Public.Awaiting
			_, seat := g.Public.Player(uid)
			a := seats[seat].Policy.Choose(&g.Public, rules, uid)
			require.Contains(t, engine.LegalActions(&g.Public, rules, uid, engine.TurnKinds, nil), a, "%s in %s", a.Kind, g.Public.Step)
			checked++
			byKind[a.Kind]++
			_, err := eng.Dispatch(g, &a, s, nil)
			require.NoError(t, err)
		}
	}
	t.Logf("%d choices checked: %v", checked, byKind)
	for _, k := range []engine.ActionKind{engine.ActUseItem, engine.ActOfferDuel, engine.ActDiscard} {
		require.Positive(t, byKind[k], "no %s chosen: the test sees none of the choices with a parameter", k)
	}
}

// A determinization is a game the public view could be: each draw pile
// holds exactly the cards of the real pile (in another order), at every
// decision of whole games, and the rest of the state is the view's.
func TestDeterminizationIsConsistent(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	rules := eng.Rules()
	m := NewMCTS(1)
	s, err := StreamFor("det", 0)
	require.NoError(t, err)
	m.NewGame(s)
	m.bind(rules)
	var view engine.Public
	checked := 0
	for game := range 8 {
		g := &engine.Game{}
		st, err := rng.NewSeeded(fmt.Sprint("det-", game))
		require.NoError(t, err)
		r := NewRunner(eng)
		r.MaxActions = 1
		seats := make([]Seat, 4)
		for i := range seats {
			seats[i] = Seat{Class: engine.Classes[(game+i)%4], Policy: []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[i%2]}
		}
		_ = r.PlayGame(g, st, "det", seats)
		for g.Public.Phase == engine.PhasePlaying {
			policy.View(&view, &g.Public)
			m.startSearch()
			m.deal(&view)
			m.sampleSeed(0)
			m.determinize(&view)
			for d := range engine.NumDecks {
				real := slices.Sorted(slices.Values(g.Secret.Decks[d].Cards))
				dealt := slices.Sorted(slices.Values(m.det.Secret.Decks[d].Cards))
				require.Equal(t, real, dealt, "deck %s", engine.DeckIDs[d])
				require.Equal(t, len(real), m.det.Public.Decks[d].Size)
			}
			require.NoError(t, m.det.Check(rules), "the determinization is a consistent game")
			checked++
			uid := g.Public.Awaiting
			_, seat := g.Public.Player(uid)
			a := seats[seat].Policy.Choose(&g.Public, rules, uid)
			_, err := eng.Dispatch(g, &a, st, nil)
			require.NoError(t, err)
		}
	}
	t.Logf("%d states dealt", checked)
}

// tracer is a search bot that records, at each decision of two or more
// options, a fingerprint of its search: every simulation's reward for the
// decider, option by option. Two bots whose searches differ in any draw
// (a deal, a die, an opponent's style) or in any memory they keep differ
// there, whether or not their choices do.
type tracer struct {
	*MCTS
	log *[]uint64
}

func (tr tracer) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	a := tr.MCTS.Choose(p, r, uid)
	if len(tr.legal) > 1 {
		h := uint64(14695981039346656037)
		mix := func(x uint64) { h = (h ^ x) * 1099511628211 }
		for _, out := range tr.outs[:len(tr.legal)] {
			mix(uint64(len(out)))
			for _, v := range out {
				mix(uint64(math.Float32bits(v)))
			}
		}
		*tr.log = append(*tr.log, h)
	}
	return a
}

// stale is the broken variant of a reused bot (the positive control of
// TestSearchBotReuseIsDeterministic): it keeps its first game's stream
// instead of taking each game's own.
type stale struct{ tracer }

func (b stale) NewGame(s *rng.Stream) {
	if b.s == nil {
		b.MCTS.NewGame(s)
	}
}

// TestSearchBotReuseIsDeterministic: a search bot kept from game to game
// (as a sim worker keeps one per seat) searches each game exactly as a
// fresh bot does, whatever games it played before: the same games played
// in order by reused bots and in reverse order by fresh ones give, at
// every decision of two or more options, the same simulations (tracer), and
// end in the same states. So a run's results cannot depend on how its games
// are dealt to workers. The first two games have three players, the last
// two four, so a reused bot must also change its value model with the
// number of players. The positive control, reused bots that keep their
// first game's stream (stale), fails the same comparison.
func TestSearchBotReuseIsDeterministic(t *testing.T) {
	const games, n = 4, 100
	eng := engine.NewReference(engine.DefaultRules())
	// play plays game i with search bots (made by bot) in half the seats
	// and returns the final state's hash and the searches' fingerprints.
	play := func(r *Runner, i int, bot func(j int, log *[]uint64) policy.Policy) (string, []uint64) {
		t.Helper()
		var log []uint64
		seats := make([]Seat, 3+i/2%2) // 3 players, then 4: a reused bot must change its value model
		for j := range seats {
			seats[j] = Seat{Class: engine.Classes[(i+j)%4], Policy: []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[(i/4+j)%2]}
			if j%2 == i%2 {
				seats[j].Policy = bot(j, &log)
			}
		}
		r.BotSeed = fmt.Sprint("reuse-bots-", i)
		g, _, err := r.Play(fmt.Sprint("reuse-", i), seats, nil)
		require.NoError(t, err)
		h, err := g.Hash()
		require.NoError(t, err)
		return h, log
	}
	run := func(reuse, broken bool) (hashes []string, logs [][]uint64) {
		hashes, logs = make([]string, games), make([][]uint64, games)
		r := NewRunner(eng)
		bots := []*MCTS{NewMCTS(n), NewMCTS(n), NewMCTS(n), NewMCTS(n)}
		order := []int{3, 2, 1, 0}
		if reuse {
			order = []int{0, 1, 2, 3}
		}
		for _, i := range order {
			hashes[i], logs[i] = play(r, i, func(j int, log *[]uint64) policy.Policy {
				switch {
				case broken:
					return stale{tracer{bots[j], log}}
				case reuse:
					return tracer{bots[j], log}
				}
				return tracer{NewMCTS(n), log}
			})
			if !reuse {
				r = NewRunner(eng)
			}
		}
		return hashes, logs
	}
	freshH, freshL := run(false, false)
	reusedH, reusedL := run(true, false)
	decisions := 0
	for i := range games {
		decisions += len(freshL[i])
	}
	require.Greater(t, decisions, 10*games, "the search bots decided too little for the test to mean anything")
	require.Equal(t, freshL, reusedL, "a reused search bot searched otherwise than a fresh one")
	require.Equal(t, freshH, reusedH)
	_, staleL := run(true, true)
	require.Equal(t, freshL[0], staleL[0], "the control's first game is a fresh bot's")
	require.NotEqual(t, freshL[1:], staleL[1:], "the control (a stream kept across games) is not caught")
}
