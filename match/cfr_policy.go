package match

import (
	"fmt"
	"math"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// Policy is a strategy for both seats of a two-player game: at seat's
// information state key (its AppendInfoKey, as a string) with the legal
// moves legal (the state's Legal order), the probability of each move,
// in legal's order. Its probabilities must be finite, at least 0 and sum
// to 1 within 1e-6 (they are then scaled to sum to 1 exactly); an error
// it returns stops the evaluation.
type Policy func(seat int, key string, legal []game.Move) ([]float64, error)

// UniformPolicy plays every legal move with the same probability.
func UniformPolicy(_ int, _ string, legal []game.Move) ([]float64, error) {
	p := make([]float64, len(legal))
	for i := range p {
		p[i] = 1 / float64(len(legal))
	}
	return p, nil
}

// EvaluatePolicy returns the exact evaluation of pol on def (a
// two-player constant-sum game) under r (nil: the default) with seats
// seats: each seat's value when both play pol, each seat's best response
// against it, NashConv and the exploitability, over the whole tree. It
// asks pol once per information set. Errors: NewSolver's refusals (each
// wrapping ErrUnsolvable); pol's own, or probabilities it returns that
// are not a distribution over the legal moves, naming the seat and key.
func EvaluatePolicy(def game.Definition, r game.Ruleset, seats int, pol Policy) (PolicyValue, error) {
	t, _, err := buildTwo(def, r, seats, false)
	if err != nil {
		return PolicyValue{}, err
	}
	f := flatten(t)
	pi := make([]float64, f.moves)
	for i, is := range t.infos {
		p, err := pol(is.seat, is.key, is.moves)
		if err != nil {
			return PolicyValue{}, fmt.Errorf("seat %d at %q: %w", is.seat, is.key, err)
		}
		if err := setDistribution(pi[f.off[i]:f.off[i+1]], p); err != nil {
			return PolicyValue{}, fmt.Errorf("seat %d at %q: %w", is.seat, is.key, err)
		}
	}
	return f.evaluate(pi), nil
}

// setDistribution checks that p is a distribution over len(out) moves
// and copies it to out, scaled to sum to 1.
func setDistribution(out, p []float64) error {
	if len(p) != len(out) {
		return fmt.Errorf("%d probabilities for %d legal moves", len(p), len(out))
	}
	sum := 0.0
	for a, x := range p {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("probability %d is %v: want a finite number, at least 0", a, x)
		}
		sum += x
	}
	if math.Abs(sum-1) > 1e-6 {
		return fmt.Errorf("the probabilities %v sum to %v, not 1", p, sum)
	}
	for a, x := range p {
		out[a] = x / sum
	}
	return nil
}

// TableBot is a bot whose strategy is a table: Probs returns its
// probabilities at seat's information state key over legal (a Policy),
// and Choose draws from them. EvaluateBots evaluates such a bot exactly.
type TableBot interface {
	Bot
	Probs(seat int, key string, legal []game.Move) ([]float64, error)
}

// Probs returns the uniform distribution over legal: the random bot's.
func (*Random) Probs(seat int, key string, legal []game.Move) ([]float64, error) {
	return UniformPolicy(seat, key, legal)
}

// The bounds of EvaluateBots.
const (
	// MaxBotSamples is the most times a bot without a table is asked at
	// one information set.
	MaxBotSamples = 100_000
	// BotResamples is how many bootstrap resamples of a sampled bot's
	// answers give the standard errors.
	BotResamples = 30
)

// TagBootstrap is the tag of EvaluateBots's resampling draws.
const TagBootstrap rng.Tag = "solve.bootstrap"

// BotValue is EvaluateBots's evaluation of a pair of bots.
type BotValue struct {
	// PolicyValue is the exact evaluation of the bots' strategies: a
	// table bot's own, a sampled bot's answers' frequencies.
	PolicyValue
	// Sampled is how many information sets a bot without a table was
	// asked at (0: every figure is exact); Samples, how many times each.
	Sampled, Samples int
	// ValueSE and ExploitabilitySE are the standard errors of Value[0]
	// and Exploitability from the sampling: the standard deviation of
	// each over BotResamples bootstrap resamples of the answers (each
	// set's Samples answers drawn again from their frequencies); 0 when
	// exact.
	ValueSE, ExploitabilitySE float64
}

// EvaluateBots evaluates bots[s] playing seat s of def (a two-player
// constant-sum game) under r (nil: the default), over the whole tree. A
// TableBot is evaluated exactly through its Probs. Any other bot is
// asked samples times (1 to MaxBotSamples) at each of its seat's
// information sets, the k-th time on the set's k-th state in turn (a
// bot sees only its seat's view, so which one does not matter to an
// honest bot), and its strategy there is taken as its answers'
// frequencies; s (needed then) draws the bootstrap resamples of the
// standard errors. Errors: NewSolver's refusals; a table's error or
// bad probabilities; an answer not among the legal moves; samples out of
// range or no stream when a bot is sampled.
func EvaluateBots(def game.Definition, r game.Ruleset, bots [2]Bot, samples int, s *rng.Stream) (*BotValue, error) {
	_, t0 := bots[0].(TableBot)
	_, t1 := bots[1].(TableBot)
	exact := t0 && t1
	if !exact && (samples < 1 || samples > MaxBotSamples || s == nil) {
		return nil, fmt.Errorf("a bot without a table is sampled: want 1 to %d samples a set (not %d) and a stream", MaxBotSamples, samples)
	}
	t, _, err := buildTwo(def, r, 2, !exact)
	if err != nil {
		return nil, err
	}
	f := flatten(t)
	pi := make([]float64, f.moves)
	var sampled []int // information sets, with counts in pi as frequencies
	for i, is := range t.infos {
		out := pi[f.off[i]:f.off[i+1]]
		b := bots[is.seat]
		if tb, ok := b.(TableBot); ok {
			p, err := tb.Probs(is.seat, is.key, is.moves)
			if err == nil {
				err = setDistribution(out, p)
			}
			if err != nil {
				return nil, fmt.Errorf("bot %s, seat %d at %q: %w", b.Name(), is.seat, is.key, err)
			}
			continue
		}
		legal := make([]game.Move, len(is.moves))
		for k := range samples {
			copy(legal, is.moves)
			m := b.Choose(is.states[k%len(is.states)], is.seat, legal)
			a := moveIndex(is.moves, m)
			if a < 0 {
				return nil, fmt.Errorf("bot %s, seat %d at %q: chose %s, not a legal move", b.Name(), is.seat, is.key, m.Kind)
			}
			out[a]++
		}
		for a := range out {
			out[a] /= float64(samples)
		}
		sampled = append(sampled, i)
	}
	bv := &BotValue{PolicyValue: f.evaluate(pi), Sampled: len(sampled)}
	if len(sampled) == 0 {
		return bv, nil
	}
	bv.Samples = samples
	re := make([]float64, f.moves)
	var v, e []float64
	for range BotResamples {
		copy(re, pi)
		for _, i := range sampled {
			lo, hi := f.off[i], f.off[i+1]
			clear(re[lo:hi])
			for range samples {
				u, a := s.Float01(TagBootstrap, nil), lo
				for acc := pi[lo]; a < hi-1 && u >= acc; acc += pi[a] {
					a++
				}
				re[a] += 1 / float64(samples)
			}
		}
		pv := f.evaluate(re)
		v, e = append(v, pv.Value[0]), append(e, pv.Exploitability)
	}
	bv.ValueSE, bv.ExploitabilitySE = stddev(v), stddev(e)
	return bv, nil
}

// moveIndex returns m's index in moves, -1 if absent.
func moveIndex(moves []game.Move, m game.Move) int {
	for i, x := range moves {
		if x == m {
			return i
		}
	}
	return -1
}

// stddev returns the sample standard deviation of x (n-1).
func stddev(x []float64) float64 {
	mean := 0.0
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	ss := 0.0
	for _, v := range x {
		ss += (v - mean) * (v - mean)
	}
	return math.Sqrt(ss / float64(len(x)-1))
}
