package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// runAgainst evaluates the bot f.against in both seats of def under r:
// exactly for a table bot, by f.samples answers a set otherwise (bots
// and resamples seeded by f.seed).
func runAgainst(def game.Definition, r game.Ruleset, f solveFlags, stdout, stderr io.Writer) error {
	if err := match.CheckBotRules(def, r, f.against); err != nil {
		return usagef("--against: %v", err)
	}
	var bots [2]match.Bot
	for s := range bots {
		st, err := rng.NewSeeded(f.seed + "/against/seat" + strconv.Itoa(s))
		if err != nil {
			return usagef("--seed: %v", err)
		}
		if bots[s], err = match.NewBotRules(def, r, f.against, st); err != nil {
			return usagef("--against: %v", err)
		}
	}
	rs, err := rng.NewSeeded(f.seed + "/against/resample")
	if err != nil {
		return usagef("--seed: %v", err)
	}
	start := time.Now()
	_, table := bots[0].(match.TableBot)
	if table {
		fmt.Fprintf(stderr, "%s: evaluating %s in both seats exactly (its table)\n", def.Name(), f.against)
	} else {
		fmt.Fprintf(stderr, "%s: asking %s %d times at each information set\n", def.Name(), f.against, f.samples)
	}
	bv, err := match.EvaluateBots(def, r, bots, f.samples, rs)
	if errors.Is(err, match.ErrUnsolvable) {
		return usageError{Err: err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "done in %v\n", time.Since(start).Round(time.Millisecond))
	if bv.Sampled == 0 {
		fmt.Fprintf(stdout, "%s: %s in both seats, evaluated exactly over the whole tree\n", def.Name(), f.against)
	} else {
		fmt.Fprintf(stdout, "%s: %s in both seats, asked %d times at each of %d information sets (seed %q), its answers' frequencies evaluated exactly\n",
			def.Name(), f.against, bv.Samples, bv.Sampled, f.seed)
	}
	writeValue(stdout, bv.PolicyValue)
	if bv.Sampled > 0 {
		fmt.Fprintf(stdout, "standard error: value %.9f exploitability %.9f (%d bootstrap resamples of the answers)\n", bv.ValueSE, bv.ExploitabilitySE, match.BotResamples)
	}
	fmt.Fprintf(stdout, "value %.9f exploitability %.9f\n", bv.Value[0], bv.Exploitability)
	return nil
}
