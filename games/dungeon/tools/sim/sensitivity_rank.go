package sim

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"strconv"
)

// A sensitivity run's effects accumulated, ranked and written out as CSV.

// moments accumulates a mean and variance (Welford).
type moments struct{ n, mean, m2 float64 }

func (m *moments) add(x float64) {
	m.n++
	d := x - m.mean
	m.mean += d / m.n
	m.m2 += d * (x - m.mean)
}

// effect returns the mean with its Student's t 95% interval.
func (m *moments) effect() Effect {
	if m.n < 2 {
		return Effect{Estimate: m.mean, Lo: m.mean, Hi: m.mean}
	}
	h := tQuantile975(int64(m.n)-1) * math.Sqrt(m.m2/(m.n-1)/m.n)
	return Effect{Estimate: m.mean, Lo: m.mean - h, Hi: m.mean + h}
}

// Ranked returns the numbers (parameters) played, ranked by the largest
// |effect| of their nudges on the objective, each with its down and up
// nudge (nil when refused).
func (s *Sensitivity) Ranked(obj int) []RankedParam {
	byParam := map[string]*RankedParam{}
	var order []string
	for i := range s.Nudges {
		n := &s.Nudges[i]
		rp := byParam[n.Param]
		if rp == nil {
			rp = &RankedParam{Param: n.Param, Base: n.Base}
			byParam[n.Param] = rp
			order = append(order, n.Param)
		}
		if n.Refused != "" {
			continue
		}
		if n.Value < n.Base {
			rp.Down = n
		} else {
			rp.Up = n
		}
		rp.Score = math.Max(rp.Score, math.Abs(n.Effects[obj].Estimate))
	}
	var out []RankedParam
	for _, p := range order {
		if rp := byParam[p]; rp.Down != nil || rp.Up != nil {
			out = append(out, *rp)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out
}

// RankedParam is one number with its nudges, for the ranking.
type RankedParam struct {
	Param       string
	Base, Score float64
	Down, Up    *Nudge
}

// CSV returns sensitivity.csv: one row per nudge and objective, with the
// columns param, base, value, objective, effect, ci_lo, ci_hi, unit,
// games, refused (effects of rates as fractions, as in measures.csv; a
// refused nudge has one row with the reason and no effect).
func (s *Sensitivity) CSV() []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write([]string{"param", "base", "value", "objective", "effect", "ci_lo", "ci_hi", "unit", "games", "refused"})
	units := [numObjectives]string{UnitShare, UnitShare, UnitRounds}
	for _, n := range s.Nudges {
		if n.Refused != "" {
			w.Write([]string{n.Param, FormatNumber(n.Base), FormatNumber(n.Value), "", "", "", "", "", "", n.Refused})
			continue
		}
		for o, e := range n.Effects {
			w.Write([]string{n.Param, FormatNumber(n.Base), FormatNumber(n.Value), ObjectiveIDs[o], ff(e.Estimate), ff(e.Lo), ff(e.Hi),
				units[o], strconv.FormatInt(s.Games, 10), ""})
		}
	}
	w.Flush()
	return buf.Bytes()
}

// Write writes sensitivity.csv and report.html into dir.
func (s *Sensitivity) Write(dir string) error {
	if err := writeFileAtomic(filepath.Join(dir, "sensitivity.csv"), s.CSV()); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "report.html"), s.reportHTML())
}

// Played returns how many nudges were played and how many refused.
func (s *Sensitivity) Played() (played, refused int) {
	for _, n := range s.Nudges {
		if n.Refused != "" {
			refused++
		} else {
			played++
		}
	}
	return
}

// FormatEffect renders an effect of objective obj with its interval:
// "+2.1 pp [+1.0, +3.2]" or "-0.31 rounds [-0.40, -0.22]".
func FormatEffect(obj int, e Effect) string {
	if obj == ObjLength {
		return fmt.Sprintf("%+.2f [%+.2f, %+.2f]", e.Estimate, e.Lo, e.Hi)
	}
	return fmt.Sprintf("%+.1f pp [%+.1f, %+.1f]", 100*e.Estimate, 100*e.Lo, 100*e.Hi)
}
