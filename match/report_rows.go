package match

import (
	"math"
	"strconv"

	"github.com/fairboard/fairboard/ntbea"
)

// The design tools' results as rows: what their printed tables show, one
// value a field, rates as fractions. The CSV writers (report_csv.go) and
// the HTML reports (gamectl) read these, so the files say what the
// terminal said.

// RateCell is one cell of a simulation's balance: a seat position or a
// seat option's value.
type RateCell struct {
	// Name is the position's number ("1" = first to act) or, for an
	// option value, "OPTION=VALUE" (sweep.csv's position column).
	Name   string
	Option bool
	// Games are the games (an option value: the seat-games that played
	// it), Wins the games of them won.
	Games, Wins int64
	// Rate is Wins/Games (0 for no games), Lo and Hi its Wilson 95%
	// interval, Edge = Rate - 1/seats, MeanPayoff the payoff's mean over
	// those games.
	Rate, Lo, Hi, Edge, MeanPayoff float64
}

// Label is the cell as the printed tables name it: "position 1", or
// "OPTION=VALUE".
func (c RateCell) Label() string {
	if c.Option {
		return c.Name
	}
	return "position " + c.Name
}

// RateCells returns r's cells: each seat position, then each seat option's
// values (none for a game without seat options).
func RateCells(r *SimResult) []RateCell {
	fair := 1 / float64(r.Seats)
	cell := func(name string, opt bool, k, n int64, payoff float64) RateCell {
		c := RateCell{Name: name, Option: opt, Games: n, Wins: k}
		if n > 0 {
			c.Rate = float64(k) / float64(n)
		}
		c.Lo, c.Hi = Wilson(k, n)
		c.Edge = c.Rate - fair
		c.MeanPayoff = payoff / math.Max(1, float64(n))
		return c
	}
	var out []RateCell
	for p, k := range r.Wins {
		out = append(out, cell(strconv.Itoa(p+1), false, k, r.Games, r.Payoff[p]))
	}
	for _, t := range r.Options {
		for v, name := range t.Values {
			out = append(out, cell(t.Name+"="+name, true, t.Wins[v], t.Games[v], t.Payoff[v]))
		}
	}
	return out
}

// SensitivityRow is one nudge's effect on one objective ("position", and
// "option" too for a game with seat options), as WriteRanking prints it;
// a number whose range is a single value has one row, not nudged.
type SensitivityRow struct {
	Rank      int // the number's rank, 1 = largest effect
	Param     string
	Base      float64 // the number in the base ruleset
	Min, Max  float64 // its range
	Size      float64 // its largest effect (ParamEffect.Size)
	Nudged    bool    // false: the range is a single value (the rest is zero)
	Value     float64 // the nudged value
	Objective string  // "position" or "option"
	// Cell is the tracked cell ("position 1", "OPTION=VALUE"), RateBase
	// and Rate its win rate in the base and nudged runs, EdgeBase and Edge
	// their edges over 1/seats.
	Cell           string
	RateBase, Rate float64
	EdgeBase, Edge float64
	Effect, Lo, Hi float64 // Effect.Delta and its 95% interval
	Games          int64   // games a ruleset
}

// Rows returns the ranking as rows: by rank, each number's nudges in
// order, the position objective before the option one.
func (r *SensitivityResult) Rows() []SensitivityRow {
	fair := 1 / float64(r.Seats)
	var out []SensitivityRow
	for rank, pe := range r.Params {
		head := SensitivityRow{Rank: rank + 1, Param: pe.Param.Path, Base: pe.Base, Min: pe.Param.Min, Max: pe.Param.Max, Size: pe.Size, Games: r.Base.Games}
		if len(pe.Nudges) == 0 {
			out = append(out, head)
		}
		for _, n := range pe.Nudges {
			effects := []Effect{n.Position}
			if r.HasOption {
				effects = append(effects, n.Option)
			}
			for k, e := range effects {
				row := head
				row.Nudged, row.Value, row.Objective = true, n.Value, []string{"position", "option"}[k]
				row.Cell = r.Cells[e.Cell]
				row.RateBase, row.Rate = cellRate(r.Base, e.Cell, r.Seats), cellRate(n.Result, e.Cell, r.Seats)
				row.EdgeBase, row.Edge = row.RateBase-fair, row.Rate-fair
				row.Effect, row.Lo, row.Hi = e.Delta, e.Lo, e.Hi
				out = append(out, row)
			}
		}
	}
	return out
}

// SkillRow is one level's seat position in a by-skill run.
type SkillRow struct {
	Level int    // 0: the baseline (the simulation's own bots)
	Bots  string // the level's bots, comma-separated
	RateCell
	Fair float64 // the fair share 1/seats
	// Payoff is the position's mean payoff, PayoffLo and PayoffHi its 95%
	// interval (PayoffMean), FairPayoff the mean over positions and
	// PayoffEdge = Payoff - FairPayoff.
	Payoff, PayoffLo, PayoffHi, FairPayoff, PayoffEdge float64
	ByPayoff                                           bool   // the run is read in mean payoff
	Verdict                                            string // the position's (EdgeVerdict), the same at every level
	Partial                                            bool   // the level was stopped before its last game
}

// Rows returns one row per level and seat position, levels in order.
func (r *SkillResult) Rows() []SkillRow {
	byPayoff := r.byPayoff()
	var out []SkillRow
	for l, lv := range r.Levels {
		res := lv.Result
		cells := RateCells(res)
		for p := range res.Wins {
			row := SkillRow{Level: l, Bots: joinComma(lv.Bots), RateCell: cells[p], Fair: 1 / float64(res.Seats),
				FairPayoff: res.FairPayoff(), ByPayoff: byPayoff, Verdict: r.EdgeVerdict(p), Partial: res.Games+res.Failed < res.Requested}
			row.Payoff, row.PayoffLo, row.PayoffHi = res.PayoffMean(p)
			row.PayoffEdge = row.Payoff - row.FairPayoff
			out = append(out, row)
		}
	}
	return out
}

// TuneRow is one candidate a tuner played, or its confirmation.
type TuneRow struct {
	// Phase is "grid" or "ntbea" for a candidate, "confirmation" for the
	// best played again on fresh games.
	Phase string
	// Rank is the candidate's place in the tuner's order (the grid: by
	// score; NTBEA: by score plus one standard error), 1 = best; 0 for the
	// confirmation.
	Rank int
	// FirstGen is the NTBEA generation that proposed the candidate, Evals
	// the times it was played (the grid: 0 and 1).
	FirstGen, Evals int
	Games           int64     // games played to their end (NTBEA: pooled)
	Values          []float64 // by the run's numbers
	Score, ScoreSE  float64   // TuneScore and TuneScoreSE, fractions squared
	Fair            float64   // the fair share 1/seats
	Cells           []RateCell
	Verdict         string // the confirmation's: "met" or "not met"
}

func tuneRow(phase string, rank int, values []float64, r *SimResult) TuneRow {
	s, se := tuneScore(r)
	return TuneRow{Phase: phase, Rank: rank, Evals: 1, Games: r.Games, Values: values, Score: s, ScoreSE: se,
		Fair: 1 / float64(r.Seats), Cells: RateCells(r)}
}

func verdict(met bool) string {
	if met {
		return "met"
	}
	return "not met"
}

// Rows returns the grid's candidates by score, then the confirmation.
func (r *TuneResult) Rows() []TuneRow {
	var out []TuneRow
	for k, c := range r.Candidates {
		out = append(out, tuneRow("grid", k+1, c.Values, c.Result))
	}
	if r.Confirm != nil {
		row := tuneRow("confirmation", 0, r.Candidates[0].Values, r.Confirm)
		row.Verdict = verdict(r.Met)
		out = append(out, row)
	}
	return out
}

// Rows returns the candidates played, by score plus one standard error
// (the order WriteReport prints), then, once done, the confirmation.
func (st *NTBEARun) Rows() []TuneRow {
	var out []TuneRow
	for k, c := range ntbea.Order(len(st.Candidates), st.score) {
		cd := &st.Candidates[c]
		row := tuneRow("ntbea", k+1, cd.Values, cd.Pooled)
		row.FirstGen, row.Evals = cd.FirstGen, len(cd.Evals)
		out = append(out, row)
	}
	if st.Confirm != nil {
		row := tuneRow("confirmation", 0, st.Candidates[st.Chosen].Values, st.Confirm)
		row.Verdict = verdict(st.Met)
		out = append(out, row)
	}
	return out
}

// NTBEAGenRow is one NTBEA generation as WriteReport prints it: its
// number, candidates played, the best after it (its values, "goal=40
// dieSides=6"), that best's pooled score and standard error (fractions
// squared) and the games it had pooled then.
type NTBEAGenRow struct {
	Number, Candidates int
	Best               string
	Score, ScoreSE     float64
	Games              int64
}

// GenRows returns the generations played, in order.
func (st *NTBEARun) GenRows() []NTBEAGenRow {
	var out []NTBEAGenRow
	for _, g := range st.History {
		out = append(out, NTBEAGenRow{Number: g.Number, Candidates: len(g.Candidates), Best: st.describe(g.Best),
			Score: g.BestScore, ScoreSE: g.BestSE, Games: st.gamesUpTo(g)})
	}
	return out
}
