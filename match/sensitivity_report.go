package match

import (
	"fmt"
	"io"
	"math"
)

// cellGames and cellRate are a result's seat-games and win rate of cell c.
func cellGames(r *SimResult, c, nPos int) int64 {
	if c < nPos {
		return r.Games
	}
	c -= nPos
	for _, t := range r.Options {
		if c < len(t.Values) {
			return t.Games[c]
		}
		c -= len(t.Values)
	}
	return 0
}

func cellRate(r *SimResult, c, nPos int) float64 {
	n := cellGames(r, c, nPos)
	if n == 0 {
		return 0
	}
	if c < nPos {
		return float64(r.Wins[c]) / float64(n)
	}
	c -= nPos
	for _, t := range r.Options {
		if c < len(t.Values) {
			return float64(t.Wins[c]) / float64(n)
		}
		c -= len(t.Values)
	}
	return 0
}

// objectiveOf returns r's largest absolute position and option edges
// (ties: the first cell).
func objectiveOf(r *SimResult) Objective {
	var o Objective
	fair := 1 / float64(r.Seats)
	for c := range r.Wins {
		if e := math.Abs(cellRate(r, c, r.Seats) - fair); e > o.Position+1e-12 {
			o.Position, o.PositionCell = e, c
		}
	}
	c := 0
	for _, t := range r.Options {
		for v := range t.Values {
			if e := math.Abs(cellRate(r, r.Seats+c, r.Seats) - fair); e > o.Option+1e-12 && t.Games[v] > 0 {
				o.Option, o.OptionCell = e, c
			}
			c++
		}
	}
	return o
}

// WriteRanking writes the ranking: the base's largest edges, then per
// number, largest effect first, each nudge's effect on the largest edge
// (percentage points, + = further from fair) with its 95% paired interval,
// the cell it tracks and that cell's win rate in the base and nudged runs.
func (r *SensitivityResult) WriteRanking(w io.Writer) {
	b := r.Base
	fmt.Fprintf(w, "%s: sensitivity, step %.4g of each range, %d games a ruleset, seed %q (game i: %s#i under every ruleset), %d seats, bots %s\n",
		r.Def, r.Step, b.Games, b.Seed, b.Seed, b.Seats, joinComma(b.Bots))
	fmt.Fprintf(w, "base ruleset %s: largest position edge %.1f pp (%s)", b.Rules, 100*r.Objective.Position, r.Cells[r.Objective.PositionCell])
	if r.HasOption {
		fmt.Fprintf(w, ", largest option edge %.1f pp (%s)", 100*r.Objective.Option, r.Cells[r.Seats+r.Objective.OptionCell])
	}
	fmt.Fprintln(w)
	what := "position"
	if r.HasOption {
		what = "option-value"
	}
	fmt.Fprintf(w, "ranked by the effect on the largest %s edge: |edge'| - |edge| of the cell with the largest edge in either run,\n"+
		"in percentage points (+ = further from fair), with its 95%% interval from the paired games\n", what)
	cell := func(n Nudge, e Effect) string {
		return fmt.Sprintf("%+6.1f [%+.1f, %+.1f] (%s %.1f%% -> %.1f%%)", 100*e.Delta, 100*e.Lo, 100*e.Hi, r.Cells[e.Cell],
			100*cellRate(b, e.Cell, r.Seats), 100*cellRate(n.Result, e.Cell, r.Seats))
	}
	for rank, pe := range r.Params {
		fmt.Fprintf(w, "%2d. %s (base %g, range [%g, %g]): largest effect %.1f\n", rank+1, pe.Param.Path, pe.Base, pe.Param.Min, pe.Param.Max, 100*pe.Size)
		if len(pe.Nudges) == 0 {
			fmt.Fprintln(w, "      not nudged: its range is a single value")
		}
		for _, n := range pe.Nudges {
			fmt.Fprintf(w, "      = %-8g position edge %s", n.Value, cell(n, n.Position))
			if r.HasOption {
				fmt.Fprintf(w, "  option edge %s", cell(n, n.Option))
			}
			fmt.Fprintln(w)
		}
	}
}
