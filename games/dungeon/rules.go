// Package dungeon is the reference game, the dungeon (GAME_RULES.md), on
// the game definition (package game) as an adapter: every rule is the
// engine's (engine/, its reducers in reducers/), dispatched through an
// engine.Dispatcher with the draws of the Rand the machinery passes, so
// that a game, its entropy order, its draws, its log and its bytes are
// exactly the engine's. docs/games.md says what it maps and what its
// game.Event summary leaves out.
package dungeon

import (
	"encoding/json"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/reducers"
)

// Name is the dungeon's registry name.
const Name = "dungeon"

// MaxSeats is the most seats the definition takes: the default ruleset's
// maxPlayers. A ruleset may lower it, not raise it (offerDuel's target is
// a seat 0..MaxSeats-1).
const MaxSeats = 6

// Rules is a dungeon ruleset: an engine ruleset, loaded and validated, with
// the engine built on it (engine.New with reducers.Table()). It cannot
// change once built; games and goroutines share it.
type Rules struct {
	r     *engine.Ruleset
	canon []byte
	eng   *engine.Engine
}

func newRules(r *engine.Ruleset) (*Rules, error) {
	canon, err := json.Marshal(r) // the bytes whose SHA-256 is r.Hash() (engine/ruleset_load.go)
	if err != nil {
		return nil, game.Reject(game.CodeBadRuleset, err.Error())
	}
	return &Rules{r: r, canon: canon, eng: engine.New(r, reducers.Table())}, nil
}

var defaultRules = func() *Rules {
	r, err := newRules(engine.DefaultRules())
	if err != nil {
		panic("dungeon: the default ruleset: " + err.Error())
	}
	return r
}()

// DefaultRules returns the engine's default ruleset (engine.DefaultRules).
func DefaultRules() *Rules { return defaultRules }

// Engine returns the engine ruleset.
func (r *Rules) Engine() *engine.Ruleset { return r.r }

// Game returns "dungeon".
func (r *Rules) Game() string { return Name }

// CanonicalJSON returns the engine ruleset's canonical JSON (encoding/json
// of engine.Ruleset, the bytes the engine hashes).
func (r *Rules) CanonicalJSON() []byte { return append([]byte(nil), r.canon...) }

// Hash returns the engine ruleset's hash, the hex SHA-256 of CanonicalJSON.
func (r *Rules) Hash() string { return r.r.Hash() }

// params are the ruleset's numbers at object paths (every top-level number
// but the seat counts, the dice, the class perks), each with a range the
// engine's validation (engine/ruleset_load.go checkNumbers) accepts for
// every value in it whatever the others' values in their own ranges:
// startHp and knockoutHp stay at or below the lowest maxHp, monkCancelMin
// at or below the fewest monkCancel sides plus one, turnOrder at 2 sides
// or more. The upper bounds keep a sweep's range explicit; the engine sets
// none. The numbers inside arrays (card numbers, weights, tiles) are
// sim's paths (docs/sim.md), not these.
var params = []game.Param{
	{Path: "startHp", Default: 10, Min: 1, Max: 10, Integer: true, Doc: "HP at the start, at most maxHp"},
	{Path: "maxHp", Default: 10, Min: 10, Max: 100, Integer: true, Doc: "the most HP a player may have"},
	{Path: "knockoutHp", Default: 5, Min: 1, Max: 10, Integer: true, Doc: "HP after a knock-out"},
	{Path: "capacity", Default: 4, Min: 0, Max: 20, Integer: true, Doc: "items a player may keep"},
	{Path: "sleepHeal", Default: 3, Min: 0, Max: 100, Integer: true, Doc: "HP a sleep heals"},
	{Path: "springHeal", Default: 4, Min: 0, Max: 100, Integer: true, Doc: "HP the Healing Spring heals"},
	{Path: "spiritDamage", Default: 2, Min: 0, Max: 100, Integer: true, Doc: "damage of the Nefarious Spirit"},
	{Path: "duelRounds", Default: 3, Min: 1, Max: 20, Integer: true, Doc: "rounds of a duel"},
	{Path: "roundLimit", Default: 40, Min: 1, Max: 1000, Integer: true, Doc: "the last round if no one reaches the final tile (the end-game follows)"},
	{Path: "combatRoundCap", Default: 30, Min: 1, Max: 1000, Integer: true, Doc: "combat rounds after which the player retreats"},
	{Path: "retreatTiles", Default: 1, Min: 0, Max: 100, Integer: true, Doc: "tiles back after the combat cap"},
	{Path: "dice.move", Default: 4, Min: 1, Max: 100, Integer: true, Doc: "sides of the movement die"},
	{Path: "dice.combat", Default: 6, Min: 1, Max: 100, Integer: true, Doc: "sides of the combat die"},
	{Path: "dice.duel", Default: 6, Min: 1, Max: 100, Integer: true, Doc: "sides of the duel die"},
	{Path: "dice.turnOrder", Default: 6, Min: 2, Max: 100, Integer: true, Doc: "sides of the turn-order die (2 or more, to separate ties)"},
	{Path: "dice.earthquake", Default: 4, Min: 1, Max: 100, Integer: true, Doc: "sides of the earthquake die"},
	{Path: "dice.monkCancel", Default: 6, Min: 4, Max: 100, Integer: true, Doc: "sides of the monk's cancel die"},
	{Path: "classes.warriorAttack", Default: 1, Min: 0, Max: 100, Integer: true, Doc: "the warrior's attack bonus"},
	{Path: "classes.monkCancelMin", Default: 5, Min: 1, Max: 5, Integer: true, Doc: "the monk's cancel roll that cancels, at least"},
	{Path: "classes.monkSleepHeal", Default: 4, Min: 0, Max: 100, Integer: true, Doc: "HP a monk's sleep heals"},
	{Path: "classes.duelistRerolls", Default: 1, Min: 0, Max: 1, Integer: true, Doc: "the duelist's re-rolls per duel"},
	{Path: "classes.scoutMove", Default: 1, Min: 0, Max: 100, Integer: true, Doc: "the scout's bonus to each movement roll"},
}

// value returns the number params[i] names in r.
func value(r *engine.Ruleset, path string) int {
	d, c := &r.Dice, &r.Classes
	switch path {
	case "startHp":
		return r.StartHP
	case "maxHp":
		return r.MaxHP
	case "knockoutHp":
		return r.KnockoutHP
	case "capacity":
		return r.Capacity
	case "sleepHeal":
		return r.SleepHeal
	case "springHeal":
		return r.SpringHeal
	case "spiritDamage":
		return r.SpiritDamage
	case "duelRounds":
		return r.DuelRounds
	case "roundLimit":
		return r.RoundLimit
	case "combatRoundCap":
		return r.CombatRoundCap
	case "retreatTiles":
		return r.RetreatTiles
	case "dice.move":
		return d.Move
	case "dice.combat":
		return d.Combat
	case "dice.duel":
		return d.Duel
	case "dice.turnOrder":
		return d.TurnOrder
	case "dice.earthquake":
		return d.Earthquake
	case "dice.monkCancel":
		return d.MonkCancel
	case "classes.warriorAttack":
		return c.WarriorAttack
	case "classes.monkCancelMin":
		return c.MonkCancelMin
	case "classes.monkSleepHeal":
		return c.MonkSleepHeal
	case "classes.duelistRerolls":
		return c.DuelistRerolls
	case "classes.scoutMove":
		return c.ScoutMove
	}
	panic("dungeon: no parameter " + path)
}

// decodeRules decodes a ruleset as the engine does (engine.LoadRules:
// strict JSON refusing unknown, repeated and case-folded keys, wrong types
// and trailing data; then the engine's validation of every number, board,
// deck and table), then refuses a Param outside its range and maxPlayers
// above MaxSeats. Every refusal is an *Error of CodeBadRuleset naming the
// problem (the engine's message for the engine's refusals).
func decodeRules(data []byte) (*Rules, error) {
	r, err := engine.LoadRules(data)
	if err != nil {
		return nil, game.Reject(game.CodeBadRuleset, err.Error())
	}
	for _, p := range params {
		if err := game.CheckParam(p, float64(value(r, p.Path))); err != nil {
			return nil, err
		}
	}
	if r.MaxPlayers > MaxSeats { // the engine has minPlayers >= 2
		return nil, game.Reject(game.CodeBadRuleset, fmt.Sprintf("maxPlayers %d: the dungeon seats at most %d", r.MaxPlayers, MaxSeats))
	}
	return newRules(r)
}
