package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

// The --game variants of "sim sweep", "sim sensitivity" and "sim
// --by-skill": any game on the definition, over its ruleset's named
// numbers (game.Param). Without --game, or with "--game dungeon", the
// dungeon's own commands run as they always have.

const simGameSweepUsage = `usage: gamectl sim sweep --game NAME --param PATH --values V1,V2,... [--param2 PATH --values2 ...]
                        --games N --seed S [--players P] [--bot LIST] [--rules FILE]
                        [--workers K] [--precision P] [--out DIR]

Plays the same games (game i: seed "S#i", the same seats and bots) under each
value of one of the game's ruleset numbers ("gamectl games" lists them with
their ranges) and prints, per value, each seat position's win rate with its
Wilson 95% interval and its edge over the fair share 1/seats, and for a game
whose seats pick options each option value's (over the seats that played
it). Every value is checked before any game: an unknown path, a value
outside its range (or not whole, for a whole number) exits 2.

  --param2 PATH --values2 V1,V2,...
             a grid: every pair of a --values value and a --values2 value,
             in that order, each on the same games, printed pair by pair;
             --param2 must be another number than --param
  --precision P
             plays each value (or pair) in batches of 2000 games and stops it
             after the first batch at which every seat position's 95%
             interval is at most +-P percentage points (a game scored by
             payoff: its mean payoff's, +-P/100 of the payoff); --games is
             each one's ceiling

  --out DIR  writes sweep.csv (value,position,games,wins,rate,lo,hi,edge,
             mean_payoff: one row per value and position, 1 = first to act;
             then per value one row per option value, its position column
             "OPTION=VALUE" and games its seat-games; rate = wins/games, lo
             and hi its Wilson 95% interval, edge = rate - 1/seats, all as
             fractions; a grid adds value2 after value), players.csv (the
             simulation's, a value column first, and value2 for a grid),
             summary.txt (the printed table) and, for one number,
             report.html (the table on one offline page)

Results do not depend on --workers.

flags:
`

const simGameSensitivityUsage = `usage: gamectl sim sensitivity --game NAME --games N --seed S [--params P1,P2,...]
                        [--step 0.1] [--players P] [--bot LIST] [--rules FILE] [--workers K] [--out DIR]

Nudges each of the game's ruleset numbers (or those of --params) one step
down and one step up from its value in the ruleset, the step a fraction of
the number's range (clamped to the range; whole numbers rounded, at least 1;
a number at an edge of its range is nudged one way only), plays each on the
same N games as the ruleset itself, and ranks the numbers by their effect
on the imbalance: the largest absolute seat-position edge (max over the
positions of |rate - 1/seats|) for a game without seat options; for a game
with them, the largest absolute option-value edge (the seat-position edge is
reported too). An effect is the change of the base's largest edge, signed
so that + is further from fair, with a 95% interval from the games' paired
differences (docs/games.md, "Designing with the tools").

  --step F   the nudge as a fraction of each range, above 0 and at most 1
  --out DIR  writes sensitivity.csv (param,base,value,objective,cell,
             edge_base,edge,effect,ci_lo,ci_hi,rate_base,rate,games,rank,
             largest_effect,min,max: one row per nudge and objective, all as
             fractions; docs/games.md) and report.html (the ranking on one
             offline page)

flags:
`

// gameSimFlags are the simulation flags of the --game design commands.
type gameSimFlags struct {
	name, seed, bots, rules *string
	games                   *int64
	players, workers        *int
}

func addGameSimFlags(fs *flag.FlagSet) gameSimFlags {
	return gameSimFlags{
		name:    fs.String("game", "", "the game (see \"gamectl games\")"),
		games:   fs.Int64("games", 0, "games per ruleset (required, >= 1)"),
		seed:    fs.String("seed", "", "run seed (required); game i plays seed \"SEED#i\" under every ruleset"),
		players: fs.Int("players", 0, "seats per game, within the game's range (default: the game's default)"),
		bots:    fs.String("bot", "random", "bots, comma-separated, dealt over the seats in turn (as for \"gamectl sim --game\")"),
		rules:   fs.String("rules", "", "base ruleset JSON file of the game (default: its default ruleset)"),
		workers: fs.Int("workers", runtime.NumCPU(), "parallel workers (results do not depend on it)"),
	}
}

// config checks the flags and returns the simulation they describe.
func (f gameSimFlags) config() (match.SimConfig, error) {
	def, err := lookupGame(*f.name)
	if err != nil {
		return match.SimConfig{}, usageError{Err: err}
	}
	switch {
	case *f.games < 1:
		return match.SimConfig{}, usagef("--games must be at least 1, not %d", *f.games)
	case *f.seed == "":
		return match.SimConfig{}, usagef("--seed is required")
	case *f.workers < 1:
		return match.SimConfig{}, usagef("--workers must be at least 1, not %d", *f.workers)
	}
	cfg := match.SimConfig{Def: def, Games: *f.games, Seed: *f.seed, Seats: *f.players, Bots: cli.SplitList(*f.bots), Workers: *f.workers}
	if cfg.Seats == 0 {
		cfg.Seats = def.Seats().Default
	}
	if s := def.Seats(); cfg.Seats < s.Min || cfg.Seats > s.Max {
		return cfg, usagef("--players %d: %s takes %d to %d", cfg.Seats, def.Name(), s.Min, s.Max)
	}
	if len(cfg.Bots) == 0 {
		return cfg, usagef("--bot needs at least one bot (%s)", strings.Join(match.BotNames(def), ", "))
	}
	for _, b := range cfg.Bots {
		if err := match.CheckBot(def, b); err != nil {
			return cfg, usageError{Err: err}
		}
	}
	if cfg.Rules, err = gameRules(def, *f.rules); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// paramNames lists def's ruleset numbers with their ranges.
func paramNames(def game.Definition) string {
	var s []string
	for _, p := range def.Params() {
		s = append(s, fmt.Sprintf("%s [%g, %g]", p.Path, p.Min, p.Max))
	}
	return strings.Join(s, ", ")
}

// runGameSweep is "gamectl sim sweep --game NAME".
func runGameSweep(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sim sweep", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simGameSweepUsage); fs.PrintDefaults() }
	f := addGameSimFlags(fs)
	param := fs.String("param", "", "the ruleset number to sweep, by path (required)")
	values := fs.String("values", "", "the values, comma-separated (required)")
	out := fs.String("out", "", "directory for sweep.csv, players.csv, summary.txt and report.html (default: print the table only)")
	x := addSweepExtra(fs)
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	prec, err := cli.Precision(*x.precision)
	if err != nil {
		return err
	}
	if *param == "" {
		return usagef("--param is required: one of %s", paramNames(cfg.Def))
	}
	if _, err := game.ParamOf(cfg.Def, *param); err != nil {
		return usageError{Err: err}
	}
	var vals []float64
	for _, s := range cli.SplitList(*values) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return usagef("--values: %q is not a number", s)
		}
		vals = append(vals, v)
	}
	if len(vals) == 0 {
		return usagef("--values needs at least one value")
	}
	if _, _, err := match.SweepRules(cfg.Def, cfg.Rules, *param, vals); err != nil {
		return usagef("--values: %v", err)
	}
	if x.grid() {
		return runGameGrid(cfg, *param, vals, x, prec, *out, stdout)
	}
	var csv, players, summary, report *pendingFile
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return usagef("--out %s: %v", *out, err)
		}
		var files []*pendingFile
		for _, name := range []string{"sweep.csv", "players.csv", "summary.txt", "report.html"} {
			p, err := reserveFile("--out", filepath.Join(*out, name))
			if err != nil {
				for _, q := range files {
					q.discard()
				}
				return err
			}
			files = append(files, p)
		}
		csv, players, summary, report = files[0], files[1], files[2], files[3]
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sc := match.SweepConfig{Sim: cfg, Param: *param, Values: vals}
	if players != nil {
		sc.Players = players
	}
	res, err := sweep(ctx, sc, prec)
	if err != nil && ctx.Err() != nil {
		err = exitError{Code: 130, Err: fmt.Errorf("interrupted: %v", err)}
	}
	var text bytes.Buffer
	if res != nil {
		res.WriteTable(&text)
	}
	stdout.Write(text.Bytes())
	if csv != nil {
		if err != nil || res == nil {
			csv.discard()
			players.discard()
			summary.discard()
			report.discard()
			return err
		}
		summary.Write(text.Bytes())
		report.Write(sweepHTML(res))
		werr := res.WriteCSV(csv)
		if cerr := errors.Join(werr, csv.commit(), players.commit(), summary.commit(), report.commit()); cerr != nil {
			return cerr
		}
		fmt.Fprintf(stdout, "\nwrote %s/sweep.csv, players.csv, summary.txt and report.html\n", *out)
	}
	if err != nil {
		return err
	}
	for _, pt := range res.Points {
		if r := pt.Result; r.Failed > 0 {
			return exitError{Code: 1, Err: fmt.Errorf("%s = %g: %d of %d games could not be played to their end (first: %s)", *param, pt.Value, r.Failed, r.Requested, r.Failures[0])}
		}
	}
	return nil
}

// runGameSensitivity is "gamectl sim sensitivity --game NAME".
func runGameSensitivity(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sim sensitivity", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simGameSensitivityUsage); fs.PrintDefaults() }
	f := addGameSimFlags(fs)
	params := fs.String("params", "", "the ruleset numbers to nudge, comma-separated paths (default: all)")
	step := fs.Float64("step", match.DefaultStep, "the nudge, a fraction of each number's range, in (0, 1]")
	out := fs.String("out", "", "directory for sensitivity.csv and report.html (default: print the ranking only)")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	if !(*step > 0 && *step <= 1) {
		return usagef("--step must be a fraction of each range above 0 and at most 1, not %g", *step)
	}
	list := cli.SplitList(*params)
	if cli.IsSet(fs, "params") && len(list) == 0 {
		return usagef("--params needs at least one path: of %s", paramNames(cfg.Def))
	}
	seen := map[string]bool{}
	for _, p := range list {
		if _, err := game.ParamOf(cfg.Def, p); err != nil {
			return usagef("--params: %v", err)
		}
		if seen[p] {
			return usagef("--params: %s is listed twice", p)
		}
		seen[p] = true
	}
	o, err := reserveGameOut(*out, "sensitivity.csv", "report.html")
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := match.Sensitivity(ctx, match.SensitivityConfig{Sim: cfg, Params: list, Step: *step})
	if err != nil {
		o.discard()
		if ctx.Err() != nil {
			return exitError{Code: 130, Err: err}
		}
		return exitError{Code: 1, Err: err}
	}
	res.WriteRanking(stdout)
	return o.commitCSV(stdout, res.WriteCSV, func() []byte { return sensitivityHTML(res) })
}

// runGameBySkill is "gamectl sim --game NAME --by-skill L1,L2,...": a
// level N is mcts:N, any other level a bot name.
func runGameBySkill(cfg match.SimConfig, levels, out string, stdout io.Writer) error {
	var bots []string
	for _, s := range strings.Split(levels, ",") {
		s = strings.TrimSpace(s)
		if n, err := strconv.Atoi(s); err == nil {
			if n < 1 || n > match.MaxSkillSims {
				return usagef("--by-skill: %d is not a level: a number N is the search bot mcts:N, N 1 to %d", n, match.MaxSkillSims)
			}
			s = "mcts:" + strconv.Itoa(n)
		}
		if err := match.CheckBotRules(cfg.Def, cfg.Rules, s); err != nil {
			return usagef("--by-skill: %q is not a level: want N (mcts:N) or a bot of %s: %v", s, cfg.Def.Name(), err)
		}
		bots = append(bots, s)
	}
	o, err := reserveGameOut(out, "skill.csv", "report.html")
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := match.BySkillBots(ctx, cfg, bots)
	if res != nil {
		res.WriteTable(stdout)
	}
	if err != nil {
		o.discard()
		if ctx.Err() != nil {
			return exitError{Code: 130, Err: err}
		}
		return err
	}
	if err := o.commitCSV(stdout, res.WriteCSV, func() []byte { return skillHTML(res) }); err != nil {
		return err
	}
	for _, l := range res.Levels {
		if r := l.Result; r.Failed > 0 {
			return exitError{Code: 1, Err: fmt.Errorf("%s: %d of %d games could not be played to their end (first: %s)", strings.Join(l.Bots, ","), r.Failed, r.Requested, r.Failures[0])}
		}
	}
	return nil
}
