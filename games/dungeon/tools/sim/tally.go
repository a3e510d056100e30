package sim

import (
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// MaxSeats bounds the seats a tally tracks (the ruleset allows at most 6
// players by default; a designer's ruleset may allow up to this many).
const MaxSeats = 16

// maxRounds is the largest game length the histogram resolves exactly;
// longer games land in its overflow bucket.
const maxRounds = 200

// WinCount is how often a group (a seat, a class, a policy) played and won.
type WinCount struct {
	Played int64 `json:"played"`
	Won    int64 `json:"won"`
}

// CombatCount aggregates fights against enemies of one tier.
type CombatCount struct {
	Fought     int64   `json:"fought"`
	Won        int64   `json:"won"`
	KnockedOut int64   `json:"knockedOut"`
	Retreated  int64   `json:"retreated"`
	Rounds     Moments `json:"rounds"` // combat rounds per fight
}

// Tally is the exact accumulator of a run on one ruleset: integer counts
// only, so that merging tallies in any order (workers, shards) gives the
// same result bit for bit. Maps are keyed by names; encoding/json writes
// them sorted.
type Tally struct {
	Games      int64            `json:"games"`
	Rounds     Moments          `json:"rounds"`
	RoundsHist Hist             `json:"roundsHist"`
	Ends       map[string]int64 `json:"ends"`    // GameFinished outcome
	Bracket    int64            `json:"bracket"` // games settled by a bracket
	NoWinner   int64            `json:"noWinner"`

	Seat  []WinCount           `json:"seat"`  // by seat index
	Order []WinCount           `json:"order"` // by turn-order position
	Class map[string]*WinCount `json:"class"`
	Bot   map[string]*WinCount `json:"bot"`
	// ClassBot is the class × bot table: class → policy → wins.
	ClassBot map[string]map[string]*WinCount `json:"classBot"`
	// SeatBot is the seat × bot table: policy → wins by seat index.
	SeatBot map[string][]WinCount `json:"seatBot"`
	// RoundsByBot is the length of the games each policy played in: a
	// game counts once for each policy seated at its table.
	RoundsByBot map[string]*Moments `json:"roundsByBot"`

	Knockouts Moments `json:"knockouts"` // per game
	// KnockoutsByClass: knock-outs suffered per player-game, by class.
	KnockoutsByClass map[string]*Moments `json:"knockoutsByClass"`

	DuelsOffered       Moments          `json:"duelsOffered"`   // per game
	DuelsCancelled     map[string]int64 `json:"duelsCancelled"` // by reason
	DuelsFought        int64            `json:"duelsFought"`    // challenges fought to the end
	DuelsDecided       int64            `json:"duelsDecided"`   // ... with a winner
	DuelsChallengerWon int64            `json:"duelsChallengerWon"`

	Combats map[string]*CombatCount     `json:"combats"` // by tier "t1".."t3"
	Loot    map[string]map[string]int64 `json:"loot"`    // tier → outcome → count
	// Per-game counts by item kind and chance effect; games with none are
	// left out of each Moments (their zeros add nothing to Sum and SumSq),
	// so N is taken from Games when they are read.
	ItemUse map[string]*Moments `json:"itemUse"`
	Chance  map[string]*Moments `json:"chance"`
}

// NewTally returns an empty tally.
func NewTally() *Tally {
	return &Tally{
		RoundsHist:       NewHist(maxRounds),
		Ends:             map[string]int64{},
		Seat:             make([]WinCount, MaxSeats),
		Order:            make([]WinCount, MaxSeats),
		Class:            map[string]*WinCount{},
		Bot:              map[string]*WinCount{},
		ClassBot:         map[string]map[string]*WinCount{},
		SeatBot:          map[string][]WinCount{},
		RoundsByBot:      map[string]*Moments{},
		KnockoutsByClass: map[string]*Moments{},
		DuelsCancelled:   map[string]int64{},
		Combats:          map[string]*CombatCount{},
		Loot:             map[string]map[string]int64{},
		ItemUse:          map[string]*Moments{},
		Chance:           map[string]*Moments{},
	}
}

// GameStats are the per-game numbers that a ruleset comparison pairs game
// by game (common random numbers).
type GameStats struct {
	Rounds, Knockouts, DuelsOffered, Combats, ItemsUsed int64
}

// AddGame folds one finished game's public log into the tally: classes[j]
// and bots[j] are what seat j (uid "p<j+1>", as the bot runner seats them)
// played. sc is left holding the game's per-player counters, for
// players.csv. An error (an event the ruleset's schema does not know)
// leaves the tally untouched.
func (t *Tally) AddGame(events []engine.Event, classes []engine.Class, bots []string, sc *gameScan) (GameStats, error) {
	var gs GameStats
	n := len(bots)
	combats := CombatTally{}
	if err := sc.scan(events, n, &combats); err != nil {
		return gs, err
	}
	t.Games++
	gs.Rounds = sc.rounds
	t.Rounds.Add(sc.rounds)
	t.RoundsHist.Add(int(sc.rounds))
	t.Ends[sc.end]++
	if sc.bracket {
		t.Bracket++
	}
	if sc.winner < 0 {
		t.NoWinner++
	}
	combats.mergeInto(t.Combats)
	gs.Combats = combats.fights
	s := sc.sch
	for j := 0; j < n; j++ {
		k := sc.counts[j]
		won := int64(0)
		if j == sc.winner {
			won = 1
		}
		if j < MaxSeats {
			t.Seat[j].Played++
			t.Seat[j].Won += won
		}
		if p := sc.pos[j]; p >= 0 {
			t.Order[p].Played++
			t.Order[p].Won += won
		}
		cl := string(classes[j])
		addWin(t.Class, cl, won)
		addWin(t.Bot, bots[j], won)
		cb := t.ClassBot[cl]
		if cb == nil {
			cb = map[string]*WinCount{}
			t.ClassBot[cl] = cb
		}
		addWin(cb, bots[j], won)
		if j < MaxSeats {
			sb := t.SeatBot[bots[j]]
			if sb == nil {
				sb = make([]WinCount, MaxSeats)
				t.SeatBot[bots[j]] = sb
			}
			sb[j].Played++
			sb[j].Won += won
		}
		if !slices.Contains(bots[:j], bots[j]) { // once per policy at the table
			rb := t.RoundsByBot[bots[j]]
			if rb == nil {
				rb = &Moments{}
				t.RoundsByBot[bots[j]] = rb
			}
			rb.Add(sc.rounds)
		}
		ko := t.KnockoutsByClass[cl]
		if ko == nil {
			ko = &Moments{}
			t.KnockoutsByClass[cl] = ko
		}
		ko.Add(k[cKnockouts])
		gs.Knockouts += k[cKnockouts]
		gs.DuelsOffered += k[cChallenges]
		t.DuelsFought += k[cFought]
		t.DuelsDecided += k[cDecided]
		t.DuelsChallengerWon += k[cChallengesWon]
		for tier := 1; tier <= 3; tier++ {
			for o, name := range s.loot[tier] {
				if v := k[s.lootAt[tier]+o]; v > 0 {
					t.addLoot(tier, name, v)
				}
			}
		}
	}
	for r, name := range s.reasons {
		if v := sumSeats(sc.counts[:n], nFixed+r); v > 0 {
			t.DuelsCancelled[name] += v
		}
	}
	t.Knockouts.Add(gs.Knockouts)
	t.DuelsOffered.Add(gs.DuelsOffered)
	for i, name := range s.items {
		used := sumSeats(sc.counts[:n], s.itemAt+i)
		gs.ItemsUsed += used
		addSparse(t.ItemUse, name, used)
	}
	for i, name := range s.effects {
		addSparse(t.Chance, name, sumSeats(sc.counts[:n], s.chAt+i))
	}
	return gs, nil
}

func sumSeats(counts [][]int64, at int) int64 {
	var v int64
	for _, k := range counts {
		v += k[at]
	}
	return v
}

// lootKeys are Tally.Loot's keys by tier (built once, not per game).
var lootKeys = [4]string{"t0", "t1", "t2", "t3"}

func (t *Tally) addLoot(tier int, outcome string, v int64) {
	key := lootKeys[tier]
	m := t.Loot[key]
	if m == nil {
		m = map[string]int64{}
		t.Loot[key] = m
	}
	m[outcome] += v
}

// addSparse adds one game's count of a key to per-key moments; games
// with none are left out (see Tally.ItemUse).
func addSparse(dst map[string]*Moments, key string, c int64) {
	if c == 0 {
		return
	}
	m := dst[key]
	if m == nil {
		m = &Moments{}
		dst[key] = m
	}
	m.Add(c)
}

func addWin(m map[string]*WinCount, key string, won int64) {
	w := m[key]
	if w == nil {
		w = &WinCount{}
		m[key] = w
	}
	w.Played++
	w.Won += won
}

// cardKind strips a card id's copy number: "t1-potion-2" → "t1-potion".
func cardKind(id string) string {
	if i := strings.LastIndexByte(id, '-'); i > 0 {
		if _, err := strconv.Atoi(id[i+1:]); err == nil {
			return id[:i]
		}
	}
	return id
}
