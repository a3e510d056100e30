package sim

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// scanned are the event types scan reads: a lean simulation keeps only
// these (see engine.Dispatcher.Lean).
var scanned = engine.EventsOf(engine.EvGameStarted, engine.EvTurnStarted, engine.EvKnockedOut,
	engine.EvDuelOffered, engine.EvDuelCancelled, engine.EvDuelEnded, engine.EvEnemyCompositionChosen,
	engine.EvEnemySpawned, engine.EvDamageDealt, engine.EvCombatEnded, engine.EvLootRoll,
	engine.EvItemUsed, engine.EvChanceResolved, engine.EvBracketStarted, engine.EvGameFinished)

// gameScan is the reusable working state of one game's scan: per-player
// counters (laid out by the ruleset's schema) and where the game stands.
type gameScan struct {
	sch          *schema
	counts       [][]int64      // counts[seat][counter]
	challenger   map[string]int // duel id → challenger's seat
	pos          [MaxSeats]int  // turn-order position (0-based) by seat
	turn         int            // seat of the player whose turn it is
	combatTier   int
	combatRounds int64
	pendingTier  int
	inCombat     bool
	winner       int // seat, -1 for none
	bracket      bool
	rounds       int64
	end          string
}

// newScan returns the working state of game scans under a ruleset.
func newScan(r *engine.Ruleset) *gameScan {
	sc := &gameScan{sch: newSchema(r), challenger: map[string]int{}}
	sc.counts = make([][]int64, MaxSeats)
	for i := range sc.counts {
		sc.counts[i] = make([]int64, sc.sch.width)
	}
	return sc
}

// seatOf returns the seat of a bot uid ("p3" → 2), or -1.
func seatOf(uid string) int {
	if len(uid) < 2 || uid[0] != 'p' {
		return -1
	}
	n := 0
	for _, c := range []byte(uid[1:]) {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
		if n > MaxSeats {
			return -1
		}
	}
	return n - 1
}

// scan reads one finished game's public log into the per-player counters.
// An event the schema does not know (a loot outcome, an item, a chance
// effect or a cancellation reason outside the ruleset) is an error: the
// game would otherwise be counted wrong.
func (sc *gameScan) scan(events []engine.Event, players int, c *CombatTally) error {
	for j := 0; j < players; j++ {
		clear(sc.counts[j])
		sc.pos[j] = -1
	}
	clear(sc.challenger)
	sc.inCombat, sc.pendingTier, sc.turn = false, 0, -1
	sc.winner, sc.bracket, sc.rounds, sc.end = -1, false, 0, ""
	in := func(uid string) []int64 {
		if j := seatOf(uid); j >= 0 && j < players {
			return sc.counts[j]
		}
		return nil
	}
	for i := range events {
		e := &events[i]
		switch e.Type {
		case engine.EvGameStarted:
			for p, uid := range e.Order {
				if j := seatOf(uid); j >= 0 && j < players {
					sc.pos[j] = p
				}
			}
		case engine.EvTurnStarted:
			sc.turn = seatOf(e.UID)
		case engine.EvKnockedOut:
			if k := in(e.UID); k != nil {
				k[cKnockouts]++
			}
		case engine.EvDuelOffered:
			// The bracket's matches are offered too, after BracketStarted;
			// they are not challenges a player chose.
			if j := seatOf(e.UID); j >= 0 && j < players && !sc.bracket {
				sc.counts[j][cChallenges]++
				sc.challenger[e.DuelID] = j
			}
		case engine.EvDuelCancelled:
			j, ok := sc.challenger[e.DuelID]
			at, err := sc.sch.reason(e.Reason)
			if err != nil {
				return err
			}
			if ok {
				sc.counts[j][at]++
			}
		case engine.EvDuelEnded:
			if j, ok := sc.challenger[e.DuelID]; ok { // only challenges are in the map
				k := sc.counts[j]
				k[cFought]++
				if e.Winner != "" {
					k[cDecided]++
					if seatOf(e.Winner) == j {
						k[cChallengesWon]++
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
		case engine.EvDamageDealt:
			// Every round of a fight logs the player's blow at the first
			// enemy alive (a DamageDealt whose target is no player) and
			// nothing else does: the rounds of the fight are those blows.
			if sc.inCombat && seatOf(e.Target) < 0 {
				sc.combatRounds++
			}
		case engine.EvCombatEnded:
			if sc.combatTier < 1 || sc.combatTier > 3 {
				return fmt.Errorf("sim: a combat of tier %d", sc.combatTier)
			}
			if k := in(e.UID); k != nil {
				at := cCombat + 3*(sc.combatTier-1)
				k[at]++
				if e.Outcome == "won" {
					k[at+1]++
				}
				k[at+2] += sc.combatRounds
			}
			c.ended(e.Outcome, sc.combatTier, sc.combatRounds)
			sc.inCombat = false
		case engine.EvLootRoll:
			at, err := sc.sch.lootOutcome(e.EnemyTier, e.Outcome)
			if err != nil {
				return err
			}
			if sc.turn >= 0 && sc.turn < players {
				sc.counts[sc.turn][at]++
			}
		case engine.EvItemUsed:
			at, err := sc.sch.item(e.CardID)
			if err != nil {
				return err
			}
			if k := in(e.UID); k != nil {
				k[at]++
			}
		case engine.EvChanceResolved:
			at, err := sc.sch.effect(string(e.Effect))
			if err != nil {
				return err
			}
			if k := in(e.UID); k != nil {
				k[at]++
			}
		case engine.EvBracketStarted:
			sc.bracket = true
		case engine.EvGameFinished:
			sc.winner = -1
			if e.Winner != "" {
				sc.winner = seatOf(e.Winner)
			}
			sc.rounds = int64(e.Round)
			sc.end = e.Outcome
		}
	}
	if sc.end == "" {
		return fmt.Errorf("sim: the log has no GameFinished event")
	}
	return nil
}

// CombatTally holds one game's fights by tier until the game is folded in.
type CombatTally struct {
	byTier [4]CombatCount
	fights int64
}

func (c *CombatTally) ended(outcome string, tier int, rounds int64) {
	d := &c.byTier[tier]
	c.fights++
	d.Fought++
	switch outcome {
	case "won":
		d.Won++
	case "knockedOut":
		d.KnockedOut++
	case "retreated":
		d.Retreated++
	}
	d.Rounds.Add(rounds)
}

func (c *CombatTally) mergeInto(dst map[string]*CombatCount) {
	for tier := 1; tier <= 3; tier++ {
		d := &c.byTier[tier]
		if d.Fought == 0 {
			continue
		}
		addCombat(dst, "t"+strconv.Itoa(tier), d)
	}
}
