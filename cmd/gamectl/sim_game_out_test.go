package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	gamePkg "github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// The --out DIR of the game design commands: the CSV files are the
// library's (whose figures match/report_test.go checks against players.csv
// of separate runs), report.html is one offline page whose tables say what
// the CSV says, every value escaped.

// hostileSeed is a seed every page must show as text.
const hostileSeed = `s<b>&"x</b>`

// page is a parsed report: its tables (rows of cell texts) and its text.
type page struct {
	tables [][][]string
	text   string
}

// parsePage parses a report and checks that it is offline: no script,
// no element that fetches, no URL, and the seed (if given) never raw.
func parsePage(t *testing.T, data []byte, seed string) page {
	t.Helper()
	require.Empty(t, offlineProblems(data, seed))
	doc, err := html.Parse(bytes.NewReader(data))
	require.NoError(t, err)
	var p page
	var text strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			text.WriteString(n.Data + "\n")
		case n.Type == html.ElementNode && n.Data == "script":
			t.Fatal("a <script> element")
		case n.Type == html.ElementNode && n.Data == "table":
			p.tables = append(p.tables, nil)
		case n.Type == html.ElementNode && n.Data == "tr":
			tb := &p.tables[len(p.tables)-1]
			*tb = append(*tb, nil)
		case n.Type == html.ElementNode && (n.Data == "td" || n.Data == "th"):
			tb := p.tables[len(p.tables)-1]
			tb[len(tb)-1] = append(tb[len(tb)-1], nodeText(n))
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	p.text = text.String()
	if seed != "" {
		require.Contains(t, p.text, seed, "the seed, read back as text")
	}
	return p
}

// offlineProblems lists what makes a page not an offline, escaped one:
// a script, an element that fetches, a URL, a raw value.
func offlineProblems(data []byte, raw ...string) []string {
	var out []string
	for _, banned := range []string{"<script", "<link", "<img", "<iframe", "http://", "https://", "@import", "url("} {
		if bytes.Contains(data, []byte(banned)) {
			out = append(out, "has "+banned)
		}
	}
	for _, r := range raw {
		if r != "" && bytes.Contains(data, []byte(r)) {
			out = append(out, "has "+r+" unescaped")
		}
	}
	return out
}

func nodeText(n *html.Node) string {
	if n.Type == html.TextNode {
		return n.Data
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		b.WriteString(nodeText(c))
	}
	return b.String()
}

// csvRows reads a CSV file of dir: its records after the header.
func csvRows(t *testing.T, dir, name string) (header []string, rows [][]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	return recs[0], recs[1:]
}

func readOut(t *testing.T, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	return data
}

// pp1 is a fraction (as a CSV string) in percent or points to one decimal.
func pp1(t *testing.T, s, format string) string {
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err, s)
	return fmt.Sprintf(format, 100*v)
}

// gamectlOK runs gamectl, which must exit 0, and returns its output.
func gamectlOK(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := gamectl(t, args...)
	require.Equal(t, 0, code, errs)
	return out
}

// sameAsLibrary checks that a command printed what the library's run
// prints, then "wrote DIR/CSV" and the others, that its CSV file is the
// library's, and returns that file's header and rows and the parsed
// report.html (checked offline, the seed escaped).
func sameAsLibrary(t *testing.T, out, dir, csvName, others string, print func(io.Writer), writeCSV func(io.Writer) error) ([]string, [][]string, page) {
	t.Helper()
	var text, csvWant bytes.Buffer
	print(&text)
	require.NoError(t, writeCSV(&csvWant))
	require.Equal(t, text.String()+"\nwrote "+dir+"/"+csvName+others+"\n", out)
	require.Equal(t, csvWant.String(), string(readOut(t, dir, csvName)))
	header, rows := csvRows(t, dir, csvName)
	return header, rows, parsePage(t, readOut(t, dir, "report.html"), hostileSeed)
}

func pigSimConfig(t *testing.T, games int64, seed string, rules string) match.SimConfig {
	cfg := match.SimConfig{Def: mustGame(t, "pig"), Games: games, Seed: seed, Seats: 2, Bots: []string{"random"}, Workers: 1}
	if rules != "" {
		var err error
		cfg.Rules, err = cfg.Def.DecodeRuleset([]byte(rules))
		require.NoError(t, err)
	}
	return cfg
}

func TestGameSensitivityOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "sens")
	rules := filepath.Join(t.TempDir(), "r.json")
	require.NoError(t, os.WriteFile(rules, []byte(`{"goal":20,"dieSides":6}`), 0o644))
	out := gamectlOK(t, "sim", "sensitivity", "--game", "pig", "--rules", rules, "--step", "0.001", "--games", "200",
		"--seed", hostileSeed, "--out", dir)
	want, err := match.Sensitivity(context.Background(), match.SensitivityConfig{Sim: pigSimConfig(t, 200, hostileSeed, `{"goal":20,"dieSides":6}`), Step: 0.001})
	require.NoError(t, err)
	header, rows, p := sameAsLibrary(t, out, dir, "sensitivity.csv", " and report.html", want.WriteRanking, want.WriteCSV)
	require.Len(t, rows, 4, "two numbers nudged each way")
	require.Len(t, p.tables, 2, "the run, the ranking")
	rank := p.tables[1]
	require.Len(t, rank, 1+len(rows))
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %s", name)
		return -1
	}
	for i, r := range rows {
		cells := rank[i+1]
		require.Equal(t, r[col("rank")], cells[0])
		require.Equal(t, r[col("param")], cells[1])
		require.Equal(t, r[col("value")], cells[5])
		require.Equal(t, r[col("cell")], cells[7])
		require.Equal(t, pp1(t, r[col("rate_base")], "%.1f%%")+" -> "+pp1(t, r[col("rate")], "%.1f%%"), cells[8])
		require.Equal(t, pp1(t, r[col("effect")], "%+.1f"), cells[9])
		require.Equal(t, "["+pp1(t, r[col("ci_lo")], "%+.1f")+", "+pp1(t, r[col("ci_hi")], "%+.1f")+"]", cells[10])
	}
}

func TestGameBySkillOut(t *testing.T) {
	dir := t.TempDir()
	out := gamectlOK(t, "sim", "--game", "pig", "--by-skill", "hold:5,3", "--games", "100", "--seed", hostileSeed, "--out", dir)
	want, err := match.BySkillBots(context.Background(), pigSimConfig(t, 100, hostileSeed, ""), []string{"hold:5", "mcts:3"})
	require.NoError(t, err)
	_, rows, p := sameAsLibrary(t, out, dir, "skill.csv", " and report.html", want.WriteTable, want.WriteCSV)
	require.Len(t, rows, 6, "three levels, two positions")
	require.Len(t, p.tables, 3, "the run, the levels, the verdicts")
	levels := p.tables[1]
	require.Equal(t, []string{"level", "bots", "position", "win rate", "95% interval", "edge (pp)"}, levels[0])
	for i, r := range rows {
		// skill.csv: level,bots,position,games,wins,rate,lo,hi,fair_share,edge,...
		cells := levels[i+1]
		require.Equal(t, []string{r[1], r[2], pp1(t, r[5], "%.1f%%"), "[" + pp1(t, r[6], "%.1f") + ", " + pp1(t, r[7], "%.1f") + "]",
			pp1(t, r[9], "%+.1f")}, cells[1:])
	}
	require.Equal(t, [][]string{{"position", "verdict"}, {"1", rows[0][16]}, {"2", rows[1][16]}}, p.tables[2])
}

func TestGameTuneOut(t *testing.T) {
	dir := t.TempDir()
	out := gamectlOK(t, "sim", "tune", "--game", "pig", "--param", "goal=5:25", "--levels", "3", "--games", "100",
		"--seed", hostileSeed, "--target", "10", "--out", dir)
	sc := pigSimConfig(t, 100, hostileSeed, "")
	want, err := match.Tune(context.Background(), match.TuneConfig{Sim: sc, Params: []match.TuneParam{{Path: "goal", Lo: 5, Hi: 25}}, Levels: 3, Target: 0.1})
	require.NoError(t, err)
	_, rows, p := sameAsLibrary(t, out, dir, "tune.csv", ", rules.json and report.html", want.WriteReport,
		func(w io.Writer) error { return match.WriteTuneCSV(w, []string{"goal"}, want.Rows()) })
	require.Len(t, rows, 4, "three candidates and the confirmation")
	conf := rows[3]
	require.Equal(t, "confirmation", conf[0])

	// rules.json is the confirmed ruleset, and "sim --rules" takes it.
	rules := readOut(t, dir, "rules.json")
	require.Equal(t, `{"goal":`+conf[5]+`,"dieSides":6}`+"\n", string(rules))
	out = gamectlOK(t, "sim", "--game", "pig", "--rules", filepath.Join(dir, "rules.json"), "--games", "2", "--seed", "x")
	require.Contains(t, out, `ruleset {"goal":`+conf[5]+`,"dieSides":6}`)

	require.Len(t, p.tables, 3, "the run, the candidates, the confirmation")
	cands := p.tables[1]
	require.Equal(t, []string{"rank", "goal", "games", "evaluations", "score (pp²)", "+- (1 standard error)"}, cands[0])
	for i, r := range rows[:3] {
		// tune.csv: phase,rank,first_generation,evaluations,games,goal,score,score_se,...
		require.Equal(t, []string{r[1], r[5], r[4], r[3], score2(t, r[6]), score2(t, r[7])}, cands[i+1])
	}
	confTable := p.tables[2]
	require.Len(t, confTable, 3, "a header and the two positions")
	// rate_1,lo_1,hi_1 are columns 10 to 12.
	require.Equal(t, pp1(t, conf[10], "%.1f%%"), confTable[1][3])
	require.Equal(t, "["+pp1(t, conf[11], "%.1f")+", "+pp1(t, conf[12], "%.1f")+"]", confTable[1][4])
	verdict := "verdict: not met within the grid (the best candidate above is the closest found)"
	if conf[9] == "met" {
		verdict = "verdict: met"
	}
	require.Contains(t, p.text, verdict)
}

func score2(t *testing.T, s string) string {
	v, err := strconv.ParseFloat(s, 64)
	require.NoError(t, err)
	return fmt.Sprintf("%.2f", 1e4*v)
}

// NTBEA writes its files once the run has its verdict: an invocation
// stopped by --minutes writes none and says so; the one that finishes
// writes the run's candidates and confirmation.
func TestGameNTBEAOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tune")
	state := filepath.Join(t.TempDir(), "run.json")
	out := gamectlOK(t, ntbeaArgs(t, "--state", state, "--minutes", "0", "--out", dir)...)
	require.Contains(t, out, "--out "+dir+": written when the run has its verdict")
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, left, "nothing written, no temporary file left")

	out = gamectlOK(t, ntbeaArgs(t, "--state", state, "--out", dir)...)
	require.True(t, strings.HasSuffix(out, "\nwrote "+dir+"/tune.csv, rules.json and report.html\n"), out)
	data, err := os.ReadFile(state)
	require.NoError(t, err)
	st := &match.NTBEARun{}
	require.NoError(t, json.Unmarshal(data, st))
	var csvWant bytes.Buffer
	require.NoError(t, match.WriteTuneCSV(&csvWant, []string{"goal", "dieSides"}, st.Rows()))
	require.Equal(t, csvWant.String(), string(readOut(t, dir, "tune.csv")))
	_, rows := csvRows(t, dir, "tune.csv")
	played, evals := 0, 0
	for _, c := range st.Candidates {
		if c.Pooled != nil {
			played++
			evals += len(c.Evals)
		}
	}
	require.Len(t, rows, played+1)
	sum := 0
	for _, r := range rows[:played] {
		require.Equal(t, "ntbea", r[0])
		e, _ := strconv.Atoi(r[3])
		g, _ := strconv.Atoi(r[4])
		require.Equal(t, 300*e, g, "a candidate's games: its evaluations of 300")
		sum += e
	}
	require.Equal(t, evals, sum)
	require.LessOrEqual(t, sum, 32, "the budget")
	require.Equal(t, "confirmation", rows[played][0])
	require.Equal(t, st.Confirm.Rules+"\n", string(readOut(t, dir, "rules.json")))
	p := parsePage(t, readOut(t, dir, "report.html"), "")
	require.Len(t, p.tables, 4, "the run, the generations, the candidates, the confirmation")
	require.Len(t, p.tables[1], 1+len(st.History))
	require.Len(t, p.tables[2], 1+played)
}

// A --out that cannot be a directory is refused before any game (exit 2),
// by every command.
func TestGameOutRefusals(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for _, args := range [][]string{
		{"sim", "sensitivity", "--game", "pig", "--games", "100000000", "--seed", "s"},
		{"sim", "--game", "pig", "--by-skill", "3", "--games", "100000000", "--seed", "s"},
		{"sim", "tune", "--game", "pig", "--param", "goal", "--games", "100000000", "--seed", "s"},
		{"sim", "tune", "--game", "pig", "--search", "ntbea", "--param", "goal=1:30", "--games", "100000000", "--seed", "s"},
		{"sim", "sweep", "--game", "pig", "--param", "goal", "--values", "5", "--games", "100000000", "--seed", "s"},
	} {
		for _, out := range []string{file, filepath.Join(file, "sub")} {
			code, _, errs := gamectl(t, append(args, "--out", out)...)
			require.Equal(t, 2, code, "%v --out %s: %s", args, out, errs)
			require.Contains(t, errs, "--out "+out+": ", "%v", args)
		}
	}
}

// The sweep's report.html: per value and cell, what sweep.csv says.
func TestGameSweepReport(t *testing.T) {
	dir := t.TempDir()
	gamectlOK(t, "sim", "sweep", "--game", "pig", "--param", "goal", "--values", "1,5", "--games", "200", "--seed", hostileSeed, "--out", dir)
	_, rows := csvRows(t, dir, "sweep.csv")
	require.Len(t, rows, 4)
	p := parsePage(t, readOut(t, dir, "report.html"), hostileSeed)
	require.Len(t, p.tables, 2, "the run, the sweep")
	require.Equal(t, []string{"goal", "cell", "games", "wins", "win rate", "95% interval", "edge (pp)", "mean payoff"}, p.tables[1][0])
	for i, r := range rows {
		// sweep.csv: value,position,games,wins,rate,lo,hi,edge,mean_payoff
		require.Equal(t, []string{r[0], "position " + r[1], r[2], r[3], pp1(t, r[4], "%.1f%%"),
			"[" + pp1(t, r[5], "%.1f") + ", " + pp1(t, r[6], "%.1f") + "]", pp1(t, r[7], "%+.1f")}, p.tables[1][i+1][:7])
	}
}

// Names that need escaping (a game's, a number's path, a bot's, a
// ruleset's JSON) are text in every page; the check that finds them raw
// finds them in a page written without escaping (the control).
func TestGameReportsEscapeNames(t *testing.T) {
	const game, path, bot, rules = `<pig>`, `a<b&"c`, `<i>bot</i>`, `{"x":"</td><script>y</script>"}`
	r := &match.SimResult{Def: game, Rules: rules, Requested: 4, Games: 4, Seed: hostileSeed, Seats: 2, Bots: []string{bot},
		Wins: []int64{3, 1}, Payoff: []float64{3, 1}, Payoff2: []float64{3, 1}}
	sens := &match.SensitivityResult{Def: game, Step: 0.1, Base: r, Cells: []string{"position 1", "position 2"}, Seats: 2,
		Params: []match.ParamEffect{{Param: gamePkg.Param{Path: path, Min: 1, Max: 3}, Base: 1,
			Nudges: []match.Nudge{{Value: 2, Result: r, Position: match.Effect{Delta: 0.1, Lo: 0, Hi: 0.2}}}}}}
	skill := &match.SkillResult{Def: game, Levels: []match.SkillLevel{{Bots: []string{bot}, Result: r}}}
	cells := match.RateCells(r)
	tune := tuneReport{def: game, search: "grid", paths: []string{path}, ranges: []string{"[1, 3]"}, confirm: r, target: 0.02,
		rows: []match.TuneRow{{Phase: "grid", Rank: 1, Evals: 1, Games: 4, Values: []float64{2}, Cells: cells},
			{Phase: "confirmation", Evals: 1, Games: 4, Values: []float64{2}, Cells: cells, Verdict: "not met"}}}
	sweep := &match.SweepResult{Def: game, Param: gamePkg.Param{Path: path, Min: 1, Max: 3}, Base: 1, Points: []match.SweepPoint{{Value: 2, Result: r}}}
	for name, pg := range map[string][]byte{"sensitivity": sensitivityHTML(sens), "skill": skillHTML(skill), "tune": tuneHTML(tune), "sweep": sweepHTML(sweep)} {
		require.Empty(t, offlineProblems(pg, game, path, bot, rules, hostileSeed), name)
		p := parsePage(t, pg, hostileSeed)
		for _, want := range []string{game, bot} {
			require.Contains(t, p.text, want, name)
		}
		if name != "skill" {
			require.Contains(t, p.text, path, name)
		}
	}
	// The control: the same names written raw are found.
	raw := []byte("<p>" + game + path + bot + rules + hostileSeed + "</p>")
	require.Len(t, offlineProblems(raw, game, path, bot, rules, hostileSeed), 6, "a <script>, and each of the five raw")
}
