package reducers

import (
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
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
	case rng.ModeFair:
		if a.Seed != "" {
			return reject(engine.CodeInvalidAction, "a fair game takes no seed string (its seed comes from the server and the players)")
		}
	case rng.ModeTrustless:
		if a.Seed != "" {
			return reject(engine.CodeInvalidAction, "a trustless game takes no seed (its randomness comes from the players' chains)")
		}
	default:
		return reject(engine.CodeInvalidAction, "unknown rng mode "+strconv.Quote(a.Mode))
	}
	saltKey, commit, err := engine.CreateSecrets(mode, a)
	if err != nil {
		return err
	}
	chainLength, deadline, err := engine.CreateProtocol(c, mode, a)
	if err != nil {
		return err
	}
	c.G.Reset() // the zero game, keeping a reused game's memory
	p.GameID, p.Owner, p.RulesHash = a.GameID, a.Actor, c.Rules.Hash()
	p.Phase, p.CreatedAt = engine.PhaseLobby, a.At
	p.RNG = engine.RNGInfo{Mode: mode, AuditEnabled: a.Audit}
	c.G.Secret.Seed, c.G.Secret.SaltKey = a.Seed, saltKey
	if mode == rng.ModeFair {
		c.G.Secret.ServerSeed = a.ServerSeed
		p.Fairness = c.G.NewFairness()
		p.Fairness.CommitmentHex = commit.String()
		if a.Openings {
			p.Fairness.Openings, p.Fairness.DeadlineMs = true, deadline
		}
	}
	if mode == rng.ModeTrustless {
		p.Trustless = &engine.Trustless{ChainLength: chainLength, DeadlineMs: deadline, NextIndex: 1,
			Transcript: trustless.TranscriptStart(a.GameID, p.RulesHash)}
	}
	e := c.Add(engine.EvGameCreated)
	e.UID, e.GameID, e.RulesHash, e.Commitment = a.Actor, a.GameID, p.RulesHash, commit
	return nil
}

// join seats the actor with a class.
func join(c *engine.Ctx, a *engine.Action) error {
	p := c.P
	switch {
	case p.Phase != engine.PhaseLobby:
		return reject(engine.CodeAlreadyStarted, "the game has started; it takes no joins")
	case a.Actor == "":
		return reject(engine.CodeInvalidAction, "join needs an actor")
	case !a.Class.Valid():
		return reject(engine.CodeInvalidAction, "unknown class "+strconv.Quote(string(a.Class)))
	}
	if pl, _ := p.Player(a.Actor); pl != nil {
		return reject(engine.CodeAlreadyJoined, a.Actor+" already has seat "+strconv.Itoa(pl.Seat))
	}
	if len(p.Players) >= c.Rules.MaxPlayers {
		return reject(engine.CodeGameFull, "every seat is taken")
	}
	entropy, err := engine.JoinEntropy(c, a)
	if err != nil {
		return err
	}
	keys, err := engine.CheckJoinKeys(c, a)
	if err != nil {
		return err
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
	// A reset game keeps its old players' item lists beyond len; the slot
	// the insert fills last lends its list to the new player (the shift
	// overwrites that slot, so no two players share a list).
	var items []string
	if n := len(p.Players); n < cap(p.Players) {
		items = p.Players[:n+1][n].Items[:0]
	}
	p.Players = slices.Insert(p.Players, at, engine.Player{UID: a.Actor, Seat: a.Seat, Class: a.Class,
		HP: c.Rules.StartHP, KeepSmokeBomb: a.KeepSmokeBomb, Items: items})
	if p.RNG.Mode == rng.ModeFair {
		c.G.Secret.Entropy = slices.Insert(c.G.Secret.Entropy, at, entropy)
	}
	e := c.Add(engine.EvPlayerJoined)
	e.UID, e.Seat, e.Class = a.Actor, a.Seat, a.Class
	engine.SeatKeys(c, a, at, keys, e)
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
	if err := engine.AllOpened(c); err != nil {
		return err
	}
	gameSeed, err := engine.FixGameSeed(c)
	if err != nil {
		return err
	}
	c.G.Secret.GameSeed = gameSeed
	StartGame(c)
	p.StartedAt = a.At
	advance(c)
	return nil
}

// StartGame shuffles the decks in the spec's order (treasure.t1, t2, t3,
// chance, enemy.t1, t2, t3; one rng.Shuffle each, tag
// deck.initShuffle.<deckId>, ctx.deckId), then rolls the turn order, and
// begins round 1 with the first player's turn. A trustless game shuffles
// nothing: its piles are the ruleset's decks, drawn from lazily.
func StartGame(c *engine.Ctx) {
	p, sec := c.P, &c.G.Secret
	// A reset game lends its old decks' piles (kept beyond len) to the new.
	p.Decks = resize(p.Decks, engine.NumDecks)
	sec.Decks = resize(sec.Decks, engine.NumDecks)
	if p.RNG.Mode == rng.ModeTrustless {
		// No order is fixed in advance: each pile is the ruleset's deck,
		// public, and every draw takes a card from it with the stream of
		// the action that draws (decks.go).
		sec.Decks = sec.Decks[:0]
		for d := range engine.NumDecks {
			init := c.Rules.InitialDeck(d)
			p.Decks[d] = engine.DeckInfo{ID: engine.DeckIDs[d], Size: len(init), Discard: p.Decks[d].Discard[:0],
				Pile: append(p.Decks[d].Pile[:0], init...)}
		}
	} else {
		for d := range engine.NumDecks {
			init := c.Rules.InitialDeck(d)
			sec.Decks[d] = engine.SecretDeck{ID: engine.DeckIDs[d], Cards: append(sec.Decks[d].Cards[:0], init...)}
			p.Decks[d] = engine.DeckInfo{ID: engine.DeckIDs[d], Size: len(init), Discard: p.Decks[d].Discard[:0]}
			shuffleDeck(c, d, initTags[d])
		}
	}
	p.Order = rollTurnOrder(c, p.Order[:0])
	c.Add(engine.EvGameStarted).Order = p.Order
	p.Phase, p.Round, p.TurnIndex = engine.PhasePlaying, 1, 0
	beginTurn(c)
}

// resize returns s with length n, reusing its array (and the elements kept
// beyond its length) if it has room, else a new zeroed slice.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// turnEntry is one player's place in the turn-order roll: g is the index
// where its group of tied values begins.
type turnEntry struct {
	uid        string
	seat, v, g int
}

// byValue orders turn entries by value, highest first, then by seat.
func byValue(x, y turnEntry) int {
	if x.v != y.v {
		return y.v - x.v
	}
	return x.seat - y.seat
}

func bySeat(x, y turnEntry) int { return x.seat - y.seat }

// rollTurnOrder rolls d6 per player in seat order (turnOrder.roll,
// ctx.actorUid), orders by value, highest first, and breaks ties as
// GAME_RULES.md says: tied groups re-roll (turnOrder.tieBreak.reroll) group
// by group, highest group first, each group in seat order, and a group that
// is still tied is settled before the next group, until no two players
// share a place. The order (uids) is appended to dst.
func rollTurnOrder(c *engine.Ctx, dst []string) []string {
	sides := c.Rules.Dice.TurnOrder
	var buf [8]turnEntry // room for the usual table, without allocating
	es := buf[:0]
	for _, pl := range c.P.Players {
		v := roll(c, sides, rng.TagTurnOrderRoll, &rng.Ctx{ActorUID: pl.UID})
		es = append(es, turnEntry{uid: pl.UID, seat: pl.Seat, v: v})
		e := c.Add(engine.EvTurnOrderRolled)
		e.UID, e.Value = pl.UID, v
	}
	regroup(es, 0, len(es))
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].g == es[i].g {
			j++
		}
		if j == i+1 {
			i++
			continue
		}
		slices.SortStableFunc(es[i:j], bySeat)
		for k := i; k < j; k++ {
			es[k].v = roll(c, sides, rng.TagTurnOrderTieBreak, &rng.Ctx{ActorUID: es[k].uid})
			e := c.Add(engine.EvTieBreakRerolled)
			e.UID, e.Value = es[k].uid, es[k].v
		}
		regroup(es, i, j)
	}
	for _, e := range es {
		dst = append(dst, e.uid)
	}
	return dst
}

// regroup sorts es[lo:hi] by value and gives tied entries the same group
// id g, the index where their group begins.
func regroup(es []turnEntry, lo, hi int) {
	slices.SortStableFunc(es[lo:hi], byValue)
	for i := lo; i < hi; i++ {
		if i > lo && es[i].v == es[i-1].v {
			es[i].g = es[i-1].g
		} else {
			es[i].g = i
		}
	}
}
