package sim

import (
	"sort"
	"strconv"

	"github.com/fairboard/fairboard/reducers"
)

// The groups of measures, in report order. Each group is one chart.
const (
	GroupOrder     = "Win rate by turn-order position"
	GroupSeat      = "Win rate by seat"
	GroupClass     = "Win rate by class"
	GroupBot       = "Win rate by bot policy"
	GroupLength    = "Game length (rounds)"
	GroupEnds      = "How games end"
	GroupKnockouts = "Knock-outs"
	// GroupKnockoutsByClass: knock-outs suffered per player-game, by class.
	GroupKnockoutsByClass = "Knock-outs per player-game by class"
	GroupDuels            = "Duels"
	GroupCombatWin        = "Combat win rate by enemy tier"
	GroupCombatLen        = "Combat rounds by enemy tier"
	GroupLoot             = "Loot by enemy tier"
	GroupItems            = "Item use per game"
	GroupChance           = "Chance cards per game"
)

// Measures derives every measure of the tally for a run with the given
// number of players, in report order. Rates carry Wilson intervals and means
// t intervals.
func (t *Tally) Measures(players int) []Measure {
	var ms []Measure
	add := func(m Measure) { ms = append(ms, m) }
	for pos := 0; pos < players && pos < MaxSeats; pos++ {
		w := t.Order[pos]
		add(Rate("win.order."+strconv.Itoa(pos+1), GroupOrder, "position "+strconv.Itoa(pos+1), w.Won, w.Played))
	}
	for seat := 0; seat < players && seat < MaxSeats; seat++ {
		w := t.Seat[seat]
		add(Rate("win.seat."+strconv.Itoa(seat), GroupSeat, "seat "+strconv.Itoa(seat), w.Won, w.Played))
	}
	for _, k := range sortedKeys(t.Class) {
		add(Rate("win.class."+k, GroupClass, k, t.Class[k].Won, t.Class[k].Played))
	}
	for _, k := range sortedKeys(t.Bot) {
		add(Rate("win.bot."+k, GroupBot, k, t.Bot[k].Won, t.Bot[k].Played))
	}

	add(Mean("length.mean", GroupLength, "mean", t.Rounds))
	for _, q := range []struct {
		id    string
		label string
		q     float64
	}{{"length.p10", "10th percentile", 0.10}, {"length.p50", "median", 0.50}, {"length.p90", "90th percentile", 0.90}, {"length.p99", "99th percentile", 0.99}} {
		add(Value(q.id, GroupLength, q.label, float64(t.RoundsHist.Percentile(q.q)), t.Games))
	}

	for _, k := range sortedKeys(t.Ends) {
		add(Rate("end."+k, GroupEnds, endLabel(k), t.Ends[k], t.Games))
	}
	add(Rate("end.bracket", GroupEnds, "settled by a bracket", t.Bracket, t.Games))
	add(Rate("end.noWinner", GroupEnds, "no winner", t.NoWinner, t.Games))

	add(Mean("knockouts.perGame", GroupKnockouts, "per game", t.Knockouts))
	for _, k := range sortedKeys(t.KnockoutsByClass) {
		played := int64(0)
		if w := t.Class[k]; w != nil {
			played = w.Played
		}
		v := 0.0
		if played > 0 {
			v = float64(t.KnockoutsByClass[k]) / float64(played)
		}
		add(Value("knockouts.class."+k, GroupKnockoutsByClass, k, v, played))
	}

	offered := t.DuelsOffered.Sum
	add(Mean("duels.offeredPerGame", GroupDuels, "offered per game", t.DuelsOffered))
	for _, k := range sortedKeys(t.DuelsCancelled) {
		add(Rate("duels.cancelled."+k, GroupDuels, "cancelled by "+k, t.DuelsCancelled[k], offered))
	}
	add(Rate("duels.fought", GroupDuels, "fought", t.DuelsFought, offered))
	add(Rate("duels.decided", GroupDuels, "fought with a winner", t.DuelsDecided, t.DuelsFought))
	add(Rate("duels.challengerWon", GroupDuels, "won by the challenger", t.DuelsChallengerWon, t.DuelsDecided))

	for _, k := range sortedKeys(t.Combats) {
		c := t.Combats[k]
		add(Rate("combat.won."+k, GroupCombatWin, k, c.Won, c.Fought))
	}
	for _, k := range sortedKeys(t.Combats) {
		add(Mean("combat.rounds."+k, GroupCombatLen, k, t.Combats[k].Rounds))
	}
	for _, tier := range sortedKeys(t.Loot) {
		m := t.Loot[tier]
		var n int64
		for _, v := range m {
			n += v
		}
		for _, k := range sortedKeys(m) {
			add(Rate("loot."+tier+"."+k, GroupLoot, tier+" → "+k, m[k], n))
		}
	}
	for _, k := range sortedKeys(t.ItemUse) {
		add(Mean("items."+k, GroupItems, k, t.perGame(t.ItemUse[k])))
	}
	for _, k := range sortedKeys(t.Chance) {
		add(Mean("chance."+k, GroupChance, k, t.perGame(t.Chance[k])))
	}
	return ms
}

// endLabel says in words how a game ended (GameFinished's outcome).
func endLabel(outcome string) string {
	switch outcome {
	case reducers.EndFinalTile:
		return "on the final tile"
	case reducers.EndRoundLimit:
		return "by the round limit"
	case reducers.EndLeftFinalTile:
		return "final tile reached, then left"
	}
	return outcome
}

// perGame completes sparse per-game moments with the games that had none.
func (t *Tally) perGame(m *Moments) Moments {
	out := *m
	out.N = t.Games
	return out
}

// pairedIDs are the per-game measures a comparison pairs game by game.
var pairedIDs = map[string]func(GameStats) int64{
	"length.mean":          func(g GameStats) int64 { return g.Rounds },
	"knockouts.perGame":    func(g GameStats) int64 { return g.Knockouts },
	"duels.offeredPerGame": func(g GameStats) int64 { return g.DuelsOffered },
}

// unpairedMeans returns, for the means that are not per-game pairs, the
// moments of A and B for Welch's test.
func unpairedMeans(a, b *Tally) map[string][2]Moments {
	out := map[string][2]Moments{}
	for k, ca := range a.Combats {
		if cb, ok := b.Combats[k]; ok {
			out["combat.rounds."+k] = [2]Moments{ca.Rounds, cb.Rounds}
		}
	}
	for k, ma := range a.ItemUse {
		if mb, ok := b.ItemUse[k]; ok {
			out["items."+k] = [2]Moments{a.perGame(ma), b.perGame(mb)}
		}
	}
	for k, ma := range a.Chance {
		if mb, ok := b.Chance[k]; ok {
			out["chance."+k] = [2]Moments{a.perGame(ma), b.perGame(mb)}
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
