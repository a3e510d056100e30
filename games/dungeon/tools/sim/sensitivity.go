package sim

import (
	"context"
	"fmt"
	"math"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// SensitivityFiles are the files sensitivity writes.
var SensitivityFiles = []string{"sensitivity.csv", "report.html"}

// The balance objectives a nudge is judged by, in Effects order.
const (
	ObjSpread = iota // spread of the class win rates (fraction)
	ObjFirst         // first turn-order position's edge over the fair share (fraction)
	ObjLength        // mean game length (rounds)
	numObjectives
)

// ObjectiveIDs name the objectives in sensitivity.csv and on --rank.
var ObjectiveIDs = [numObjectives]string{"spread", "first", "length"}

// objectiveLabels name them for people.
var objectiveLabels = [numObjectives]string{"spread of class win rates", "first-position edge", "mean game length (rounds)"}

// SensitivityConfig is a sensitivity analysis: every number of the base
// ruleset nudged one step down and one step up, each played on the base
// run's seeds against the unchanged ruleset.
type SensitivityConfig struct {
	Base      Config // Games is the games per ruleset (the ceiling with Precision)
	RulesJSON []byte
	// Step is the nudge: an absolute amount, or with Relative a fraction of
	// the value (rounded to a whole number, at least 1, for a whole value).
	Step     float64
	Relative bool
}

// Effect is the change of an objective under a nudge, with its 95%
// interval.
type Effect struct {
	Estimate, Lo, Hi float64
}

// Nudge is one number moved one step.
type Nudge struct {
	Param       string
	Base, Value float64
	// Refused says why the ruleset (or the run) refuses the value; the
	// nudge is then not played.
	Refused string
	Effects [numObjectives]Effect
}

// Sensitivity is a finished analysis.
type Sensitivity struct {
	Nudges  []Nudge // played and refused, in the ruleset's order, down before up
	Games   int64   // games per ruleset
	Base    Balance
	Players int
	Seed    string
	Step    string
	Partial bool
}

// nudges lists every nudge of the ruleset's numbers, refused ones with
// their reason, and the rulesets of the others.
func (sc *SensitivityConfig) nudges() ([]Nudge, []*engine.Ruleset, error) {
	if !(sc.Step > 0) || math.IsInf(sc.Step, 0) || (sc.Relative && sc.Step >= 1) {
		return nil, nil, fmt.Errorf("--step must be above 0 (and below 100%% when relative)")
	}
	params, err := Params(sc.RulesJSON)
	if err != nil {
		return nil, nil, err
	}
	var out []Nudge
	var rules []*engine.Ruleset
	for _, p := range params {
		for _, dir := range []float64{-1, 1} {
			d := sc.Step
			if sc.Relative {
				d = math.Abs(p.Value) * sc.Step
				if p.Value == math.Trunc(p.Value) {
					d = math.Max(1, math.Round(d))
				}
			}
			n := Nudge{Param: p.Path, Base: p.Value, Value: p.Value + dir*d}
			r, err := WithParams(sc.RulesJSON, Param{Path: p.Path, Value: n.Value})
			if err == nil {
				cfg := sc.Base
				cfg.A = Ruleset{Rules: r, Source: "nudged"}
				err = cfg.Validate()
			}
			if err != nil {
				n.Refused = err.Error()
				r = nil
			}
			out = append(out, n)
			rules = append(rules, r)
		}
	}
	return out, rules, nil
}

// RunSensitivity plays the base ruleset and every nudge that the ruleset
// accepts on the same seeds, and measures each nudge's effect on the
// balance objectives. With Base.Precision it plays in batches of
// PrecisionBatch games and stops after the first batch at which every
// effect on the spread and on the first-position edge has a 95% half-width
// of at most Precision (Games is the ceiling). progress counts games over
// all rulesets.
func RunSensitivity(ctx context.Context, sc *SensitivityConfig, progress *Progress) (*Sensitivity, error) {
	if err := sc.Base.Validate(); err != nil {
		return nil, err
	}
	if sc.Base.B != nil || sc.Base.Shards > 1 || sc.Base.PerGame != nil || sc.Base.From != 0 {
		return nil, fmt.Errorf("sensitivity compares its nudges itself: no --compare, --shard or players.csv")
	}
	nudges, rules, err := sc.nudges()
	if err != nil {
		return nil, err
	}
	games := sc.Base.Games
	base := make([]GameRecord, games)
	recs := make([][]GameRecord, len(nudges))
	for i, r := range rules {
		if r != nil {
			recs[i] = make([]GameRecord, games)
		}
	}
	s := &Sensitivity{Nudges: nudges, Players: sc.Base.Players, Seed: sc.Base.Seed, Step: FormatNumber(sc.Step)}
	if sc.Relative {
		s.Step = FormatNumber(100*sc.Step) + "%"
	}
	batch := games
	if sc.Base.Precision > 0 {
		batch = sensitivityBatch
	}
	var tallyBase *Tally
	for at := int64(0); at < games; {
		end := min(games, at+batch)
		play := func(r *engine.Ruleset, rec []GameRecord) (*Outcome, error) {
			cfg := sc.Base
			cfg.Games, cfg.From, cfg.Precision, cfg.Records = end, at, 0, rec
			cfg.A = Ruleset{Rules: r, Source: sc.Base.A.Source}
			return Run(ctx, &cfg, progress)
		}
		o, err := play(sc.Base.A.Rules, base)
		if err != nil {
			return nil, err
		}
		if o.Partial {
			s.Partial = true
			break
		}
		if tallyBase == nil {
			tallyBase = o.A
		} else {
			tallyBase.Merge(o.A)
		}
		for i, r := range rules {
			if r == nil {
				continue
			}
			if o, err = play(r, recs[i]); err != nil {
				return nil, err
			}
			if o.Partial {
				s.Partial = true
				break
			}
		}
		if s.Partial {
			break
		}
		at, s.Games = end, end
		s.measure(base, recs)
		if sc.Base.Precision > 0 && s.precise(sc.Base.Precision) {
			break
		}
	}
	if tallyBase != nil {
		s.Base = BalanceOf(tallyBase, s.Players)
	}
	return s, nil
}

// sensitivityBatch is PrecisionBatch, for RunSensitivity (a variable so
// that a test may play smaller batches).
var sensitivityBatch int64 = PrecisionBatch

// measure computes every played nudge's effects over the first s.Games
// games.
func (s *Sensitivity) measure(base []GameRecord, recs [][]GameRecord) {
	b := base[:s.Games]
	for i := range s.Nudges {
		if recs[i] != nil {
			s.Nudges[i].Effects = effects(b, recs[i][:s.Games], s.Players)
		}
	}
}

// precise reports whether every played nudge's effects on the spread and
// the first-position edge have a half-width of at most p.
func (s *Sensitivity) precise(p float64) bool {
	for _, n := range s.Nudges {
		if n.Refused != "" {
			continue
		}
		for _, o := range []int{ObjSpread, ObjFirst} {
			if (n.Effects[o].Hi-n.Effects[o].Lo)/2 > p {
				return false
			}
		}
	}
	return true
}

// effects compares a nudged run with the base, game by game (games failed
// in either are left out). The length and the first-position edge are
// paired means with Student's t intervals. The spread (highest minus
// lowest class win rate) is not a mean: its interval is the delta
// method's, each class's win rate linearised into per-game terms and the
// highest and lowest classes of each run taken as known.
func effects(base, v []GameRecord, players int) [numObjectives]Effect {
	var out [numObjectives]Effect
	var n float64
	var length, first moments
	for g := range base {
		a, b := &base[g], &v[g]
		if a.Failed || b.Failed {
			continue
		}
		n++
		length.add(float64(b.Rounds - a.Rounds))
		first.add(firstTerm(b, players) - firstTerm(a, players))
	}
	if n < 2 {
		return out
	}
	out[ObjLength] = length.effect()
	out[ObjFirst] = first.effect()
	ra, wa := classRates(base, v)
	rb, wb := classRates(v, base)
	hiA, loA := argExtremes(ra)
	hiB, loB := argExtremes(rb)
	var spread moments
	for g := range base {
		a, b := &base[g], &v[g]
		if a.Failed || b.Failed {
			continue
		}
		spread.add(influence(b, rb, wb, hiB) - influence(b, rb, wb, loB) - influence(a, ra, wa, hiA) + influence(a, ra, wa, loA))
	}
	e := spread.effect()
	d := (rb[hiB] - rb[loB]) - (ra[hiA] - ra[loA])
	out[ObjSpread] = Effect{Estimate: d, Lo: d - (e.Estimate - e.Lo), Hi: d + (e.Hi - e.Estimate)}
	// The influence terms have mean 0: their interval is centred on 0 and
	// shifted to the estimate above.
	return out
}

// firstTerm is a game's term of the first-position edge: a win from the
// first position, less the fair share of a game with a winner.
func firstTerm(r *GameRecord, players int) float64 {
	x := 0.0
	if r.WinnerPos == 0 {
		x = 1
	}
	if r.WinnerClass >= 0 || r.WinnerPos >= 0 {
		x -= 1 / float64(players)
	}
	return x
}

// classRates returns each class's win rate over the games not failed in
// either run, and its seats per game.
func classRates(rs, other []GameRecord) (rate, seats [4]float64) {
	var won [4]float64
	var n float64
	for g := range rs {
		if rs[g].Failed || other[g].Failed {
			continue
		}
		n++
		for c := range 4 {
			seats[c] += float64(rs[g].ClassSeats[c])
		}
		if k := rs[g].WinnerClass; k >= 0 {
			won[k]++
		}
	}
	for c := range 4 {
		if seats[c] > 0 {
			rate[c] = won[c] / seats[c]
			seats[c] /= n
		} else {
			rate[c] = math.NaN()
		}
	}
	return rate, seats
}

// argExtremes returns the classes with the highest and lowest rate (the
// first of ties), skipping classes nobody played.
func argExtremes(r [4]float64) (hi, lo int) {
	hi, lo = -1, -1
	for c, v := range r {
		if math.IsNaN(v) {
			continue
		}
		if hi < 0 || v > r[hi] {
			hi = c
		}
		if lo < 0 || v < r[lo] {
			lo = c
		}
	}
	return max(hi, 0), max(lo, 0)
}

// influence is a game's term of class c's win rate: (wins − rate·seats) /
// mean seats per game.
func influence(r *GameRecord, rate, seats [4]float64, c int) float64 {
	if seats[c] == 0 {
		return 0
	}
	w := 0.0
	if int(r.WinnerClass) == c {
		w = 1
	}
	return (w - rate[c]*float64(r.ClassSeats[c])) / seats[c]
}
