package sim

import "fmt"

// Merge adds another tally's counts to t. Merging is exact and commutative:
// tallies of disjoint sets of games merged in any order equal the tally of
// their union.
func (t *Tally) Merge(o *Tally) {
	t.Games += o.Games
	t.Rounds.Merge(o.Rounds)
	t.RoundsHist.Merge(o.RoundsHist)
	mergeCounts(t.Ends, o.Ends)
	t.Bracket += o.Bracket
	t.NoWinner += o.NoWinner
	for i := range o.Seat {
		if i < len(t.Seat) {
			t.Seat[i].Played += o.Seat[i].Played
			t.Seat[i].Won += o.Seat[i].Won
		}
	}
	for i := range o.Order {
		if i < len(t.Order) {
			t.Order[i].Played += o.Order[i].Played
			t.Order[i].Won += o.Order[i].Won
		}
	}
	mergeWins(t.Class, o.Class)
	mergeWins(t.Bot, o.Bot)
	for k, m := range o.ClassBot {
		d := t.ClassBot[k]
		if d == nil {
			d = map[string]*WinCount{}
			t.ClassBot[k] = d
		}
		mergeWins(d, m)
	}
	for k, ws := range o.SeatBot {
		d := t.SeatBot[k]
		if d == nil {
			d = make([]WinCount, MaxSeats)
			t.SeatBot[k] = d
		}
		for i := range ws {
			if i < len(d) {
				d[i].Played += ws[i].Played
				d[i].Won += ws[i].Won
			}
		}
	}
	mergeMoments(t.RoundsByBot, o.RoundsByBot)
	t.Knockouts.Merge(o.Knockouts)
	mergeMoments(t.KnockoutsByClass, o.KnockoutsByClass)
	t.DuelsOffered.Merge(o.DuelsOffered)
	mergeCounts(t.DuelsCancelled, o.DuelsCancelled)
	t.DuelsFought += o.DuelsFought
	t.DuelsDecided += o.DuelsDecided
	t.DuelsChallengerWon += o.DuelsChallengerWon
	for k, c := range o.Combats {
		addCombat(t.Combats, k, c)
	}
	for k, m := range o.Loot {
		d := t.Loot[k]
		if d == nil {
			d = map[string]int64{}
			t.Loot[k] = d
		}
		mergeCounts(d, m)
	}
	mergeMoments(t.ItemUse, o.ItemUse)
	mergeMoments(t.Chance, o.Chance)
}

// addCombat adds c to dst[key], creating it if needed.
func addCombat(dst map[string]*CombatCount, key string, c *CombatCount) {
	d := dst[key]
	if d == nil {
		d = &CombatCount{}
		dst[key] = d
	}
	d.Fought += c.Fought
	d.Won += c.Won
	d.KnockedOut += c.KnockedOut
	d.Retreated += c.Retreated
	d.Rounds.Merge(c.Rounds)
}

func mergeCounts(dst, src map[string]int64) {
	for k, v := range src {
		dst[k] += v
	}
}

func mergeWins(dst, src map[string]*WinCount) {
	for k, w := range src {
		d := dst[k]
		if d == nil {
			d = &WinCount{}
			dst[k] = d
		}
		d.Played += w.Played
		d.Won += w.Won
	}
}

func mergeMoments(dst, src map[string]*Moments) {
	for k, m := range src {
		d := dst[k]
		if d == nil {
			d = &Moments{}
			dst[k] = d
		}
		d.Merge(*m)
	}
}

// check validates a decoded tally: every map entry present, no negative
// count, no more seats than tracked. Merge relies on it.
func (t *Tally) check() error {
	neg := func(what string, vs ...int64) error {
		for _, v := range vs {
			if v < 0 {
				return fmt.Errorf("negative count in %s", what)
			}
		}
		return nil
	}
	if err := neg("games", t.Games, t.Bracket, t.NoWinner, t.DuelsFought, t.DuelsDecided, t.DuelsChallengerWon,
		t.Rounds.N, t.Knockouts.N, t.DuelsOffered.N, t.RoundsHist.Overflow); err != nil {
		return err
	}
	if len(t.Seat) > MaxSeats || len(t.Order) > MaxSeats {
		return fmt.Errorf("more than %d seats", MaxSeats)
	}
	if len(t.RoundsHist.Counts) > 100*maxRounds {
		return fmt.Errorf("rounds histogram of %d buckets", len(t.RoundsHist.Counts))
	}
	if err := neg("roundsHist", t.RoundsHist.Counts...); err != nil {
		return err
	}
	seats := append(append([]WinCount{}, t.Seat...), t.Order...)
	for k, ws := range t.SeatBot {
		if len(ws) > MaxSeats {
			return fmt.Errorf("seatBot %q: more than %d seats", k, MaxSeats)
		}
		seats = append(seats, ws...)
	}
	for _, w := range seats {
		if err := neg("seat", w.Played, w.Won); err != nil {
			return err
		}
	}
	wins := []map[string]*WinCount{t.Class, t.Bot}
	for _, m := range t.ClassBot {
		wins = append(wins, m)
	}
	for _, m := range wins {
		for k, w := range m {
			if w == nil {
				return fmt.Errorf("win count %q is null", k)
			}
			if err := neg(k, w.Played, w.Won); err != nil {
				return err
			}
		}
	}
	for k, c := range t.Combats {
		if c == nil {
			return fmt.Errorf("combat %q is null", k)
		}
		if err := neg("combat "+k, c.Fought, c.Won, c.KnockedOut, c.Retreated, c.Rounds.N); err != nil {
			return err
		}
	}
	for _, m := range []map[string]*Moments{t.ItemUse, t.Chance, t.KnockoutsByClass, t.RoundsByBot} {
		for k, v := range m {
			if v == nil || v.N < 0 {
				return fmt.Errorf("moments %q missing or negative", k)
			}
		}
	}
	return nil
}
