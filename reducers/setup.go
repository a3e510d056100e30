package reducers

import (
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/rng"
)

// create makes the game: the actor becomes the owner, the rng mode and seed
// are fixed (mode "" means crypto, as the spec's migration note says).
func create(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	if p.Phase != engine.PhaseNone {
		return reject(engine.CodeAlreadyCreated, "the game already exists")
	}
	if a.Actor == "" {
		return reject(engine.CodeInvalidAction, "create needs an actor")
	}
	mode := rng.Mode(a.Mode)
	switch mode {
	case "", rng.ModeCrypto:
		mode = rng.ModeCrypto
		if a.Seed != "" {
			return reject(engine.CodeInvalidAction, "a crypto game takes no seed")
		}
	case rng.ModeSeeded:
		if a.Seed == "" {
			return reject(engine.CodeInvalidAction, "a seeded game needs a seed")
		}
	default:
		return reject(engine.CodeInvalidAction, "unknown rng mode "+strconv.Quote(a.Mode))
	}
	*c.G = engine.Game{}
	p.GameID, p.Owner, p.RulesHash = a.GameID, a.Actor, c.Rules.Hash()
	p.Phase, p.CreatedAt = engine.PhaseLobby, a.At
	p.RNG = engine.RNGInfo{Mode: mode, AuditEnabled: a.Audit}
	c.G.Secret.Seed = a.Seed
	c.Emit(engine.Event{Type: engine.EvGameCreated, UID: a.Actor, GameID: a.GameID})
	return nil
}

func knownClass(k engine.Class) bool { return slices.Contains(engine.Classes, k) }

// join seats the actor with a class.
func join(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	switch {
	case p.Phase != engine.PhaseLobby:
		return reject(engine.CodeAlreadyStarted, "the game has started; it takes no joins")
	case a.Actor == "":
		return reject(engine.CodeInvalidAction, "join needs an actor")
	case !knownClass(a.Class):
		return reject(engine.CodeInvalidAction, "unknown class "+strconv.Quote(string(a.Class)))
	}
	if pl, _ := p.Player(a.Actor); pl != nil {
		return reject(engine.CodeAlreadyJoined, a.Actor+" already has seat "+strconv.Itoa(pl.Seat))
	}
	if len(p.Players) >= c.Rules.MaxPlayers {
		return reject(engine.CodeGameFull, "every seat is taken")
	}
	if a.Seat < 0 || a.Seat >= c.Rules.MaxPlayers {
		return reject(engine.CodeSeatTaken, "seat "+strconv.Itoa(a.Seat)+" does not exist")
	}
	at := len(p.Players)
	for i, pl := range p.Players {
		if pl.Seat == a.Seat {
			return reject(engine.CodeSeatTaken, "seat "+strconv.Itoa(a.Seat)+" is taken by "+pl.UID)
		}
		if pl.Seat > a.Seat && at == len(p.Players) {
			at = i
		}
	}
	p.Players = slices.Insert(p.Players, at, engine.Player{UID: a.Actor, Seat: a.Seat, Class: a.Class,
		HP: c.Rules.StartHP, KeepSmokeBomb: a.KeepSmokeBomb})
	c.Emit(engine.Event{Type: engine.EvPlayerJoined, UID: a.Actor, Seat: a.Seat, Class: a.Class})
	return nil
}

// start is the owner's StartGame.
func start(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	switch {
	case p.Phase != engine.PhaseLobby:
		return reject(engine.CodeAlreadyStarted, "the game has already started")
	case a.Actor != p.Owner:
		return reject(engine.CodeNotOwner, "only the owner "+p.Owner+" may start the game")
	case len(p.Players) < c.Rules.MinPlayers:
		return reject(engine.CodeTooFewPlayers, strconv.Itoa(len(p.Players))+" players; the ruleset needs "+strconv.Itoa(c.Rules.MinPlayers))
	}
	StartGame(c)
	p.StartedAt = a.At
	advance(c)
	return nil
}

// StartGame shuffles the decks in the spec's order (treasure.t1, t2, t3,
// chance, enemy.t1, t2, t3; one rng.Shuffle each, tag
// deck.initShuffle.<deckId>, ctx.deckId), then rolls the turn order, and
// begins round 1 with the first player's turn.
func StartGame(c *engine.Ctx) {
	p, sec := c.P, &c.G.Secret
	p.Decks = make([]engine.DeckInfo, engine.NumDecks)
	sec.Decks = make([]engine.SecretDeck, engine.NumDecks)
	for d := range engine.NumDecks {
		init := c.Rules.InitialDeck(d)
		sec.Decks[d] = engine.SecretDeck{ID: engine.DeckIDs[d], Cards: append(make([]string, 0, len(init)), init...)}
		p.Decks[d] = engine.DeckInfo{ID: engine.DeckIDs[d], Size: len(init)}
		shuffleDeck(c, d, initTags[d])
	}
	p.Order = rollTurnOrder(c)
	c.Emit(engine.Event{Type: engine.EvGameStarted, Order: p.Order})
	p.Phase, p.Round, p.TurnIndex = engine.PhasePlaying, 1, 0
	beginTurn(c)
}

// rollTurnOrder rolls d6 per player in seat order (turnOrder.roll,
// ctx.actorUid), orders by value, highest first, and breaks ties as
// GAME_RULES.md says: tied groups re-roll (turnOrder.tieBreak.reroll) group
// by group, highest group first, each group in seat order, and a group that
// is still tied is settled before the next group, until no two players
// share a place.
func rollTurnOrder(c *engine.Ctx) []string {
	type entry struct {
		uid        string
		seat, v, g int
	}
	sides := c.Rules.Dice.TurnOrder
	es := make([]entry, len(c.P.Players))
	for i, pl := range c.P.Players {
		v := roll(c, sides, rng.TagTurnOrderRoll, &rng.Ctx{ActorUID: pl.UID})
		es[i] = entry{uid: pl.UID, seat: pl.Seat, v: v}
		c.Emit(engine.Event{Type: engine.EvTurnOrderRolled, UID: pl.UID, Value: v})
	}
	byValue := func(x, y entry) int {
		if x.v != y.v {
			return y.v - x.v
		}
		return x.seat - y.seat
	}
	// group ids: tied entries share g, the index where their group begins.
	regroup := func(lo, hi int) {
		slices.SortStableFunc(es[lo:hi], byValue)
		for i := lo; i < hi; i++ {
			if i > lo && es[i].v == es[i-1].v {
				es[i].g = es[i-1].g
			} else {
				es[i].g = i
			}
		}
	}
	regroup(0, len(es))
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].g == es[i].g {
			j++
		}
		if j == i+1 {
			i++
			continue
		}
		slices.SortStableFunc(es[i:j], func(x, y entry) int { return x.seat - y.seat })
		for k := i; k < j; k++ {
			es[k].v = roll(c, sides, rng.TagTurnOrderTieBreak, &rng.Ctx{ActorUID: es[k].uid})
			c.Emit(engine.Event{Type: engine.EvTieBreakRerolled, UID: es[k].uid, Value: es[k].v})
		}
		regroup(i, j)
	}
	order := make([]string, len(es))
	for i, e := range es {
		order[i] = e.uid
	}
	return order
}
