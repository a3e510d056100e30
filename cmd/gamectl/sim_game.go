package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
)

const simGameUsage = `usage: gamectl sim --game NAME --games N --seed S [--players P] [--bot LIST]
                  [--rules FILE] [--workers K] [--precision P] [--out DIR]
       gamectl sim --game NAME --by-skill L1,L2,... --games N --seed S [...]
       gamectl sim sweep --game NAME ... (see "gamectl sim sweep --game NAME -h")
       gamectl sim sensitivity --game NAME ... (see "gamectl sim sensitivity --game NAME -h")

Plays N seeded games of a game on the game definition ("gamectl games" lists
them) with bots, and prints the win rate of each seat position (1 = first to
act) with its 95% interval, its edge over the fair share, and the mean payoff
by position. Game i plays seed "S#i" (its random bots draw from "S#i/bots",
the search bot of seat j from "S#i/bots/seat<j>"); results do not depend on
--workers. Without --game, "gamectl sim" plays the dungeon
as it always has; "--game dungeon" is the same.

  --bot LIST   the bots, comma-separated, dealt over the seats in turn (seat j
               plays the (j mod len)-th): "random" (uniform over the game's
               listed legal moves), "mcts:N" (information-set Monte Carlo
               tree search, N simulations a move, 1 to 1000000; every game
               has it), "cfr:DIR" (the strategy "gamectl solve --out DIR"
               wrote, for this game and ruleset; seat j draws from
               "S#i/bots/seat<j>") or one of the game's styles, such as
               Pig's hold:N (hold at a turn total of N; hold is hold:20)
  --out DIR    writes players.csv (game, seed, seat, uid, a column per seat
               option, bot, position, won, payoff: one row per seat and
               game), summary.txt and report.html (the summary on one
               offline page, with each position's mean payoff and its 95%
               interval)
  --precision P
               plays in batches of 2000 games and stops after the first
               batch at which every seat position's win rate (and seat
               option value's) has a Wilson 95% interval of at most +-P
               percentage points; for a game scored by payoff (poker's
               chips) each position's mean payoff's 95% interval, at most
               +-P/100 of the payoff. --games is the ceiling; the same
               command always plays the same games, whatever --workers

  --by-skill L1,L2,...
               plays the same games with --bot's list (the baseline), then
               with every seat playing L1, then L2, ...: a level is a whole
               number N (the search bot mcts:N, N 1 to 1000000) or any bot
               of --bot's list ("random", "cfr:DIR" the solver's strategy, a
               style). It prints each level's seat-position win rates and
               edges (for a game scored by payoff, such as poker's chips:
               mean payoffs with their 95% intervals, and edges over the
               fair payoff, the mean over positions), and which edges hold
               at every level (the 95% interval excludes the fair share or
               payoff at each), vanish with skill (at the baseline, not at
               the last level) or appear. With --out DIR it writes skill.csv
               (level,bots,position,games,wins,rate,lo,hi,fair_share,edge,
               mean_payoff,payoff_lo,payoff_hi,fair_payoff,payoff_edge,
               scored_by,verdict,partial: one row per level and position,
               level 0 the baseline, rates as fractions) and report.html
               (the table and verdicts on one offline page)

A game whose seats pick options (the dungeon's class) has them dealt over
the seats and the games so that every seat plays every value equally often
(docs/games.md, "Seat options"), and the summary gives each value's win rate
over the seats that played it.

flags:
`

// gameRules reads a --rules FILE of def, decoded strictly by the game; ""
// is the game's default (nil). A file that cannot be read or decoded is a
// usage error naming it.
func gameRules(def game.Definition, path string) (game.Ruleset, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("--rules: %v", err)
	}
	r, err := def.DecodeRuleset(data)
	if err != nil {
		return nil, usagef("--rules %s: %v", path, err)
	}
	return r, nil
}

// gameFlag returns the value of a --game flag among args (before any "--"),
// and whether there is one.
func gameFlag(args []string) (string, bool) {
	for i, a := range args {
		if a == "--" {
			break
		}
		switch {
		case a == "-game" || a == "--game":
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", true
		case strings.HasPrefix(a, "-game=") || strings.HasPrefix(a, "--game="):
			_, v, _ := strings.Cut(a, "=")
			return v, true
		}
	}
	return "", false
}

// withoutGame returns args without their --game flag and its value.
func withoutGame(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-game" || a == "--game":
			i++
		case strings.HasPrefix(a, "-game=") || strings.HasPrefix(a, "--game="):
		default:
			out = append(out, a)
		}
	}
	return out
}

// runGameSim is "gamectl sim --game NAME": a game on the definition.
func runGameSim(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("sim", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, simGameUsage); fs.PrintDefaults() }
	name := fs.String("game", "", "the game (see \"gamectl games\")")
	games := fs.Int64("games", 0, "number of games (required, >= 1)")
	seed := fs.String("seed", "", "run seed (required); game i plays seed \"SEED#i\"")
	players := fs.Int("players", 0, "seats per game, within the game's range (default: the game's default)")
	bots := fs.String("bot", "random", "bots, comma-separated, dealt over the seats in turn (see above)")
	rules := fs.String("rules", "", "ruleset JSON file of the game (default: its default ruleset)")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers (results do not depend on it)")
	out := fs.String("out", "", "directory for players.csv, summary.txt and report.html (with --by-skill: skill.csv and report.html; default: print the summary only)")
	bySkill := fs.String("by-skill", "", "L1,L2,...: the baseline, then every seat L1, L2, ... (N: mcts:N, or a bot) on the same games (see above)")
	precision := addPrecisionFlag(fs)
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	if cli.IsSet(fs, "by-skill") && cli.IsSet(fs, "precision") {
		return usagef("--by-skill plays every level on the same games itself: it takes no --precision")
	}
	prec, err := cli.Precision(*precision)
	if err != nil {
		return err
	}
	def, err := lookupGame(*name)
	if err != nil {
		return usageError{Err: err}
	}
	switch {
	case *games < 1:
		return usagef("--games must be at least 1, not %d", *games)
	case *seed == "":
		return usagef("--seed is required")
	case *workers < 1:
		return usagef("--workers must be at least 1, not %d", *workers)
	}
	cfg := match.SimConfig{Def: def, Games: *games, Seed: *seed, Seats: *players, Bots: cli.SplitList(*bots), Workers: *workers}
	if cfg.Seats == 0 {
		cfg.Seats = def.Seats().Default
	}
	if s := def.Seats(); cfg.Seats < s.Min || cfg.Seats > s.Max {
		return usagef("--players %d: %s takes %d to %d", cfg.Seats, def.Name(), s.Min, s.Max)
	}
	if len(cfg.Bots) == 0 {
		return usagef("--bot needs at least one bot (%s)", strings.Join(match.BotNames(def), ", "))
	}
	for _, b := range cfg.Bots {
		if err := match.CheckBot(def, b); err != nil {
			return usageError{Err: err}
		}
	}
	if cfg.Rules, err = gameRules(def, *rules); err != nil {
		return err
	}
	if cli.IsSet(fs, "by-skill") {
		return runGameBySkill(cfg, *bySkill, *out, stdout)
	}
	var csv, summary, report *pendingFile
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return usagef("--out %s: %v", *out, err)
		}
		if csv, err = reserveFile("--out", filepath.Join(*out, "players.csv")); err != nil {
			return err
		}
		if summary, err = reserveFile("--out", filepath.Join(*out, "summary.txt")); err != nil {
			csv.discard()
			return err
		}
		if report, err = reserveFile("--out", filepath.Join(*out, "report.html")); err != nil {
			csv.discard()
			summary.discard()
			return err
		}
		cfg.Players = csv
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := simulate(ctx, cfg, prec)
	if err == nil && res.Games+res.Failed < res.Requested {
		err = exitError{Code: 130, Err: fmt.Errorf("interrupted after %d of %d games", res.Games+res.Failed, cfg.Games)}
	}
	var text bytes.Buffer
	if res != nil {
		res.WriteSummary(&text)
	}
	stdout.Write(text.Bytes())
	if csv != nil {
		var ee exitError
		if err != nil && !errors.As(err, &ee) {
			csv.discard()
			summary.discard()
			report.discard()
			return err
		}
		summary.Write(text.Bytes())
		report.Write(simHTML(res))
		if cerr := errors.Join(csv.commit(), summary.commit(), report.commit()); cerr != nil {
			return cerr
		}
		fmt.Fprintf(stdout, "\nwrote %s/players.csv, summary.txt and report.html\n", *out)
	}
	if err != nil {
		return err
	}
	if res.Failed > 0 {
		return exitError{Code: 1, Err: fmt.Errorf("%d of %d games could not be played to their end (first: %s)", res.Failed, res.Requested, res.Failures[0])}
	}
	return nil
}
