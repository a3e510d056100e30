package sim

// newScan returns the reusable working state of game scans.
func newScan() *gameScan {
	return &gameScan{classOf: map[string]string{}, challenger: map[string]string{},
		items: map[string]int64{}, chance: map[string]int64{}}
}

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
	t.Knockouts.Merge(o.Knockouts)
	mergeCounts(t.KnockoutsByClass, o.KnockoutsByClass)
	t.DuelsOffered.Merge(o.DuelsOffered)
	mergeCounts(t.DuelsCancelled, o.DuelsCancelled)
	t.DuelsFought += o.DuelsFought
	t.DuelsDecided += o.DuelsDecided
	t.DuelsChallengerWon += o.DuelsChallengerWon
	for k, c := range o.Combats {
		d := t.Combats[k]
		if d == nil {
			d = &CombatCount{}
			t.Combats[k] = d
		}
		d.Fought += c.Fought
		d.Won += c.Won
		d.KnockedOut += c.KnockedOut
		d.Retreated += c.Retreated
		d.Rounds.Merge(c.Rounds)
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
