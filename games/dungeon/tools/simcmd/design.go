package simcmd

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
)

const pathHelp = `A PATH names one number of the ruleset JSON: keys joined by dots, an array
element in brackets by its identifier (its id, choice, outcome, tier or
index field, the first it has) or by position as [#N]:
  startHp   classes.scoutMove   dice.move   decks[enemy.t1].cards[e1-goblin].hp
  composition[2].options[2xT1].weight   composition[2].options[1xT2].enemies[#0]
`

var simSweepUsage = `usage: gamectl sim sweep --param PATH --values V1,V2,... [--param2 PATH --values2 ...]
                        --games N --seed S --out DIR [--players 4] [--classes mixed|LIST]
                        [--bots LIST] [--rules FILE] [--workers K] [--precision P]

Plays the same games (game i: seed "S#i", the same seats, classes and bots)
under each value of one ruleset number, or each pair of values of two (a
grid), and writes DIR/sweep.csv (param,value,id,estimate,ci_lo,ci_hi, ids
as in measures.csv; a grid adds param2,value2) and DIR/report.html (each
headline measure against the value with its 95% band and the fair share;
a grid as heat maps). Every value is checked before any game: an unknown
path, a non-number or a value the ruleset refuses exits 2.

` + pathHelp + `
--classes takes mixed or a class per seat, of: ` + strings.Join(engine.ClassNames(), ", ") + `;
--bots a list of: ` + strings.Join(bot.Names, ", ") + ` (as for "gamectl sim").
Another game on the definition: "gamectl sim sweep --game NAME -h".

flags:
`

var simSensitivityUsage = `usage: gamectl sim sensitivity --games N --seed S --out DIR [--step 1|P%]
                        [--rank spread|first|length] [--players 4] [--classes mixed|LIST]
                        [--bots LIST] [--rules FILE] [--workers K] [--precision P]

Moves every number of the ruleset one step down and one step up, plays each
on the same N games as the unchanged ruleset, and ranks the numbers by
their effect on the balance objectives: the spread of the class win rates
(highest minus lowest), the first turn-order position's edge over the fair
share, and the mean game length, each effect with its 95% interval. A
value the ruleset refuses (its own bounds) is listed, not played. Writes
DIR/sensitivity.csv (param,base,value,objective,effect,ci_lo,ci_hi,unit,
games,refused) and DIR/report.html, and prints the top of the ranking.

  --step 1     the nudge: an amount, or a percentage of each value ("10%",
               rounded to a whole number, at least 1, for whole numbers)

` + pathHelp + `
--classes takes mixed or a class per seat, of: ` + strings.Join(engine.ClassNames(), ", ") + `;
--bots a list of: ` + strings.Join(bot.Names, ", ") + `.
Another game on the definition: "gamectl sim sensitivity --game NAME -h".

flags:
`

// designFlags are the flags sweep and sensitivity share with sim.
type designFlags struct {
	games                      *int64
	seed, classes, bots, rules *string
	out                        *string
	players, workers           *int
	precision                  *float64
}

func addDesignFlags(fs *flag.FlagSet, games int64) designFlags {
	return designFlags{
		games:     fs.Int64("games", games, "games per ruleset (the ceiling with --precision)"),
		seed:      fs.String("seed", "", "run seed (required); game i plays seed \"SEED#i\" under every ruleset"),
		players:   fs.Int("players", 4, "players per game"),
		classes:   fs.String("classes", "mixed", "\"mixed\", or a class per seat, comma-separated"),
		bots:      fs.String("bots", "cautious,aggressive", "bot policies, comma-separated, dealt by the balanced design"),
		rules:     fs.String("rules", "", "base ruleset JSON file (default: the embedded GAME_RULES.md ruleset)"),
		workers:   fs.Int("workers", runtime.NumCPU(), "parallel workers (results do not depend on it)"),
		precision: fs.Float64("precision", 0, "P > 0: stop once the 95% intervals are at most P percentage points wide on each side (see docs/sim.md)"),
		out:       fs.String("out", "", "directory for the results (required)"),
	}
}

// config checks the shared flags and returns the base configuration and
// the base ruleset's JSON.
func (d designFlags) config() (*sim.Config, []byte, error) {
	if *d.out == "" {
		return nil, nil, cli.Usagef("--out is required")
	}
	cfg, err := simConfig(*d.games, *d.seed, *d.players, *d.classes, *d.bots, *d.rules, "", *d.workers, "")
	if err != nil {
		return nil, nil, err
	}
	if cfg.Precision, err = cli.Precision(*d.precision); err != nil {
		return nil, nil, err
	}
	data := engine.DefaultRulesJSON()
	if *d.rules != "" {
		if data, err = os.ReadFile(*d.rules); err != nil {
			return nil, nil, cli.Usagef("cannot read ruleset: %v", err)
		}
	}
	return cfg, data, nil
}

func runSimSweep(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("sim sweep", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simSweepUsage); fs.PrintDefaults() }
	d := addDesignFlags(fs, 0)
	param := fs.String("param", "", "PATH of the ruleset number to sweep (required; see above)")
	values := fs.String("values", "", "its values, comma-separated (required)")
	param2 := fs.String("param2", "", "PATH of a second number: a grid of every pair of values")
	values2 := fs.String("values2", "", "the second number's values, comma-separated")
	if err := cli.ParseFlags(fs, args, false); err != nil {
		return err
	}
	if *param == "" {
		return cli.Usagef("--param is required")
	}
	base, data, err := d.config()
	if err != nil {
		return err
	}
	sc := &sim.SweepConfig{Base: *base, RulesJSON: data, Param: *param, Param2: *param2}
	if sc.Values, err = sim.ParseValues("--values", *values); err != nil {
		return cli.UsageError{Err: err}
	}
	if *param2 != "" || *values2 != "" {
		if sc.Values2, err = sim.ParseValues("--values2", *values2); err != nil {
			return cli.UsageError{Err: err}
		}
	}
	rules, err := sc.Prepare()
	if err != nil {
		return cli.UsageError{Err: err}
	}
	if err := sim.PrepareDir(*d.out, sim.SweepFiles); err != nil {
		return cli.UsageError{Err: err}
	}
	for _, a := range base.Aliases() {
		fmt.Fprintf(stderr, "warning: %s\n", a)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := sim.NewProgress(terminal(stderr), int64(len(rules))*base.Games)
	start := time.Now()
	s, err := sim.RunSweep(ctx, sc, progress)
	progress.Finish()
	if err != nil {
		return err
	}
	if err := s.Write(*d.out); err != nil {
		return fmt.Errorf("writing the sweep: %w", err)
	}
	printSweep(stdout, s, *d.out, time.Since(start))
	if s.Partial {
		return cli.ExitError{Code: 130, Err: fmt.Errorf("interrupted after %d of %d values; what was played is written", len(s.Points), len(rules))}
	}
	return nil
}

// printSweep prints one line per point: the balance objectives and the
// class win rates.
func printSweep(w io.Writer, s *sim.Sweep, out string, took time.Duration) {
	fmt.Fprintf(w, "sweep of %s", s.Param)
	if s.Param2 != "" {
		fmt.Fprintf(w, " × %s", s.Param2)
	}
	fmt.Fprintf(w, " on seed %q (the same games for every value), %s\n", s.Seed, took.Round(time.Second))
	for _, p := range s.Points {
		b := sim.BalanceOf(p.Results.Tally, s.Players)
		v := sim.FormatNumber(p.Value)
		if s.Param2 != "" {
			v += ", " + sim.FormatNumber(p.Value2)
		}
		fmt.Fprintf(w, "  %-10s %6d games  spread %5.1f pp  first edge %+5.1f pp  %5.2f rounds  ", v, p.Results.Done, 100*b.Spread, 100*b.FirstEdge, b.Length)
		for _, m := range p.Results.Measures {
			if m.Group == sim.GroupClass {
				fmt.Fprintf(w, " %s %s", m.Label, sim.FormatValue(m))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "wrote %s/sweep.csv and %s/report.html\n", out, out)
}

func runSimSensitivity(args []string, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("sim sensitivity", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simSensitivityUsage); fs.PrintDefaults() }
	d := addDesignFlags(fs, 4000)
	step := fs.String("step", "1", "the nudge: an amount (\"1\") or a percentage of each value (\"10%\")")
	rank := fs.String("rank", "spread", "the objective the terminal ranks by: "+strings.Join(sim.ObjectiveIDs[:], ", "))
	if err := cli.ParseFlags(fs, args, false); err != nil {
		return err
	}
	base, data, err := d.config()
	if err != nil {
		return err
	}
	sc := &sim.SensitivityConfig{Base: *base, RulesJSON: data}
	s := strings.TrimSpace(*step)
	if sc.Relative = strings.HasSuffix(s, "%"); sc.Relative {
		s = strings.TrimSuffix(s, "%")
	}
	if sc.Step, err = strconv.ParseFloat(s, 64); err != nil || !(sc.Step > 0) || math.IsInf(sc.Step, 0) || (sc.Relative && sc.Step >= 100) {
		return cli.Usagef("--step %q: want an amount above 0, or a percentage between 0%% and 100%%", *step)
	}
	if sc.Relative {
		sc.Step /= 100
	}
	obj := -1
	for i, id := range sim.ObjectiveIDs {
		if id == *rank {
			obj = i
		}
	}
	if obj < 0 {
		return cli.Usagef("--rank %q: want one of %s", *rank, strings.Join(sim.ObjectiveIDs[:], ", "))
	}
	if err := sim.PrepareDir(*d.out, sim.SensitivityFiles); err != nil {
		return cli.UsageError{Err: err}
	}
	params, err := sim.Params(data)
	if err != nil {
		return cli.UsageError{Err: err}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The bar counts every nudge; refused ones are never played, so it
	// may end short of its total.
	progress := sim.NewProgress(terminal(stderr), int64(1+2*len(params))*base.Games)
	start := time.Now()
	res, err := sim.RunSensitivity(ctx, sc, progress)
	progress.Finish()
	if err != nil {
		return cli.UsageError{Err: err}
	}
	if err := res.Write(*d.out); err != nil {
		return fmt.Errorf("writing the analysis: %w", err)
	}
	played, refused := res.Played()
	fmt.Fprintf(stdout, "%d nudges of %d numbers played on %d games each (%d refused by the ruleset), %s\n",
		played, len(params), res.Games, refused, time.Since(start).Round(time.Second))
	fmt.Fprintf(stdout, "unchanged ruleset: spread %.1f pp, first-position edge %+.1f pp, %.2f rounds\n",
		100*res.Base.Spread, 100*res.Base.FirstEdge, res.Base.Length)
	fmt.Fprintf(stdout, "the numbers that move the %s most (one step down | up, 95%% intervals):\n", sim.ObjectiveIDs[obj])
	for i, r := range res.Ranked(obj) {
		if i == 10 {
			break
		}
		fmt.Fprintf(stdout, "  %-46s %s  |  %s\n", r.Param+" = "+sim.FormatNumber(r.Base), nudgeText(r.Down, obj), nudgeText(r.Up, obj))
	}
	fmt.Fprintf(stdout, "wrote %s/sensitivity.csv and %s/report.html\n", *d.out, *d.out)
	if res.Partial {
		return cli.ExitError{Code: 130, Err: fmt.Errorf("interrupted; the effects written are over the games played")}
	}
	return nil
}

func nudgeText(n *sim.Nudge, obj int) string {
	if n == nil {
		return fmt.Sprintf("%-30s", "refused")
	}
	return fmt.Sprintf("%-30s", sim.FormatNumber(n.Value)+": "+sim.FormatEffect(obj, n.Effects[obj]))
}
