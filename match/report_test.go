package match_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/match"
)

// The design tools' CSV files against a second computation: each figure
// recomputed from the players.csv of a separate simulation of the same
// ruleset, bots and seeds (one row per seat and game), with the Wilson
// interval and the paired interval written here from their formulas.

// zNormal is the standard normal's 0.975 quantile (tables: 1.959964).
const zNormal = 1.959963984540054

// wilsonOf is the Wilson score interval of k successes in n at 95%:
// (p + z²/2n -/+ z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n).
func wilsonOf(k, n float64) (lo, hi float64) {
	p, z2 := k/n, zNormal*zNormal
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := zNormal * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / (1 + z2/n)
	return math.Max(0, centre-half), math.Min(1, centre+half)
}

// Wilson's interval for 0 of 10 is [0, z²/(n+z²)] = [0, 0.2775] (the
// closed form at k = 0): the formula above is the published one.
func TestWilsonOfClosedForm(t *testing.T) {
	lo, hi := wilsonOf(0, 10)
	require.Equal(t, 0.0, lo)
	require.InDelta(t, zNormal*zNormal/(10+zNormal*zNormal), hi, 1e-12)
	require.InDelta(t, 0.2775, hi, 1e-4)
}

// seatGame is one game of players.csv by position - 1: won and payoff.
type seatGame struct {
	won    []bool
	payoff []float64
}

// playersOf simulates cfg with players.csv and reads it back by game.
func playersOf(t *testing.T, cfg match.SimConfig) []seatGame {
	t.Helper()
	var buf bytes.Buffer
	cfg.Players = &buf
	_, err := match.Simulate(context.Background(), cfg)
	require.NoError(t, err)
	recs, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Equal(t, strings.Split(match.PlayersHeader, ","), recs[0])
	games := make([]seatGame, cfg.Games)
	for _, r := range recs[1:] {
		i, _ := strconv.Atoi(r[0])
		pos, _ := strconv.Atoi(r[5])
		pay, _ := strconv.ParseFloat(r[7], 64)
		g := &games[i]
		for len(g.won) < pos {
			g.won, g.payoff = append(g.won, false), append(g.payoff, 0)
		}
		g.won[pos-1], g.payoff[pos-1] = r[6] == "1" || r[6] == "true", pay
	}
	return games
}

// rateOf is position p's wins and games.
func rateOf(games []seatGame, p int) (k, n float64) {
	for _, g := range games {
		if g.won[p] {
			k++
		}
		n++
	}
	return k, n
}

// readCSV parses a CSV file into maps by column name, checking the header.
func readCSV(t *testing.T, data []byte, header []string) []map[string]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, header, recs[0])
	var out []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for c, h := range header {
			m[h] = r[c]
		}
		out = append(out, m)
	}
	return out
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return v
}

// close10 checks a value the CSV wrote to 10 significant digits.
func close10(t *testing.T, want float64, got string, what string) {
	t.Helper()
	require.InDelta(t, want, num(t, got), 1e-9*math.Max(1, math.Abs(want)), what)
}

func pigRules(t *testing.T, js string) game.Ruleset {
	r, err := pig.Definition{}.DecodeRuleset([]byte(js))
	require.NoError(t, err)
	return r
}

func TestSensitivityCSVFromPlayers(t *testing.T) {
	cfg := pigSim(300, "sens-csv", 2)
	cfg.Rules = pigRules(t, `{"goal":20,"dieSides":6}`)
	res, err := match.Sensitivity(context.Background(), match.SensitivityConfig{Sim: cfg, Params: []string{"goal"}, Step: 0.001})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, res.WriteCSV(&buf))
	rows := readCSV(t, buf.Bytes(), strings.Split(match.SensitivityHeader, ","))
	require.Len(t, rows, 2, "goal 20 nudged to 10 and 30 (0.001 of [1, 10000] rounds to 10)")
	base := playersOf(t, cfg)
	const fair = 0.5
	for k, row := range rows {
		want := []string{"10", "30"}[k]
		require.Equal(t, "goal", row["param"])
		require.Equal(t, "20", row["base"])
		require.Equal(t, want, row["value"])
		require.Equal(t, "position", row["objective"])
		require.Equal(t, "300", row["games"])
		require.Equal(t, "1", row["rank"])
		nc := cfg
		nc.Rules = pigRules(t, `{"goal":`+want+`,"dieSides":6}`)
		nudged := playersOf(t, nc)
		// The tracked cell has the largest |edge| in either run.
		largest := 0.0
		for p := range 2 {
			for _, g := range [][]seatGame{base, nudged} {
				k, n := rateOf(g, p)
				largest = math.Max(largest, math.Abs(k/n-fair))
			}
		}
		p, err := strconv.Atoi(strings.TrimPrefix(row["cell"], "position "))
		require.NoError(t, err, row["cell"])
		kb, n := rateOf(base, p-1)
		kn, _ := rateOf(nudged, p-1)
		eb, en := kb/n-fair, kn/n-fair
		require.InDelta(t, largest, math.Max(math.Abs(eb), math.Abs(en)), 1e-12)
		close10(t, kb/n, row["rate_base"], "rate_base")
		close10(t, kn/n, row["rate"], "rate")
		close10(t, eb, row["edge_base"], "edge_base")
		close10(t, en, row["edge"], "edge")
		close10(t, math.Abs(en)-math.Abs(eb), row["effect"], "effect")
		// The paired interval: x_i = s'(w'_i - f) - s(w_i - f), the signs
		// the observed edges' (a zero edge takes the other's).
		s, s2 := math.Copysign(1, eb), math.Copysign(1, en)
		if eb == 0 {
			s = s2
		}
		if en == 0 {
			s2 = s
		}
		var xs []float64
		mean := 0.0
		for i := range base {
			w, w2 := 0.0, 0.0
			if base[i].won[p-1] {
				w = 1
			}
			if nudged[i].won[p-1] {
				w2 = 1
			}
			x := s2*(w2-fair) - s*(w-fair)
			xs = append(xs, x)
			mean += x / n
		}
		v := 0.0
		for _, x := range xs {
			v += (x - mean) * (x - mean) / (n - 1)
		}
		half := zNormal * math.Sqrt(v/n)
		close10(t, mean, row["effect"], "effect as the paired mean")
		close10(t, mean-half, row["ci_lo"], "ci_lo")
		close10(t, mean+half, row["ci_hi"], "ci_hi")
	}
}

func TestSkillCSVFromPlayers(t *testing.T) {
	cfg := pigSim(200, "skill-csv", 2)
	cfg.Rules = pigRules(t, `{"goal":15,"dieSides":6}`)
	levels := []string{"hold:5", "mcts:3"}
	res, err := match.BySkillBots(context.Background(), cfg, levels)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, res.WriteCSV(&buf))
	rows := readCSV(t, buf.Bytes(), strings.Split(match.SkillHeader, ","))
	require.Len(t, rows, 3*2, "a row per level (the baseline and two) and position")
	sig := map[int][]bool{}
	for l, bots := range [][]string{{"random"}, {"hold:5"}, {"mcts:3"}} {
		lc := cfg
		lc.Bots = bots
		games := playersOf(t, lc)
		for p := range 2 {
			row := rows[2*l+p]
			require.Equal(t, strconv.Itoa(l), row["level"])
			require.Equal(t, bots[0], row["bots"])
			require.Equal(t, strconv.Itoa(p+1), row["position"])
			k, n := rateOf(games, p)
			lo, hi := wilsonOf(k, n)
			require.Equal(t, strconv.Itoa(int(k)), row["wins"])
			require.Equal(t, "200", row["games"])
			close10(t, k/n, row["rate"], "rate")
			close10(t, lo, row["lo"], "lo")
			close10(t, hi, row["hi"], "hi")
			close10(t, 0.5, row["fair_share"], "fair_share")
			close10(t, k/n-0.5, row["edge"], "edge")
			// Pig's payoff is its win: mean and normal interval.
			var sum, sq float64
			for _, g := range games {
				sum += g.payoff[p]
				sq += g.payoff[p] * g.payoff[p]
			}
			m := sum / n
			half := 1.96 * math.Sqrt((sq-n*m*m)/(n-1)/n)
			close10(t, m, row["mean_payoff"], "mean_payoff")
			close10(t, m-half, row["payoff_lo"], "payoff_lo")
			close10(t, m+half, row["payoff_hi"], "payoff_hi")
			require.Equal(t, "win", row["scored_by"])
			require.Equal(t, "false", row["partial"])
			sig[p] = append(sig[p], lo > 0.5 || hi < 0.5)
		}
	}
	for p, s := range sig {
		want := "none"
		switch {
		case s[0] && s[1] && s[2]:
			want = "holds"
		case s[0] && !s[2]:
			want = "vanishes"
		case !s[0] && s[2]:
			want = "appears"
		}
		for l := range 3 {
			require.Equal(t, want, rows[2*l+p]["verdict"], "position %d", p+1)
		}
	}
}

// tuneRowFromPlayers checks a tune.csv row against games of its ruleset:
// its rates, intervals and the score, sum of e^2 - p(1-p)/n.
func tuneRowFromPlayers(t *testing.T, row map[string]string, games []seatGame) {
	t.Helper()
	score := 0.0
	for p := range 2 {
		k, n := rateOf(games, p)
		lo, hi := wilsonOf(k, n)
		c := strconv.Itoa(p + 1)
		close10(t, k/n, row["rate_"+c], "rate_"+c)
		close10(t, lo, row["lo_"+c], "lo_"+c)
		close10(t, hi, row["hi_"+c], "hi_"+c)
		r := k / n
		score += (r-0.5)*(r-0.5) - r*(1-r)/n
	}
	close10(t, score, row["score"], "score")
	require.Equal(t, strconv.Itoa(len(games)), row["games"])
}

func TestTuneCSVFromPlayers(t *testing.T) {
	cfg := pigSim(150, "tune-csv", 2)
	res, err := match.Tune(context.Background(), match.TuneConfig{Sim: cfg, Params: []match.TuneParam{{Path: "goal", Lo: 5, Hi: 25}}, Levels: 3, Target: 0.1})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, match.WriteTuneCSV(&buf, []string{"goal"}, res.Rows()))
	header := []string{"phase", "rank", "first_generation", "evaluations", "games", "goal", "score", "score_se", "fair_share", "verdict",
		"rate_1", "lo_1", "hi_1", "rate_2", "lo_2", "hi_2"}
	rows := readCSV(t, buf.Bytes(), header)
	require.Len(t, rows, 3+1, "the grid 5, 15, 25 and the confirmation")
	last := -math.MaxFloat64
	seen := map[string]bool{}
	for k, row := range rows[:3] {
		require.Equal(t, "grid", row["phase"])
		require.Equal(t, strconv.Itoa(k+1), row["rank"])
		seen[row["goal"]] = true
		sc := cfg
		sc.Rules, sc.Seed = pigRules(t, `{"goal":`+row["goal"]+`,"dieSides":6}`), "tune-csv/search"
		tuneRowFromPlayers(t, row, playersOf(t, sc))
		require.GreaterOrEqual(t, num(t, row["score"]), last, "by score")
		last = num(t, row["score"])
	}
	require.Equal(t, map[string]bool{"5": true, "15": true, "25": true}, seen)
	conf := rows[3]
	require.Equal(t, "confirmation", conf["phase"])
	require.Equal(t, rows[0]["goal"], conf["goal"], "the best is confirmed")
	sc := cfg
	sc.Rules, sc.Seed = pigRules(t, `{"goal":`+conf["goal"]+`,"dieSides":6}`), "tune-csv/confirm"
	games := playersOf(t, sc)
	tuneRowFromPlayers(t, conf, games)
	met := true
	for p := range 2 {
		lo, hi := wilsonOf(rateOf(games, p))
		met = met && lo >= 0.4 && hi <= 0.6
	}
	require.Equal(t, map[bool]string{true: "met", false: "not met"}[met], conf["verdict"])
}
