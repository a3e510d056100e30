package reducers

import (
	"strconv"
	"unsafe"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

func reject(code engine.Code, msg string) error { return engine.Reject(code, msg) }

// sameString reports whether a == b, without a call when they are the
// same bytes, as they most often are here: a game's step and phase are
// the constants the reducers set, its Awaiting a copy of a player's UID
// and so of a bot's actor. A string comparison is otherwise a call,
// around which the caller saves every value it holds in a register.
func sameString[S ~string](a, b S) bool {
	return len(a) == len(b) && (unsafe.StringData(string(a)) == unsafe.StringData(string(b)) || a == b)
}

// current returns the current player (nil outside a turn).
func current(c *engine.Ctx) *engine.Player {
	p, _ := c.P.Player(c.P.Current)
	return p
}

// requireTurn checks the common preconditions of a current player's action
// in one step.
func requireTurn(c *engine.Ctx, a *engine.Action, step engine.Step) (*engine.Player, error) {
	p := c.P
	if p.Phase == engine.PhaseLobby {
		return nil, reject(engine.CodeNotStarted, "the game has not started")
	}
	pl, _ := p.Player(a.Actor)
	if pl == nil {
		return nil, reject(engine.CodeUnknownPlayer, "no player "+strconv.Quote(a.Actor)+" in this game")
	}
	if !sameString(p.Awaiting, a.Actor) {
		return nil, reject(engine.CodeNotYourTurn, "the game waits for "+p.Awaiting)
	}
	if !sameString(p.Step, step) {
		return nil, reject(engine.CodeWrongStep, "the game is in step "+string(p.Step)+", not "+string(step))
	}
	return pl, nil
}

// roll rolls a die; the ruleset guarantees sides >= 1, so an error is a
// programming mistake.
func roll(c *engine.Ctx, sides int, tag rng.Tag, ctx *rng.Ctx) int {
	d, err := c.RNG.Dice(sides, tag, ctx)
	if err != nil {
		panic("reducers: " + err.Error())
	}
	return d.Value
}

// emitDice logs a die without modifiers.
func emitDice(c *engine.Ctx, who string, tag rng.Tag, sides, value int) {
	ev := c.Add(engine.EvDiceRolled)
	ev.Who, ev.Tag, ev.Sides, ev.Value = who, tag, sides, value
}

// heal raises HP by n up to the maximum and returns the HP gained.
func heal(c *engine.Ctx, pl *engine.Player, n int) int {
	before := pl.HP
	pl.HP = min(c.Rules.MaxHP, pl.HP+n)
	return pl.HP - before
}

// recompute derives a player's bonuses from its inventory: best weapon
// (relic counts), best armor (relic counts), best boots.
func recompute(c *engine.Ctx, pl *engine.Player) {
	atk, def, mv := 0, 0, 0
	for _, id := range pl.Items {
		k := c.Rules.Card(id)
		switch k.Kind {
		case engine.CardWeapon, engine.CardArmor, engine.CardRelic:
			atk, def = max(atk, k.Atk), max(def, k.Def)
		case engine.CardBoots:
			mv = max(mv, k.Move)
		}
	}
	pl.AtkBonus, pl.DefBonus, pl.MoveBonus = atk, def, mv
}

// holds returns the index of card id in the player's inventory, or -1.
func holds(pl *engine.Player, id string) int {
	for i, it := range pl.Items {
		if it == id {
			return i
		}
	}
	return -1
}

// removeItem removes inventory slot i, keeping the order.
func removeItem(c *engine.Ctx, pl *engine.Player, i int) string {
	id := pl.Items[i]
	copy(pl.Items[i:], pl.Items[i+1:])
	pl.Items = pl.Items[:len(pl.Items)-1]
	recompute(c, pl)
	return id
}

// giveItem adds a card to a player's inventory.
func giveItem(c *engine.Ctx, pl *engine.Player, id string) {
	pl.Items = append(pl.Items, id)
	recompute(c, pl)
}

// attackBonus is a player's attack bonus in combat and duels: best weapon
// plus the warrior's perk.
func attackBonus(c *engine.Ctx, pl *engine.Player) int {
	if pl.Class == engine.ClassWarrior {
		return pl.AtkBonus + c.Rules.Classes.WarriorAttack
	}
	return pl.AtkBonus
}

// nextID returns a fresh id with the prefix ("c1", "d2"): prefix +
// strconv.Itoa(NextID), taken from a table built once for the usual
// numbers, so that naming a fight allocates nothing.
func nextID(c *engine.Ctx, prefix string) string {
	c.P.NextID++
	n := c.P.NextID
	switch {
	case prefix == "c" && n < len(combatIDs):
		return combatIDs[n]
	case prefix == "d" && n < len(duelIDs):
		return duelIDs[n]
	}
	return prefix + strconv.Itoa(n)
}

// combatIDs[n] and duelIDs[n] are "c<n>" and "d<n>" (index 0 unused). They
// are read-only after init.
var combatIDs, duelIDs = idTable("c"), idTable("d")

// idTable returns prefix + n for n in [0, 512): a whole game names a few
// dozen fights; the counter grows past the table only in very long games.
func idTable(prefix string) []string {
	t := make([]string, 512)
	for n := range t {
		t[n] = prefix + strconv.Itoa(n)
	}
	return t
}

// knockOut applies GAME_RULES.md's knock-out: back to the first tile of the
// current zone, HP set to the ruleset's knock-out HP, items kept. Ending the
// turn, if it is the current player's, is the caller's.
func knockOut(c *engine.Ctx, pl *engine.Player) {
	from := pl.Pos
	pl.Pos = c.Rules.ZoneStart(from)
	pl.HP = c.Rules.KnockoutHP
	ev := c.Add(engine.EvKnockedOut)
	ev.UID, ev.From, ev.To, ev.HP = pl.UID, from, pl.Pos, pl.HP
}

// damage lowers HP by n, never below 0, and logs it; it reports whether the
// player is now at 0.
func damage(c *engine.Ctx, who string, pl *engine.Player, n int) bool {
	pl.HP = max(0, pl.HP-n)
	ev := c.Add(engine.EvDamageDealt)
	ev.Who, ev.Target, ev.Amount, ev.HP = who, pl.UID, n, pl.HP
	return pl.HP == 0
}
