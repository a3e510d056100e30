package sim

import (
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
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

	Knockouts        Moments          `json:"knockouts"` // per game
	KnockoutsByClass map[string]int64 `json:"knockoutsByClass"`

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
		KnockoutsByClass: map[string]int64{},
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

// gameScan is the reusable working state of one game's scan.
type gameScan struct {
	classOf      map[string]string
	challenger   map[string]string // duel id → challenger uid
	items        map[string]int64  // this game's item uses by kind
	chance       map[string]int64  // this game's chance draws by effect
	combatTier   int
	combatRounds int64
	pendingTier  int
	inCombat     bool
}

// AddGame folds one finished game's public log into the tally. bots[i] is
// the policy name of seat i (uid "p<i+1>", as the bot runner seats them).
func (t *Tally) AddGame(events []engine.Event, bots []string, sc *gameScan) GameStats {
	var gs GameStats
	clear(sc.classOf)
	clear(sc.challenger)
	clear(sc.items)
	clear(sc.chance)
	sc.inCombat, sc.pendingTier = false, 0
	var order []string
	winner, bracket := "", false
	for i := range events {
		e := &events[i]
		switch e.Type {
		case engine.EvPlayerJoined:
			sc.classOf[e.UID] = string(e.Class)
		case engine.EvGameStarted:
			order = e.Order
		case engine.EvKnockedOut:
			gs.Knockouts++
			t.KnockoutsByClass[sc.classOf[e.UID]]++
		case engine.EvDuelOffered:
			gs.DuelsOffered++
			sc.challenger[e.DuelID] = e.UID
		case engine.EvDuelCancelled:
			t.DuelsCancelled[e.Reason]++
		case engine.EvDuelEnded:
			if c, ok := sc.challenger[e.DuelID]; ok { // bracket matches are not challenges
				t.DuelsFought++
				if e.Winner != "" {
					t.DuelsDecided++
					if e.Winner == c {
						t.DuelsChallengerWon++
					}
				}
			}
		case engine.EvEnemyCompositionChosen:
			sc.pendingTier = e.Tier
		case engine.EvEnemySpawned:
			if !sc.inCombat {
				sc.inCombat, sc.combatRounds = true, 0
				sc.combatTier = e.Tier
				if sc.pendingTier > 0 {
					sc.combatTier = sc.pendingTier
				}
				sc.pendingTier = 0
			}
		case engine.EvDiceRolled:
			if e.Tag == rng.TagCombatPlayerAttack {
				sc.combatRounds++
			}
		case engine.EvCombatEnded:
			gs.Combats++
			t.combatEnded(e.Outcome, sc.combatTier, sc.combatRounds)
			sc.inCombat = false
		case engine.EvLootRoll:
			tier := "t" + strconv.Itoa(e.EnemyTier)
			m := t.Loot[tier]
			if m == nil {
				m = map[string]int64{}
				t.Loot[tier] = m
			}
			m[e.Outcome]++
		case engine.EvItemUsed:
			gs.ItemsUsed++
			sc.items[cardKind(e.CardID)]++
		case engine.EvChanceResolved:
			sc.chance[e.Effect]++
		case engine.EvBracketStarted:
			bracket = true
		case engine.EvGameFinished:
			winner = e.Winner
			gs.Rounds = int64(e.Round)
			t.Ends[e.Outcome]++
		}
	}
	t.Games++
	addSparse(t.ItemUse, sc.items)
	addSparse(t.Chance, sc.chance)
	t.Rounds.Add(gs.Rounds)
	t.RoundsHist.Add(int(gs.Rounds))
	t.Knockouts.Add(gs.Knockouts)
	t.DuelsOffered.Add(gs.DuelsOffered)
	if bracket {
		t.Bracket++
	}
	if winner == "" {
		t.NoWinner++
	}
	for seat, policy := range bots {
		uid := bot.UID(seat)
		won := int64(0)
		if uid == winner {
			won = 1
		}
		if seat < MaxSeats {
			t.Seat[seat].Played++
			t.Seat[seat].Won += won
		}
		addWin(t.Class, sc.classOf[uid], won)
		addWin(t.Bot, policy, won)
	}
	for pos, uid := range order {
		if pos < MaxSeats {
			t.Order[pos].Played++
			if uid == winner {
				t.Order[pos].Won++
			}
		}
	}
	return gs
}

func (t *Tally) combatEnded(outcome string, tier int, rounds int64) {
	key := "t" + strconv.Itoa(tier)
	c := t.Combats[key]
	if c == nil {
		c = &CombatCount{}
		t.Combats[key] = c
	}
	c.Fought++
	switch outcome {
	case "won":
		c.Won++
	case "knockedOut":
		c.KnockedOut++
	case "retreated":
		c.Retreated++
	}
	c.Rounds.Add(rounds)
}

// addSparse adds one game's per-key counts to per-key moments.
func addSparse(dst map[string]*Moments, game map[string]int64) {
	for k, c := range game {
		m := dst[k]
		if m == nil {
			m = &Moments{}
			dst[k] = m
		}
		m.Add(c)
	}
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
