package simcmd

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/fairboard/fairboard/internal/cli"

	"github.com/fairboard/fairboard/games/dungeon/tools/sim"
)

// simFlags are the flags of a plain sim run that --by-skill takes too.
type simFlags struct {
	games                int64
	seed                 string
	players              int
	classes, bots, rules string
	workers              int
	out                  string
}

// parseLevels reads --by-skill's list of N.
func parseLevels(s string) ([]int, error) {
	var out []int
	for i, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.Atoi(f)
		if f == "" || err != nil {
			return nil, fmt.Errorf("--by-skill: item %d (%q) is not a whole number of simulations", i+1, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// runBySkill plays --by-skill's levels and prints (and with --out writes)
// the verdicts.
func runBySkill(args []string, levels string, margin float64, f simFlags, stdout, stderr io.Writer) error {
	cfg, err := simConfig(f.games, f.seed, f.players, f.classes, f.bots, f.rules, "", f.workers, "")
	if err != nil {
		return err
	}
	sc := &sim.SkillConfig{Base: *cfg, Margin: margin / 100}
	if sc.Levels, err = parseLevels(levels); err != nil {
		return cli.UsageError{Err: err}
	}
	if math.IsNaN(margin) {
		return cli.Usagef("--margin must be a number of percentage points")
	}
	if err := sc.Prepare(); err != nil {
		return cli.UsageError{Err: err}
	}
	if f.out != "" {
		if err := sim.PrepareDir(f.out, sim.SkillFiles); err != nil {
			return cli.UsageError{Err: err}
		}
	}
	for _, a := range cfg.Aliases() {
		fmt.Fprintf(stderr, "warning: %s\n", a)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := sim.NewProgress(terminal(stderr), int64(len(sc.LevelBots()))*cfg.Games)
	start := time.Now()
	s, err := sim.RunSkill(ctx, sc, progress)
	progress.Finish()
	if err != nil {
		return err
	}
	if f.out != "" {
		if err := s.Write(f.out); err != nil {
			return fmt.Errorf("writing the run: %w", err)
		}
	}
	printSkill(stdout, s, f.out, time.Since(start))
	if s.Partial {
		return cli.ExitError{Code: 130, Err: fmt.Errorf("interrupted after %d of %d levels; the complete levels are written", len(s.Levels), len(sc.LevelBots()))}
	}
	for _, l := range s.Levels {
		if l.Results.FailedGames > 0 {
			return runStatus(l.Results)
		}
	}
	return nil
}

// printSkill prints each class's edge at each level and the verdicts.
func printSkill(w io.Writer, s *sim.Skill, out string, took time.Duration) {
	fmt.Fprintf(w, "balance by skill: %d games per level, seed %q, %d players, %s\n", s.Games, s.Seed, s.Players, took.Round(time.Second))
	for _, l := range s.Levels {
		fmt.Fprintf(w, "  level %-20s %.2f rounds a game\n", l.Name, l.Results.Tally.Rounds.Mean())
	}
	fmt.Fprintf(w, "edge over the fair share (95%% interval); the difference from %s, Holm-adjusted across classes; margin +-%s pp\n",
		s.Levels[0].Name, sim.FormatNumber(100*s.Margin))
	for _, e := range s.Edges {
		line := fmt.Sprintf("  %-8s %-20s %5.1f%%  edge %+5.1f pp [%+5.1f, %+5.1f]", e.Class, e.Level, 100*e.Rate, 100*e.Edge, 100*e.Lo, 100*e.Hi)
		if d := findDiff(s, e.Class, e.Level); d != nil {
			line += fmt.Sprintf("  diff %+5.1f pp [%+5.1f, %+5.1f]  %s", 100*d.Diff, 100*d.Lo, 100*d.Hi, d.Verdict)
			if d.Verdict == sim.Inconclusive {
				if d.Settle > 0 {
					line += fmt.Sprintf(" (about %d games would settle it)", d.Settle)
				} else {
					line += " (on the margin)"
				}
			}
		}
		fmt.Fprintln(w, line)
	}
	if out != "" {
		fmt.Fprintf(w, "wrote %s/skill.csv, %s/levels.csv and %s/report.html\n", out, out, out)
	}
}

func findDiff(s *sim.Skill, class, level string) *sim.SkillDiff {
	for i := range s.Diffs {
		if s.Diffs[i].Class == class && s.Diffs[i].To == level {
			return &s.Diffs[i]
		}
	}
	return nil
}
