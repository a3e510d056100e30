package bot

import (
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/rng"
)

// strengthResult is how one bot did in the test seat over a set of games.
type strengthResult struct {
	name        string
	n           int // simulations per decision (0: a heuristic)
	wins, games int
	withWinner  int // games with a winner
	won         []bool
}

func (s strengthResult) rate() float64 { return float64(s.wins) / float64(s.games) }

// fair is the fair share: games with a winner over games × 4 players.
func (s strengthResult) fair() float64 { return float64(s.withWinner) / float64(s.games) / 4 }

// wilson is the Wilson score 95% interval of k in n.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	c := (p + z*z/(2*nf)) / den
	h := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	return c - h, c + h
}

// strengthRun plays `games` 4-player games with one test seat against three
// heuristic seats, on fixed seeds, rotated by a balanced design: game i
// puts the test bot in seat i mod 4, gives seat j the class
// Classes[(j + i/4) mod 4] (so every 16 games the test bot plays each
// class in each seat once), and the other seats cautious or aggressive by
// (j + i/16) mod 2 (so every 32 games each heuristic faces each of the test
// bot's class and seat). newBot makes the test seat's policy (one per
// worker: a search bot keeps its memory from game to game; its stream comes
// from the game's own bot seed). Results do not depend on the workers.
func strengthRun(t testing.TB, name string, n, games, workers int, newBot func() policy.Policy) strengthResult {
	t.Helper()
	eng := engine.NewReference(engine.DefaultRules())
	res := strengthResult{name: name, n: n, games: games, won: make([]bool, games)}
	hasWinner := make([]bool, games)
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := NewRunner(eng)
			r.Lean(0)
			pol := newBot()
			for i := w; i < games; i += workers {
				seats := make([]Seat, 4)
				for j := range seats {
					seats[j] = Seat{Class: engine.Classes[(j+i/4)%4], Policy: []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[(j+i/16)%2]}
				}
				seats[i%4].Policy = pol
				r.BotSeed = fmt.Sprint("strength-bots-", i)
				g, _, err := r.Play(fmt.Sprint("strength-", i), seats, nil)
				if err != nil {
					errs <- err
					return
				}
				res.won[i] = g.Public.Winner == policy.UID(i%4)
				hasWinner[i] = g.Public.Winner != ""
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := range games {
		if res.won[i] {
			res.wins++
		}
		if hasWinner[i] {
			res.withWinner++
		}
	}
	return res
}

func searchBot(n int) func() policy.Policy { return func() policy.Policy { return NewMCTS(n) } }

// trendTest is the one-sided Cochran–Armitage test for a win rate rising
// with the scores (log10 N): its z and p (Armitage 1955; the variance under
// the null of a common rate).
func trendTest(rs []strengthResult) (z, p float64) {
	var k, n, sx, sxx, sxk float64
	for _, r := range rs {
		x := math.Log10(float64(r.n))
		k += float64(r.wins)
		n += float64(r.games)
		sx += x * float64(r.games)
		sxx += x * x * float64(r.games)
		sxk += x * float64(r.wins)
	}
	pbar := k / n
	t := sxk - pbar*sx
	v := pbar * (1 - pbar) * (sxx - sx*sx/n)
	if v <= 0 {
		return 0, 1
	}
	z = t / math.Sqrt(v)
	return z, 0.5 * math.Erfc(z/math.Sqrt2)
}

// pairedGain compares two bots in the test seat on the same games: the mean
// difference of their wins and its standard error.
func pairedGain(a, b strengthResult) (gain, se float64, discordant int) {
	var s, ss float64
	for i := range a.won {
		d := 0.0
		if b.won[i] {
			d++
		}
		if a.won[i] {
			d--
		}
		if d != 0 {
			discordant++
		}
		s += d
		ss += d * d
	}
	n := float64(len(a.won))
	gain = s / n
	return gain, math.Sqrt((ss/n - gain*gain) / (n - 1)), discordant
}

// randomBot picks uniformly among the legal actions, from its own
// stream: a bot without skill, the positive control of the strength test.
type randomBot struct{ s *rng.Stream }

func (b *randomBot) Name() string          { return "random" }
func (b *randomBot) NewGame(s *rng.Stream) { b.s = s }
func (b *randomBot) Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action {
	legal := engine.LegalActions(p, r, uid, engine.TurnKinds, nil)
	i, err := b.s.UniformInt(0, int64(len(legal)-1), rng.TagTestOnly, nil)
	if err != nil {
		panic(err)
	}
	return legal[i]
}

// TestSearchStrengthShort is the strength test on few games and small N,
// in the default test command: one search seat against three heuristic
// seats on the games of strengthRun. With one simulation a decision the
// search bot plays exactly as its prior, the heuristic style fitted with
// its value model (it never leaves the prior's choice without evidence);
// with a few simulations it wins, on the same games, no less often than
// that heuristic in its seat beyond the paired noise; a bot without skill (uniform among the legal actions),
// the test's positive control, loses clearly more. The long test (go test
// -tags strength) measures the bound and the trend.
func TestSearchStrengthShort(t *testing.T) {
	const games = 48
	prior := valueFor(engine.DefaultRules(), 4).prior
	base := strengthRun(t, "prior", 0, games, 2, func() policy.Policy { return styled{prior} })
	one := strengthRun(t, "mcts:1", 1, games, 2, searchBot(1))
	require.Equal(t, base.won, one.won, "mcts:1 plays as its prior style")
	few := strengthRun(t, "mcts:24", 24, games, 2, searchBot(24))
	broken := strengthRun(t, "random", 0, games, 2, func() policy.Policy { return &randomBot{} })
	gain, se, d := pairedGain(base, few)
	bgain, bse, bd := pairedGain(base, broken)
	t.Logf("prior %d/%d, mcts:24 %d/%d (gain %+.1f pp ± %.1f, %d games differ), random %d/%d (gain %+.1f pp ± %.1f, %d differ)",
		base.wins, games, few.wins, games, 100*gain, 100*se, d, broken.wins, games, 100*bgain, 100*bse, bd)
	require.GreaterOrEqual(t, gain, -2*se, "the search bot is not worse than its heuristic")
	require.Less(t, bgain, -2*bse, "a bot without skill loses clearly: the test can fail")
}
