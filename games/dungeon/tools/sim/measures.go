package sim

import (
	"sort"
	"strconv"
)

// The groups of measures, in report order. Each group is one chart, in one
// unit: a group never mixes shares with counts.
const (
	GroupOrder    = "Win rate by turn-order position"
	GroupSeat     = "Win rate by seat"
	GroupClass    = "Win rate by class"
	GroupBot      = "Win rate by bot policy"
	GroupClassBot = "Win rate by class and bot policy"
	GroupSeatBot  = "Win rate by seat and bot policy"
	GroupLength   = "Game length (rounds)"
	// GroupLengthBot: the length of the games each policy played in (a
	// game counts once for each policy at its table).
	GroupLengthBot = "Game length by bot policy (rounds)"
	// GroupEnds: how each game ended; the shares sum to 100%.
	GroupEnds = "How games end"
	// GroupEndsAlso: games counted in GroupEnds too (overlapping).
	GroupEndsAlso  = "Ties for first place and games without a winner"
	GroupKnockouts = "Knock-outs per game"
	// GroupKnockoutsByClass: knock-outs suffered per player-game, by class.
	GroupKnockoutsByClass = "Knock-outs per player-game by class"
	GroupDuelsOffered     = "Duels offered per game"
	// GroupDuelOffers: what became of each duel offer; sums to 100%.
	GroupDuelOffers  = "What became of a duel offer"
	GroupDuelsFought = "Duels fought to the end"
	GroupCombatWin   = "Combat win rate by enemy tier"
	GroupCombatLen   = "Combat rounds by enemy tier"
	GroupLoot        = "Loot by enemy tier"
	GroupItems       = "Item use per game"
	GroupChance      = "Chance cards per game"
)

// The units of measures: every chart has one.
const (
	UnitShare       = "share"
	UnitRounds      = "rounds"
	UnitPerGame     = "per game"
	UnitPerPlayer   = "per player-game"
	UnitRoundsFight = "rounds per fight"
)

// FairShare returns the win rate every player-game would have if nothing
// (position, seat, class, policy) mattered: the share of games with a
// winner, split evenly among the players.
func (t *Tally) FairShare(players int) float64 {
	if t.Games == 0 || players < 1 {
		return 0
	}
	return float64(t.Games-t.NoWinner) / float64(t.Games) / float64(players)
}

// Measures derives every measure of the tally for a run with the given
// number of players, in report order. Rates carry Wilson intervals and means
// t intervals; win rates carry the fair share they are read against. The
// ids are stable (docs/sim.md lists them): tools read measures.csv by id.
func (t *Tally) Measures(players int) []Measure {
	var ms []Measure
	add := func(m Measure, unit string) { m.Unit = unit; ms = append(ms, m) }
	fair := t.FairShare(players)
	win := func(id, group, label string, w WinCount) {
		m := Rate(id, group, label, w.Won, w.Played)
		m.FairShare = fair
		add(m, UnitShare)
	}
	for pos := 0; pos < players && pos < MaxSeats; pos++ {
		win("win.order."+strconv.Itoa(pos+1), GroupOrder, "position "+strconv.Itoa(pos+1), t.Order[pos])
	}
	for seat := 0; seat < players && seat < MaxSeats; seat++ {
		win("win.seat."+strconv.Itoa(seat), GroupSeat, "seat "+strconv.Itoa(seat), t.Seat[seat])
	}
	for _, k := range sortedKeys(t.Class) {
		win("win.class."+k, GroupClass, k, *t.Class[k])
	}
	for _, k := range sortedKeys(t.Bot) {
		win("win.bot."+k, GroupBot, k, *t.Bot[k])
	}
	for _, c := range sortedKeys(t.ClassBot) {
		for _, b := range sortedKeys(t.ClassBot[c]) {
			win("win.classBot."+c+"."+b, GroupClassBot, c+" · "+b, *t.ClassBot[c][b])
		}
	}

	for _, b := range sortedKeys(t.SeatBot) {
		for seat := 0; seat < players && seat < len(t.SeatBot[b]); seat++ {
			win("win.seatBot."+strconv.Itoa(seat)+"."+b, GroupSeatBot, "seat "+strconv.Itoa(seat)+" · "+b, t.SeatBot[b][seat])
		}
	}

	add(Mean("length.mean", GroupLength, "mean", t.Rounds), UnitRounds)
	for _, q := range []struct {
		id    string
		label string
		q     float64
	}{{"length.p10", "10th percentile", 0.10}, {"length.p50", "median", 0.50}, {"length.p90", "90th percentile", 0.90}, {"length.p99", "99th percentile", 0.99}} {
		add(Value(q.id, GroupLength, q.label, float64(t.RoundsHist.Percentile(q.q)), t.Games), UnitRounds)
	}

	for _, b := range sortedKeys(t.RoundsByBot) {
		add(Mean("length.bot."+b, GroupLengthBot, b, *t.RoundsByBot[b]), UnitRounds)
	}

	for _, k := range sortedKeys(t.Ends) {
		add(Rate("end."+k, GroupEnds, endLabel(k), t.Ends[k], t.Games), UnitShare)
	}
	add(Rate("end.bracket", GroupEndsAlso, "tie for first, settled by a bracket", t.Bracket, t.Games), UnitShare)
	add(Rate("end.noWinner", GroupEndsAlso, "no winner", t.NoWinner, t.Games), UnitShare)

	add(Mean("knockouts.perGame", GroupKnockouts, "per game", t.Knockouts), UnitPerGame)
	for _, k := range sortedKeys(t.KnockoutsByClass) {
		add(Mean("knockouts.class."+k, GroupKnockoutsByClass, k, *t.KnockoutsByClass[k]), UnitPerPlayer)
	}

	offered := t.DuelsOffered.Sum
	add(Mean("duels.offeredPerGame", GroupDuelsOffered, "offered per game", t.DuelsOffered), UnitPerGame)
	for _, k := range sortedKeys(t.DuelsCancelled) {
		add(Rate("duels.cancelled."+k, GroupDuelOffers, "cancelled by "+cancelLabel(k), t.DuelsCancelled[k], offered), UnitShare)
	}
	add(Rate("duels.fought", GroupDuelOffers, "fought", t.DuelsFought, offered), UnitShare)
	add(Rate("duels.decided", GroupDuelsFought, "of those fought: with a winner", t.DuelsDecided, t.DuelsFought), UnitShare)
	add(Rate("duels.challengerWon", GroupDuelsFought, "of those with a winner: won by the challenger", t.DuelsChallengerWon, t.DuelsDecided), UnitShare)

	for _, k := range sortedKeys(t.Combats) {
		c := t.Combats[k]
		add(Rate("combat.won."+k, GroupCombatWin, k, c.Won, c.Fought), UnitShare)
	}
	for _, k := range sortedKeys(t.Combats) {
		add(Mean("combat.rounds."+k, GroupCombatLen, k, t.Combats[k].Rounds), UnitRoundsFight)
	}
	for _, tier := range sortedKeys(t.Loot) {
		m := t.Loot[tier]
		var n int64
		for _, v := range m {
			n += v
		}
		for _, k := range sortedKeys(m) {
			add(Rate("loot."+tier+"."+k, GroupLoot, tier+" → "+k, m[k], n), UnitShare)
		}
	}
	for _, k := range sortedKeys(t.ItemUse) {
		add(Mean("items."+k, GroupItems, k, t.perGame(t.ItemUse[k])), UnitPerGame)
	}
	for _, k := range sortedKeys(t.Chance) {
		add(Mean("chance."+k, GroupChance, k, t.perGame(t.Chance[k])), UnitPerGame)
	}
	return ms
}

// cancelLabel names a duel cancellation reason for people.
func cancelLabel(reason string) string {
	switch reason {
	case "smokeBomb":
		return "a smoke bomb"
	case "monk":
		return "a monk's roll"
	}
	return reason
}

// endLabel says in words how a game ended (GameFinished's outcome: the
// dungeon's own are games/dungeon/reducers' EndFinalTile, EndRoundLimit
// and EndLeftFinalTile, which TestEndLabels holds these to).
func endLabel(outcome string) string {
	switch outcome {
	case "finalTile":
		return "on the final tile"
	case "roundLimit":
		return "by the round limit"
	case "leftFinalTile":
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
	for k, ma := range a.RoundsByBot {
		if mb, ok := b.RoundsByBot[k]; ok {
			out["length.bot."+k] = [2]Moments{*ma, *mb}
		}
	}
	for k, ma := range a.KnockoutsByClass {
		if mb, ok := b.KnockoutsByClass[k]; ok {
			out["knockouts.class."+k] = [2]Moments{*ma, *mb}
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
