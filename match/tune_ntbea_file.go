package match

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fairboard/fairboard/ntbea"
	"github.com/fairboard/fairboard/rng"
)

// poolResults returns a's games and b's together (a nil: a copy of b),
// for a candidate's pooled score: the counts and sums added, the first
// failures kept.
func poolResults(a, b *SimResult) *SimResult {
	out := *b
	out.Wins, out.Payoff, out.Payoff2 = slices.Clone(b.Wins), slices.Clone(b.Payoff), slices.Clone(b.Payoff2)
	out.Failures = slices.Clone(b.Failures)
	out.Options = make([]OptionTally, len(b.Options))
	for o, t := range b.Options {
		out.Options[o] = OptionTally{Name: t.Name, Values: t.Values, Games: slices.Clone(t.Games), Wins: slices.Clone(t.Wins), Payoff: slices.Clone(t.Payoff)}
	}
	if a == nil {
		return &out
	}
	out.Seed = a.Seed
	out.Requested += a.Requested
	out.Games += a.Games
	out.Moves += a.Moves
	out.Failed += a.Failed
	out.ByPayoff = out.ByPayoff || a.ByPayoff
	out.Failures = append(slices.Clone(a.Failures), out.Failures...)[:min(10, len(a.Failures)+len(out.Failures))]
	for p := range out.Wins {
		out.Wins[p] += a.Wins[p]
		out.Payoff[p] += a.Payoff[p]
		out.Payoff2[p] += a.Payoff2[p]
	}
	for o := range out.Options {
		for v := range out.Options[o].Games {
			out.Options[o].Games[v] += a.Options[o].Games[v]
			out.Options[o].Wins[v] += a.Options[o].Wins[v]
			out.Options[o].Payoff[v] += a.Options[o].Payoff[v]
		}
	}
	return &out
}

// describe names candidate c's values ("goal=40 dieSides=6").
func (st *NTBEARun) describe(c int) string {
	var s []string
	for d, p := range st.Params {
		s = append(s, fmt.Sprintf("%s=%g", p.Path, st.Candidates[c].Values[d]))
	}
	return strings.Join(s, " ")
}

// WriteReport writes the run: what was searched, each generation's best,
// the best candidates played (at most 10, by pooled score plus one
// standard error), then, once done, the confirmation and the verdict.
func (st *NTBEARun) WriteReport(w io.Writer) {
	var names []string
	for _, p := range st.Params {
		names = append(names, fmt.Sprintf("%s in [%g, %g] (%d values)", p.Path, p.Lo, p.Hi, len(p.Values)))
	}
	how := "NTBEA"
	if st.Plan.Exhaustive {
		how = "NTBEA, the grid played whole first"
	}
	fmt.Fprintf(w, "%s: tuning %s, a grid of %d points, by %s: %d generations of up to %d candidates, %d games each on seed %q, the best confirmed on %q; %d seats, bots %s\n",
		st.Game, strings.Join(names, ", "), st.Plan.Grid, how, st.Plan.Generations, st.Plan.Batch, st.Games, st.Seed+"/gen<g>", st.Seed+"/confirm", st.Seats, joinComma(st.Bots))
	if len(st.History) > 0 {
		writeScoreLine(w, st.Candidates[st.History[0].Candidates[0]].Pooled, st.Target)
	}
	for _, g := range st.History {
		fmt.Fprintf(w, "  generation %2d: %d candidates, best %-30s score %8.2f +- %.2f over %d games\n",
			g.Number, len(g.Candidates), st.describe(g.Best), 1e4*g.BestScore, 1e4*g.BestSE, st.gamesUpTo(g))
	}
	order := ntbea.Order(len(st.Candidates), st.score)
	fmt.Fprintf(w, "the best of %d candidates played (score + 1 standard error, pooled):\n", len(order))
	for k, c := range order {
		if k == 10 {
			fmt.Fprintf(w, "  ... %d more\n", len(order)-10)
			break
		}
		p := st.Candidates[c].Pooled
		fmt.Fprintf(w, "  %2d. %-30s score %8.2f +- %.2f over %d games\n", k+1, st.describe(c), 1e4*TuneScore(p), 1e4*TuneScoreSE(p), p.Games)
	}
	if !st.Done() {
		fmt.Fprintf(w, "stopped after generation %d of %d; the same command resumes\n", len(st.History), st.Plan.Generations)
		return
	}
	writeConfirm(w, st.Confirm, st.Met, "budget")
}

// gamesUpTo returns the games the best after generation g had pooled then:
// its evaluations up to g, the run's games each.
func (st *NTBEARun) gamesUpTo(g NTBEAGen) int64 {
	n := int64(0)
	for _, h := range st.History[:g.Number] {
		if slices.Contains(h.Candidates, g.Best) {
			n += st.Games
		}
	}
	return n
}

// JSON returns the run as saved, to resume with ResumeNTBEA.
func (st *NTBEARun) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(st, "", " ")
	return append(b, '\n'), err
}

// ResumeNTBEA reads a run saved as JSON to resume it as fresh, the same
// run as NewNTBEA builds it again (the same settings; the workers may
// differ, as the results do not depend on them). Errors: not a saved run,
// another format, another run (the setting that differs is named), a
// state that does not hold together.
func ResumeNTBEA(data []byte, fresh *NTBEARun) (*NTBEARun, error) {
	st := &NTBEARun{}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, err
	}
	if st.Format != NTBEAFormat {
		return nil, fmt.Errorf("format %q, want %q", st.Format, NTBEAFormat)
	}
	if why := st.sameRun(fresh); why != "" {
		return nil, fmt.Errorf("another tuning run: %s", why)
	}
	if _, err := rng.Restore(st.RNG, "", rng.WithSeq(st.RNGSeq)); err != nil {
		return nil, fmt.Errorf("the search's stream: %w", err)
	}
	if st.Tuples == nil {
		st.Tuples = map[string]*ntbea.Stat{}
	}
	bad := errors.New("the run's state does not hold together")
	n := len(st.Candidates)
	if st.Current < 0 || st.Current >= n || len(st.History) > st.Plan.Generations || (st.Done() && (st.Chosen < 0 || st.Chosen >= n)) {
		return nil, bad
	}
	for _, c := range st.Candidates {
		if len(c.Index) != len(st.Params) || len(c.Values) != len(st.Params) {
			return nil, bad
		}
		for d, i := range c.Index {
			if i < 0 || i >= len(st.Params[d].Values) || c.Values[d] != st.Params[d].Values[i] {
				return nil, bad
			}
		}
	}
	for k, g := range st.History {
		if g.Number != k+1 {
			return nil, bad
		}
		for _, c := range append(slices.Clone(g.Candidates), g.Best) {
			if c < 0 || c >= n {
				return nil, bad
			}
		}
	}
	st.sim = fresh.sim
	return st, nil
}

// sameRun says which setting of o differs from the run's ("" if none).
func (st *NTBEARun) sameRun(o *NTBEARun) string {
	mine := runSettings{st.Game, st.Rules, st.Seed, st.Games, st.Seats, st.Bots, st.Target}
	if d := mine.differ(runSettings{o.Game, o.Rules, o.Seed, o.Games, o.Seats, o.Bots, o.Target}); d != "" {
		return d
	}
	switch {
	case st.Budget != o.Budget:
		return fmt.Sprintf("a budget of %d, the run's is %d", o.Budget, st.Budget)
	case len(st.Params) != len(o.Params):
		return fmt.Sprintf("%d numbers, the run has %d", len(o.Params), len(st.Params))
	}
	for d, p := range st.Params {
		q := o.Params[d]
		if p.Path != q.Path || p.Lo != q.Lo || p.Hi != q.Hi || !slices.Equal(p.Values, q.Values) {
			return fmt.Sprintf("%s=%g:%g, the run has %s=%g:%g", q.Path, q.Lo, q.Hi, p.Path, p.Lo, p.Hi)
		}
	}
	if st.Plan != o.Plan {
		return "another plan" // follows from the above; a hand-edited file
	}
	return ""
}
