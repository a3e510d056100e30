package dungeon

import (
	"fmt"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// Help implements game.Helper: the rules of GAME_RULES.md in plain words,
// every number from r (a *Rules of this definition; any other ruleset gets
// the default's help).
func (Definition) Help(gr game.Ruleset) game.Help {
	r := engine.DefaultRules()
	if x, ok := gr.(*Rules); ok && x != nil {
		r = x.Engine()
	}
	final := r.FinalTile()
	h := game.Help{Summary: fmt.Sprintf("A race through a dungeon of %d tiles for %d to %d players: the first to reach tile %d ends the game at the end of that round, "+
		"and the player on the final tile (or furthest along) wins. Items, chance cards, monsters and duels stand in the way.", r.Board.Length, r.MinPlayers, r.MaxPlayers, final)}
	h.Sections = append(h.Sections,
		game.HelpSection{Title: "Your turn", Intro: "The game moves on by itself through every step that needs no choice.", Items: []game.HelpItem{
			{Name: "Items", Text: "Use a potion or drop an item, as often as you like, then end the step."},
			{Name: "Challenge", Text: "If other players share your tile, you may challenge one to a duel instead of moving this turn. A held smoke bomb cancels a challenge against its holder."},
			{Name: "Move or sleep", Text: fmt.Sprintf("Roll a d%d and move forward (stopping on the final tile), or sleep and heal %d.", r.Dice.Move, r.SleepHeal)},
			{Name: "The tile", Text: "A treasure tile gives you the top card of its tier's deck; a chance tile draws a chance card; an enemy tile brings monsters to fight."},
			{Name: "Fight", Text: "One round per action, until the monsters are dead or you are knocked out."},
			{Name: "Too many items", Text: fmt.Sprintf("You may carry %d items; over that, discard one of your choice.", r.Capacity)},
		}},
		game.HelpSection{Title: "Classes", Items: []game.HelpItem{
			{Name: "Warrior", Text: fmt.Sprintf("+%d attack in fights and duels.", r.Classes.WarriorAttack)},
			{Name: "Monk", Text: fmt.Sprintf("Once per game, when challenged, rolls a d%d: %d or more cancels the duel. Heals %d when sleeping.", r.Dice.MonkCancel, r.Classes.MonkCancelMin, r.Classes.MonkSleepHeal)},
			{Name: "Duelist", Text: rerollText(r.Classes.DuelistRerolls)},
			{Name: "Scout", Text: fmt.Sprintf("+%d to every movement roll.", r.Classes.ScoutMove)},
		}},
		game.HelpSection{Title: "Items", Intro: "A weapon adds to your attack and armor to your defense; they do not stack: your best one counts. Potions are used in the item step.", Items: treasureItems(r)},
		game.HelpSection{Title: "Chance cards", Items: chanceItems(r)},
		game.HelpSection{Title: "Fights", Intro: fmt.Sprintf("Each round you roll a d%[1]d to attack and a d%[1]d to defend, and so does each monster. You hit the first monster still standing for your attack roll plus bonuses minus its defense roll plus its defense; each monster hits you the same way. "+
			"A killed monster may leave loot. After %[2]d rounds you retreat %[3]s.", r.Dice.Combat, r.CombatRoundCap, tiles(r.RetreatTiles)), Items: []game.HelpItem{
			{Name: "Knocked out", Text: fmt.Sprintf("At 0 HP you go back to the first tile of your zone with %d HP; you keep your items and your turn ends.", r.KnockoutHP)},
		}},
		game.HelpSection{Title: "Duels", Intro: fmt.Sprintf("Up to %d rounds, dice as in a fight. The one who dealt more damage wins (a knock-out wins at once) and takes the loser's best item; a tie has no winner.", r.DuelRounds)},
		game.HelpSection{Title: "The end", Intro: fmt.Sprintf("When a player reaches tile %d, the game ends at the end of that round, so that everyone has had as many turns. After %d rounds it ends anyway. "+
			"The players on the final tile (or, if none, those furthest along) are the finalists; several fight a bracket of duels, and a drawn match goes to the lower seat.", final, r.RoundLimit)},
	)
	return h
}

// tiles says n tiles in words: "1 tile", "2 tiles".
func tiles(n int) string {
	if n == 1 {
		return "1 tile"
	}
	return fmt.Sprintf("%d tiles", n)
}

func rerollText(n int) string {
	if n == 0 {
		return "No re-roll in this ruleset."
	}
	return "Once per duel, after a round's dice, may re-roll the defense die; the new value counts."
}

// treasureItems lists the treasure decks' cards, each once, by tier.
func treasureItems(r *engine.Ruleset) []game.HelpItem {
	var out []game.HelpItem
	for _, d := range r.Decks {
		if !strings.HasPrefix(d.ID, "treasure.") {
			continue
		}
		for _, c := range d.Cards {
			var what []string
			switch c.Kind {
			case engine.CardWeapon, engine.CardArmor, engine.CardRelic:
				if c.Atk > 0 {
					what = append(what, fmt.Sprintf("+%d attack", c.Atk))
				}
				if c.Def > 0 {
					what = append(what, fmt.Sprintf("+%d defense", c.Def))
				}
			case engine.CardPotion:
				if c.HealToMax {
					what = append(what, "heals you to full")
				} else {
					what = append(what, fmt.Sprintf("heals %d", c.Heal))
				}
			case engine.CardSmokeBomb:
				what = append(what, "spent at once to cancel a challenge against you")
			case engine.CardBoots:
				what = append(what, fmt.Sprintf("+%d to every movement roll", c.Move))
			}
			out = append(out, game.HelpItem{Name: c.Name, Text: fmt.Sprintf("Tier %s: %s.", strings.TrimPrefix(d.ID, "treasure.t"), strings.Join(what, ", "))})
		}
	}
	return out
}

// chanceItems says each chance card's effect.
func chanceItems(r *engine.Ruleset) []game.HelpItem {
	var out []game.HelpItem
	for _, d := range r.Decks {
		for _, c := range d.Cards {
			if c.Kind != engine.CardChance {
				continue
			}
			var text string
			switch c.Effect {
			case engine.EffEarthquake:
				text = fmt.Sprintf("Every player rolls a d%d and moves back that far.", r.Dice.Earthquake)
			case engine.EffVitalEnergy:
				text = "You roll to move again, and resolve the new tile."
			case engine.EffMysticWave:
				text = "You swap places with the nearest other player."
			case engine.EffNefariousSpirit:
				text = fmt.Sprintf("The nearest other player loses %d HP.", r.SpiritDamage)
			case engine.EffHealingSpring:
				text = fmt.Sprintf("You heal %d.", r.SpringHeal)
			case engine.EffWindfall:
				text = "You draw a treasure of your zone's tier."
			case engine.EffAmbush:
				text = "A monster of your zone's tier attacks: fight it."
			default:
				text = string(c.Effect)
			}
			out = append(out, game.HelpItem{Name: c.Name, Text: text})
		}
	}
	return out
}
