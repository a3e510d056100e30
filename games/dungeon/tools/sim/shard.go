package sim

import (
	"fmt"
	"slices"
	"sort"
)

// Merge combines the results of the shards of one run into exactly what one
// unsharded run gives: the same tallies, measures, comparisons, failures and
// notable games. It checks that the parts are shards of the same run
// (configuration and ruleset hashes), that none is partial, and that
// together they cover the whole range once.
func Merge(parts []*Results) (*Results, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no results to merge")
	}
	sorted := slices.Clone(parts)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Range[0] < sorted[j].Range[0] })
	first := sorted[0]
	out := &Results{
		Format: Format, Version: first.Version, Command: first.Command,
		Config: first.Config, Rules: first.Rules, CompareWith: first.CompareWith,
		Range: [2]int64{0, first.Config.Games}, Tally: NewTally(),
	}
	out.Config.Shard, out.Config.Shards = 0, 1
	if first.TallyB != nil {
		out.TallyB = NewTally()
		out.Paired = map[string]*Moments{}
	}
	next := int64(0)
	for _, p := range sorted {
		if err := sameRun(first, p); err != nil {
			return nil, err
		}
		if p.Partial {
			return nil, fmt.Errorf("shard %d/%d is partial (%d of %d games); rerun it", p.Config.Shard, p.Config.Shards, p.Done, p.Range[1]-p.Range[0])
		}
		if p.Range[0] != next {
			return nil, fmt.Errorf("shards do not cover games %d..%d exactly once (a shard starts at %d)", next, p.Range[0]-1, p.Range[0])
		}
		next = p.Range[1]
		out.Done += p.Done
		out.Tally.Merge(p.Tally)
		if out.TallyB != nil {
			out.TallyB.Merge(p.TallyB)
			for id, m := range p.Paired {
				d := out.Paired[id]
				if d == nil {
					d = &Moments{}
					out.Paired[id] = d
				}
				d.Merge(*m)
			}
		}
		out.FailedGames += p.FailedGames
		out.Failures = append(out.Failures, p.Failures...)
		out.Shortest = pickReplay(out.Shortest, p.Shortest, true)
		out.Longest = pickReplay(out.Longest, p.Longest, false)
	}
	if next != first.Config.Games {
		return nil, fmt.Errorf("shards cover games 0..%d of %d; some shards are missing", next-1, first.Config.Games)
	}
	if len(out.Failures) > maxFailures {
		out.Failures = out.Failures[:maxFailures]
	}
	out.derive()
	return out, nil
}

// sameRun checks that two shard results belong to the same run.
func sameRun(a, b *Results) error {
	ca, cb := a.Config, b.Config
	ca.Shard, cb.Shard, ca.Workers, cb.Workers = 0, 0, 0, 0
	switch {
	case !slices.Equal(ca.Classes, cb.Classes) || !slices.Equal(ca.Bots, cb.Bots) ||
		ca.Games != cb.Games || ca.Seed != cb.Seed || ca.Players != cb.Players || ca.Shards != cb.Shards ||
		ca.Design != cb.Design:
		return fmt.Errorf("shard %d and shard %d are of different runs (configuration differs)", a.Config.Shard, b.Config.Shard)
	case a.Rules.Hash != b.Rules.Hash:
		return fmt.Errorf("shard %d and shard %d used different rulesets", a.Config.Shard, b.Config.Shard)
	case (a.CompareWith == nil) != (b.CompareWith == nil) || (a.CompareWith != nil && a.CompareWith.Hash != b.CompareWith.Hash):
		return fmt.Errorf("shard %d and shard %d compared with different rulesets", a.Config.Shard, b.Config.Shard)
	case (a.TallyB == nil) != (a.CompareWith == nil) || (b.TallyB == nil) != (b.CompareWith == nil):
		return fmt.Errorf("a shard's comparison tally is missing")
	}
	return nil
}

// pickReplay keeps the shorter (or longer) game, ties to the lower index,
// exactly as a single run's workers do.
func pickReplay(cur, cand *Replay, shorter bool) *Replay {
	if cand == nil {
		return cur
	}
	if cur == nil || better(cand.Notable, cur.Notable, shorter) {
		c := *cand
		return &c
	}
	return cur
}
