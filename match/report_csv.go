package match

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// The design tools' CSV files (gamectl sim ... --game NAME --out DIR):
// every rate a fraction, every interval a 95% one, numbers to 10
// significant digits (strconv 'g', 10, as the dungeon's CSV files).

// SensitivityHeader is sensitivity.csv's header: one row per nudge and
// objective (SensitivityRow), a number not nudged one row with value,
// objective and what follows empty but games, rank and largest_effect.
const SensitivityHeader = "param,base,value,objective,cell,edge_base,edge,effect,ci_lo,ci_hi,rate_base,rate,games,rank,largest_effect,min,max"

// SkillHeader is skill.csv's header: one row per level and seat position
// (SkillRow); scored_by is "win" or "payoff" (the run's), verdict the
// position's over the levels.
const SkillHeader = "level,bots,position,games,wins,rate,lo,hi,fair_share,edge,mean_payoff,payoff_lo,payoff_hi,fair_payoff,payoff_edge,scored_by,verdict,partial"

func gnum(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

func i64(v int64) string { return strconv.FormatInt(v, 10) }

// writeRows writes a header (comma-separated) and rows with encoding/csv's
// quoting.
func writeRows(w io.Writer, header []string, rows [][]string) error {
	cw := csv.NewWriter(w)
	cw.Write(header)
	for _, r := range rows {
		cw.Write(r)
	}
	cw.Flush()
	return cw.Error()
}

// WriteCSV writes sensitivity.csv (SensitivityHeader).
func (r *SensitivityResult) WriteCSV(w io.Writer) error {
	var rows [][]string
	for _, x := range r.Rows() {
		if !x.Nudged {
			rows = append(rows, []string{x.Param, gnum(x.Base), "", "", "", "", "", "", "", "", "", "", i64(x.Games),
				strconv.Itoa(x.Rank), gnum(x.Size), gnum(x.Min), gnum(x.Max)})
			continue
		}
		rows = append(rows, []string{x.Param, gnum(x.Base), gnum(x.Value), x.Objective, x.Cell, gnum(x.EdgeBase), gnum(x.Edge),
			gnum(x.Effect), gnum(x.Lo), gnum(x.Hi), gnum(x.RateBase), gnum(x.Rate), i64(x.Games), strconv.Itoa(x.Rank),
			gnum(x.Size), gnum(x.Min), gnum(x.Max)})
	}
	return writeRows(w, strings.Split(SensitivityHeader, ","), rows)
}

// WriteCSV writes skill.csv (SkillHeader).
func (r *SkillResult) WriteCSV(w io.Writer) error {
	var rows [][]string
	for _, x := range r.Rows() {
		scored := "win"
		if x.ByPayoff {
			scored = "payoff"
		}
		rows = append(rows, []string{strconv.Itoa(x.Level), x.Bots, x.Name, i64(x.Games), i64(x.Wins), gnum(x.Rate), gnum(x.Lo),
			gnum(x.Hi), gnum(x.Fair), gnum(x.Edge), gnum(x.Payoff), gnum(x.PayoffLo), gnum(x.PayoffHi), gnum(x.FairPayoff),
			gnum(x.PayoffEdge), scored, x.Verdict, strconv.FormatBool(x.Partial)})
	}
	return writeRows(w, strings.Split(SkillHeader, ","), rows)
}

// TuneHeader returns tune.csv's header for the tuned numbers' paths and
// the run's cells (RateCell.Name: "1", "2", ... for the seat positions,
// "OPTION=VALUE" for the seat options' values): phase, rank,
// first_generation, evaluations, games, one column per number (its value),
// score and score_se (TuneScore and TuneScoreSE, fractions squared),
// fair_share, verdict (the confirmation's: "met" or "not met"), then per
// cell rate_CELL, lo_CELL, hi_CELL (its win rate and Wilson 95% interval).
func TuneHeader(paths []string, cells []RateCell) []string {
	h := []string{"phase", "rank", "first_generation", "evaluations", "games"}
	h = append(h, paths...)
	h = append(h, "score", "score_se", "fair_share", "verdict")
	for _, c := range cells {
		h = append(h, "rate_"+c.Name, "lo_"+c.Name, "hi_"+c.Name)
	}
	return h
}

// WriteTuneCSV writes tune.csv (TuneHeader): one row per candidate
// played, in the tuner's order, then the confirmation's (TuneResult.Rows,
// NTBEARun.Rows).
func WriteTuneCSV(w io.Writer, paths []string, rows []TuneRow) error {
	var cells []RateCell
	if len(rows) > 0 {
		cells = rows[0].Cells
	}
	var out [][]string
	for _, x := range rows {
		rank, first := strconv.Itoa(x.Rank), strconv.Itoa(x.FirstGen)
		if x.Rank == 0 {
			rank = ""
		}
		if x.Phase != "ntbea" {
			first = ""
		}
		rec := []string{x.Phase, rank, first, strconv.Itoa(x.Evals), i64(x.Games)}
		for _, v := range x.Values {
			rec = append(rec, gnum(v))
		}
		rec = append(rec, gnum(x.Score), gnum(x.ScoreSE), gnum(x.Fair), x.Verdict)
		for _, c := range x.Cells {
			rec = append(rec, gnum(c.Rate), gnum(c.Lo), gnum(c.Hi))
		}
		out = append(out, rec)
	}
	return writeRows(w, TuneHeader(paths, cells), out)
}
