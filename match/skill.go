package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// MaxSkillSims bounds a by-skill level's simulations a move (mcts:N's N).
const MaxSkillSims = 1_000_000

// SkillLevel is one level of a by-skill run: its bots and its simulation.
type SkillLevel struct {
	Bots   []string
	Result *SimResult
}

// SkillResult is a by-skill run: Levels[0] is the baseline (the
// simulation's own bots), then one level per bot, every seat that bot.
type SkillResult struct {
	Def    string
	Levels []SkillLevel
}

// BySkill plays cfg's games (the same seeds) with cfg.Bots, then with
// every seat "mcts:N" for each N of sims (each 1 to MaxSkillSims, else an
// error naming it): BySkillBots with those bots.
func BySkill(ctx context.Context, cfg SimConfig, sims []int) (*SkillResult, error) {
	if len(sims) == 0 {
		return nil, fmt.Errorf("by skill needs at least one level N (mcts:N, 1 to %d)", MaxSkillSims)
	}
	bots := make([]string, len(sims))
	for i, n := range sims {
		if n < 1 || n > MaxSkillSims {
			return nil, fmt.Errorf("skill level %d: N must be 1 to %d simulations a move", n, MaxSkillSims)
		}
		bots[i] = "mcts:" + strconv.Itoa(n)
	}
	return BySkillBots(ctx, cfg, bots)
}

// BySkillBots plays cfg's games (the same seeds) with cfg.Bots, then with
// every seat playing each bot of levels in turn (any bot of the game:
// "random", "mcts:N", a strategy "cfr:DIR", a style; each checked with
// CheckBotRules first, an error naming it). When ctx is done it returns
// the levels played so far (the last possibly partial) and ctx's error.
func BySkillBots(ctx context.Context, cfg SimConfig, levels []string) (*SkillResult, error) {
	if len(levels) == 0 {
		return nil, errors.New("by skill needs at least one level (a bot every seat plays)")
	}
	all := [][]string{cfg.Bots}
	for _, b := range levels {
		if err := CheckBotRules(cfg.Def, cfg.Rules, b); err != nil {
			return nil, fmt.Errorf("skill level %q: %w", b, err)
		}
		all = append(all, []string{b})
	}
	res := &SkillResult{Def: cfg.Def.Name()}
	for _, bots := range all {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		sc := cfg
		sc.Bots = bots
		r, err := Simulate(ctx, sc)
		if r != nil {
			res.Levels = append(res.Levels, SkillLevel{Bots: bots, Result: r})
		}
		if err != nil {
			return res, err
		}
		if r.Games+r.Failed < r.Requested {
			return res, ctx.Err()
		}
	}
	return res, nil
}

// EdgeVerdict says what became of seat position p's edge over the levels:
// "holds" (its Wilson 95% interval excludes the fair share at every level),
// "vanishes" (excluded at the baseline, not at the last level), "appears"
// (not excluded at the baseline, excluded at the last level) or "none"
// (any other pattern: not established at every level).
//
// In a game scored by payoff (ByPayoff at any level) the edge is in mean
// payoff instead: its 95% interval excludes the fair payoff (FairPayoff).
func (r *SkillResult) EdgeVerdict(p int) string {
	byPayoff := r.byPayoff()
	sig := func(res *SimResult) bool {
		if byPayoff {
			return res.payoffEdge(p)
		}
		lo, hi := Wilson(res.Wins[p], res.Games)
		fair := 1 / float64(res.Seats)
		return lo > fair || hi < fair
	}
	all := true
	for _, l := range r.Levels {
		all = all && sig(l.Result)
	}
	first, last := sig(r.Levels[0].Result), sig(r.Levels[len(r.Levels)-1].Result)
	switch {
	case all:
		return "holds"
	case first && !last:
		return "vanishes"
	case !first && last:
		return "appears"
	}
	return "none"
}

// WriteTable writes one row per level: each position's win rate, interval
// and edge; then each position's verdict (EdgeVerdict).
func (r *SkillResult) WriteTable(w io.Writer) {
	if len(r.Levels) == 0 {
		fmt.Fprintf(w, "%s: by skill: no level played\n", r.Def)
		return
	}
	f := r.Levels[0].Result
	byPayoff := r.byPayoff()
	fmt.Fprintf(w, "%s: by skill, %d games a level, seed %q (game i: %s#i at every level), %d seats, ruleset %s\n",
		r.Def, f.Games, f.Seed, f.Seed, f.Seats, f.Rules)
	share := "fair share"
	if byPayoff {
		share = "fair payoff"
		fmt.Fprintln(w, "mean payoff by position (1 = first to act; scored by payoff: the fair payoff is the mean over positions): mean, 95% interval, edge")
	} else {
		fmt.Fprintf(w, "win rate by position (1 = first to act; fair share %.1f%%): rate, 95%% interval, edge in percentage points\n", 100/float64(f.Seats))
	}
	for _, l := range r.Levels {
		res := l.Result
		fmt.Fprintf(w, "  %-12s", joinComma(l.Bots))
		if res.Games+res.Failed < res.Requested {
			fmt.Fprintf(w, " (partial: %d of %d)", res.Games+res.Failed, res.Requested)
		}
		fair := 1 / float64(res.Seats)
		for p, k := range res.Wins {
			if byPayoff {
				fmt.Fprintf(w, "  | %d: %s", p+1, payoffCell(res, p))
			} else {
				fmt.Fprintf(w, "  | %d: %s", p+1, rateCell(k, res.Games, fair))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "edges (holds: the 95%% interval excludes the %s at every level; vanishes: it does at the baseline, not at the last level,\n"+
		"with these games; appears: the reverse; none: neither)\n", share)
	for p := range f.Wins {
		fmt.Fprintf(w, "  position %d: %s\n", p+1, r.EdgeVerdict(p))
	}
}

// byPayoff reports whether the run's game is scored by payoff: some
// level saw a payoff that was not a win.
func (r *SkillResult) byPayoff() bool {
	for _, l := range r.Levels {
		if l.Result.ByPayoff {
			return true
		}
	}
	return false
}
