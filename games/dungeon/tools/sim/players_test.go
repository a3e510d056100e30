package sim

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/match"
)

// playersTable is players.csv read back: the header and the rows.
type playersTable struct {
	col  map[string]int
	rows [][]string
}

func readPlayers(t *testing.T, data []byte) playersTable {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	pt := playersTable{col: map[string]int{}, rows: recs[1:]}
	for i, h := range recs[0] {
		pt.col[h] = i
	}
	return pt
}

func (p playersTable) str(row []string, col string) string { return row[p.col[col]] }

func (p playersTable) num(t *testing.T, row []string, col string) int64 {
	i, ok := p.col[col]
	require.Truef(t, ok, "players.csv has no column %q", col)
	v, err := strconv.ParseInt(row[i], 10, 64)
	require.NoError(t, err, col)
	return v
}

// sum adds a column over the rows that pass keep (nil: all).
func (p playersTable) sum(t *testing.T, col string, keep func([]string) bool) int64 {
	var s int64
	for _, r := range p.rows {
		if keep == nil || keep(r) {
			s += p.num(t, r, col)
		}
	}
	return s
}

func (p playersTable) count(keep func([]string) bool) int64 {
	var n int64
	for _, r := range p.rows {
		if keep(r) {
			n++
		}
	}
	return n
}

// expectFromPlayers recomputes a measure from players.csv alone, in a
// second implementation that shares nothing with the tally: (k, n) for a
// rate, (value, n) otherwise. ok is false for an id it does not know.
func expectFromPlayers(t *testing.T, p playersTable, id string, players int) (k, n int64, value float64, ok bool) {
	games := map[string]bool{}
	gameRounds := map[string]int64{}
	gameEnd := map[string]string{}
	gameBracket := map[string]bool{}
	gameWon := map[string]bool{}
	gameBots := map[string]map[string]bool{}
	for _, r := range p.rows {
		g := p.str(r, "game")
		if gameBots[g] == nil {
			gameBots[g] = map[string]bool{}
		}
		gameBots[g][p.str(r, "bot")] = true
		games[g] = true
		gameRounds[g] = p.num(t, r, "rounds")
		gameEnd[g] = p.str(r, "end")
		gameBracket[g] = p.str(r, "bracket") == "1"
		gameWon[g] = gameWon[g] || p.str(r, "won") == "1"
	}
	nGames := int64(len(games))
	is := func(col, v string) func([]string) bool { return func(r []string) bool { return p.str(r, col) == v } }
	won := is("won", "1")
	and := func(a, b func([]string) bool) func([]string) bool {
		return func(r []string) bool { return a(r) && b(r) }
	}
	rate := func(keep func([]string) bool) (int64, int64, float64, bool) {
		kk, nn := p.count(and(keep, won)), p.count(keep)
		return kk, nn, float64(kk) / float64(nn), true
	}
	ratio := func(num, den int64) (int64, int64, float64, bool) {
		if den == 0 {
			return num, den, 0, true
		}
		return num, den, float64(num) / float64(den), true
	}
	parts := strings.Split(id, ".")
	switch {
	case strings.HasPrefix(id, "win.order."):
		return rate(is("position", parts[2]))
	case strings.HasPrefix(id, "win.seat."):
		return rate(is("seat", parts[2]))
	case strings.HasPrefix(id, "win.class."):
		return rate(is("class", parts[2]))
	case strings.HasPrefix(id, "win.bot."):
		return rate(is("bot", parts[2]))
	case strings.HasPrefix(id, "win.classBot."):
		return rate(and(is("class", parts[2]), is("bot", parts[3])))
	case strings.HasPrefix(id, "win.seatBot."):
		return rate(and(is("seat", parts[2]), is("bot", strings.Join(parts[3:], "."))))
	case strings.HasPrefix(id, "length.bot."):
		b := strings.TrimPrefix(id, "length.bot.")
		var s, n int64
		for g, v := range gameRounds {
			if gameBots[g][b] {
				s, n = s+v, n+1
			}
		}
		return 0, n, float64(s) / float64(n), true
	case id == "length.mean":
		var s int64
		for _, v := range gameRounds {
			s += v
		}
		return 0, nGames, float64(s) / float64(nGames), true
	case strings.HasPrefix(id, "length.p"):
		q, _ := strconv.Atoi(parts[1][1:])
		var all []int64
		for _, v := range gameRounds {
			all = append(all, v)
		}
		sort.Slice(all, func(a, b int) bool { return all[a] < all[b] })
		// nearest rank: the smallest value with at least q% at or below it
		rank := int(math.Ceil(float64(q) / 100 * float64(len(all))))
		return 0, nGames, float64(all[max(rank, 1)-1]), true
	case id == "end.bracket":
		var c int64
		for _, b := range gameBracket {
			if b {
				c++
			}
		}
		return ratio(c, nGames)
	case id == "end.noWinner":
		var c int64
		for _, w := range gameWon {
			if !w {
				c++
			}
		}
		return ratio(c, nGames)
	case strings.HasPrefix(id, "end."):
		var c int64
		for _, e := range gameEnd {
			if e == parts[1] {
				c++
			}
		}
		return ratio(c, nGames)
	case id == "knockouts.perGame":
		return 0, nGames, float64(p.sum(t, "knockouts", nil)) / float64(nGames), true
	case strings.HasPrefix(id, "knockouts.class."):
		keep := is("class", parts[2])
		nn := p.count(keep)
		return 0, nn, float64(p.sum(t, "knockouts", keep)) / float64(nn), true
	case id == "duels.offeredPerGame":
		return 0, nGames, float64(p.sum(t, "challenges", nil)) / float64(nGames), true
	case strings.HasPrefix(id, "duels.cancelled."):
		return ratio(p.sum(t, "challenges_cancelled_"+parts[2], nil), p.sum(t, "challenges", nil))
	case id == "duels.fought":
		return ratio(p.sum(t, "challenges_fought", nil), p.sum(t, "challenges", nil))
	case id == "duels.decided":
		return ratio(p.sum(t, "challenges_decided", nil), p.sum(t, "challenges_fought", nil))
	case id == "duels.challengerWon":
		return ratio(p.sum(t, "challenges_won", nil), p.sum(t, "challenges_decided", nil))
	case strings.HasPrefix(id, "combat.won."):
		return ratio(p.sum(t, "combats_won_"+parts[2], nil), p.sum(t, "combats_"+parts[2], nil))
	case strings.HasPrefix(id, "combat.rounds."):
		fights := p.sum(t, "combats_"+parts[2], nil)
		return 0, fights, float64(p.sum(t, "combat_rounds_"+parts[2], nil)) / float64(fights), true
	case strings.HasPrefix(id, "loot."):
		var all int64
		for c := range p.col {
			if strings.HasPrefix(c, "loot_"+parts[1]+"_") {
				all += p.sum(t, c, nil)
			}
		}
		return ratio(p.sum(t, "loot_"+parts[1]+"_"+strings.Join(parts[2:], "."), nil), all)
	case strings.HasPrefix(id, "items."):
		return 0, nGames, float64(p.sum(t, "used_"+strings.TrimPrefix(id, "items."), nil)) / float64(nGames), true
	case strings.HasPrefix(id, "chance."):
		return 0, nGames, float64(p.sum(t, "chance_"+parts[1], nil)) / float64(nGames), true
	}
	return 0, 0, 0, false
}

// requireMeasuresFromPlayers checks every measure against players.csv.
func requireMeasuresFromPlayers(t *testing.T, ms []Measure, data []byte, players int) {
	t.Helper()
	p := readPlayers(t, data)
	for _, m := range ms {
		k, n, v, ok := expectFromPlayers(t, p, m.ID, players)
		require.Truef(t, ok, "measure %s cannot be recomputed from players.csv", m.ID)
		switch m.Kind {
		case KindRate:
			require.Equalf(t, [2]int64{k, n}, [2]int64{m.K, m.N}, "%s: k/n", m.ID)
			require.InDeltaf(t, v, m.Value, 1e-12, "%s", m.ID)
		default:
			require.Equalf(t, n, m.N, "%s: n", m.ID)
			require.InDeltaf(t, v, m.Value, 1e-9, "%s", m.ID)
		}
	}
}

// Every measure of the report (every rate, mean and percentile, under both
// rulesets of a comparison) equals what players.csv gives.
func TestEveryMeasureEqualsPlayersCSV(t *testing.T) {
	weak := weakScout(t)

	cfg := testConfig(600, 2)
	cfg.B = &Ruleset{Rules: weak, Source: "weak-scout.json"}
	var a, bb bytes.Buffer
	cfg.PerGame, cfg.PerGameB = &a, &bb
	r := run(t, cfg)
	require.Zero(t, r.FailedGames)
	require.Equal(t, 600*4+1, strings.Count(a.String(), "\n"), "a header and a row per player-game")
	requireMeasuresFromPlayers(t, r.Measures, a.Bytes(), 4)
	requireMeasuresFromPlayers(t, r.MeasuresB, bb.Bytes(), 4)

	// The rates the report rests on are all there.
	ids := map[string]bool{}
	for _, m := range r.Measures {
		ids[m.ID] = true
	}
	for _, id := range []string{"win.order.1", "win.seat.3", "win.class.scout", "win.bot.cautious", "win.classBot.scout.aggressive",
		"win.seatBot.2.cautious", "length.bot.aggressive",
		"end.finalTile", "end.bracket", "duels.cancelled.smokeBomb", "duels.challengerWon", "combat.won.t3", "loot.t2.T2",
		"items.t1-potion", "chance.earthquake", "knockouts.class.monk", "length.p90"} {
		require.Truef(t, ids[id], "no measure %s", id)
	}
}

// A 6-player run: classes repeat within a game, and positions 5 and 6
// exist; still every measure equals players.csv.
func TestSixPlayerMeasuresEqualPlayersCSV(t *testing.T) {
	cfg := testConfig(200, 2)
	cfg.Players = 6
	var a bytes.Buffer
	cfg.PerGame = &a
	r := run(t, cfg)
	requireMeasuresFromPlayers(t, r.Measures, a.Bytes(), 6)
}

// players.csv is the same whatever the number of workers (rows in game
// order), and a stopped run's rows are exactly its games.
func TestPlayersCSVDoesNotDependOnWorkers(t *testing.T) {
	var one, three bytes.Buffer
	c1 := testConfig(300, 1)
	c1.PerGame = &one
	run(t, c1)
	c3 := testConfig(300, 3)
	c3.PerGame = &three
	run(t, c3)
	require.Equal(t, one.String(), three.String())

	p := readPlayers(t, one.Bytes())
	for i, r := range p.rows {
		require.Equal(t, strconv.Itoa(i/4), p.str(r, "game"))
		require.Equal(t, GameSeed("sim-test", int64(i/4)), p.str(r, "seed"))
		require.Equal(t, strconv.Itoa(i%4), p.str(r, "seat"))
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var none bytes.Buffer
	c := testConfig(300, 2)
	c.PerGame = &none
	o, err := Run(ctx, c, nil)
	require.NoError(t, err)
	require.Equal(t, int64(0), o.Done)
	require.Equal(t, PlayersHeader(c.A.Rules)+"\n", none.String(), "a run stopped before any game writes the header only")
}

// A seed with a comma or a quote is quoted as RFC 4180 says, and read back
// whole.
func TestPlayersCSVQuotesSeeds(t *testing.T) {
	for _, seed := range []string{`a,b`, `say "hi"`, ` lead`, "plain"} {
		require.Equal(t, []string{seed}, func() []string {
			rec, err := csv.NewReader(strings.NewReader(string(appendCSVField(nil, seed)) + "\n")).Read()
			require.NoError(t, err)
			return rec
		}(), seed)
	}
	cfg := testConfig(3, 1)
	cfg.Seed = `x,"y"`
	var a bytes.Buffer
	cfg.PerGame = &a
	run(t, cfg)
	p := readPlayers(t, a.Bytes())
	require.Equal(t, `x,"y"#2`, p.str(p.rows[11], "seed"))
}

// A writer that fails stops the run early and the error is returned.
func TestPlayersCSVWriteErrorStopsTheRun(t *testing.T) {
	cfg := testConfig(1_000_000, 2)
	cfg.PerGame = failAfter{n: 100_000}
	o, err := Run(context.Background(), cfg, nil)
	require.ErrorContains(t, err, "writing players.csv")
	require.True(t, o.Partial)
}

type failAfter struct{ n int }

func (f failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errFull
	}
	return len(p), nil
}

var errFull = errors.New("disk full")

// The sink writes games in order whatever order they come in, and holds
// at most maxPending games: a worker that would exceed it waits until the
// missing game arrives.
func TestOrderedSinkBoundsWhatItHolds(t *testing.T) {
	var out bytes.Buffer
	s := newOrderedSink(&out, "h", 0, nil)
	const n = maxPending + 500
	var done atomic.Int64
	finished := make(chan struct{})
	go func() { // games 1..n-1, while game 0 is still "being played"
		for i := int64(1); i < n; i++ {
			s.put(i, []byte(strconv.FormatInt(i, 10)+"\n"))
			done.Store(i)
		}
		close(finished)
	}()
	require.Eventually(t, func() bool { return done.Load() == maxPending }, 10*time.Second, time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	require.EqualValues(t, maxPending, done.Load(), "the put beyond maxPending waits")
	s.mu.Lock()
	require.Len(t, s.pending, maxPending)
	s.mu.Unlock()
	s.put(0, []byte("0\n"))
	<-finished
	require.NoError(t, s.flush())
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, n+1)
	for i, l := range lines[1:] {
		require.Equal(t, strconv.Itoa(i), l)
	}
}

// todaysHeader is players.csv's header under the default ruleset as main
// wrote it at 75a4be6, before the payoff column (copied from that
// release's output, not from this code).
const todaysHeader = "game,seed,seat,uid,class,bot,position,won,rounds,end,bracket,final_hp,final_tile,items_held,knockouts,challenges,challenges_fought,challenges_decided,challenges_won,combats_t1,combats_won_t1,combat_rounds_t1,combats_t2,combats_won_t2,combat_rounds_t2,combats_t3,combats_won_t3,combat_rounds_t3,challenges_cancelled_monk,challenges_cancelled_smokeBomb,loot_t1_T1,loot_t1_none,loot_t2_T1,loot_t2_T2,loot_t2_none,loot_t3_T2,loot_t3_T3,used_t1-potion,used_t1-smoke,used_t2-gpotion,used_t2-smoke,used_t3-elixir,used_t3-smoke,chance_ambush,chance_earthquake,chance_healingSpring,chance_mysticWave,chance_nefariousSpirit,chance_vitalEnergy,chance_windfall"

// The dungeon's players.csv is today's with payoff appended, and has the
// columns every game's players.csv has (match.PlayersHeader); its payoff
// is won, on every row, and every game has one winner.
func TestPlayersCSVEndsWithPayoff(t *testing.T) {
	require.Equal(t, todaysHeader+",payoff", PlayersHeader(engine.DefaultRules()))
	cfg := testConfig(200, 2)
	var a bytes.Buffer
	cfg.PerGame = &a
	run(t, cfg)
	p := readPlayers(t, a.Bytes())
	for _, c := range strings.Split(match.PlayersHeader, ",") {
		require.Containsf(t, p.col, c, "players.csv lacks the common column %q", c)
	}
	winners := map[string]int{}
	for _, r := range p.rows {
		require.Equal(t, p.str(r, "won"), p.str(r, "payoff"), "game %s seat %s", p.str(r, "game"), p.str(r, "seat"))
		if p.str(r, "won") == "1" {
			winners[p.str(r, "game")]++
		}
	}
	require.Len(t, winners, 200)
	for g, n := range winners {
		require.Equalf(t, 1, n, "game %s", g)
	}
}
