package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// StateError lists every inconsistency [Game.Check] found.
type StateError struct {
	Problems []string
}

// Error joins the problems, one per line.
func (e *StateError) Error() string {
	return "engine: inconsistent game state:\n  " + strings.Join(e.Problems, "\n  ")
}

// Check reports whether g is a state the engine could have produced under
// the ruleset r: the invariants its handlers rely on. Games the engine
// builds always pass (the property tests check it after every action); a
// state that arrives from outside — a fixture file's initial state, say —
// must pass before any action is applied to it, or a handler could act on
// nonsense. It returns a *StateError naming every problem, or nil.
//
// The invariants: the phase, step and rng mode are known; players have
// unique uids and seats, known classes, HP in [0, MaxHP], positions on the
// board and only treasure cards; once started, the seven decks are in
// order, their sizes match, each holds only its own cards, and every card
// of the ruleset is in exactly one place (deck, discard pile, an inventory
// or the enemy queue); the turn order is the players, the current and
// awaited players are seated; a combat, duel or bracket in progress names
// seated players and sane counters.
func (g *Game) Check(r *Ruleset) error {
	var p problems
	pub := &g.Public
	switch pub.Phase {
	case PhaseNone:
		if len(pub.Players) > 0 || len(pub.Decks) > 0 || len(g.Secret.Decks) > 0 {
			p.add("a game not created has players or decks")
		}
		return p.err()
	case PhaseLobby, PhasePlaying, PhaseFinished:
	default:
		p.add("unknown phase %q", pub.Phase)
		return p.err()
	}
	if pub.RulesHash != r.Hash() {
		p.add("made under ruleset %q, not %q", pub.RulesHash, r.Hash())
	}
	switch pub.RNG.Mode {
	case rng.ModeSeeded:
		if !utf8.ValidString(g.Secret.Seed) {
			p.add("the seed is not valid UTF-8")
		}
	case rng.ModeCrypto:
	case rng.ModeFair:
		if _, err := fair.ParseServerSeed(g.Secret.ServerSeed); err != nil {
			p.add("fair mode: %v", err)
		}
		if len(g.Secret.Entropy) != len(pub.Players) {
			p.add("fair mode: %d contributions for %d players", len(g.Secret.Entropy), len(pub.Players))
		}
		if pub.Fairness == nil || pub.Fairness.CommitmentHex == "" {
			p.add("fair mode: no commitment to the server seed")
		}
		if f := pub.Fairness; f != nil && f.Openings && len(f.Seats) != len(pub.Players) {
			p.add("fair mode with openings: %d commitments for %d players", len(f.Seats), len(pub.Players))
		}
	case rng.ModeTrustless:
		g.checkTrustless(&p)
	default:
		p.add("unknown rng mode %q", pub.RNG.Mode)
	}
	for i, s := range g.Secret.Shuffles {
		if s.K != i {
			p.add("shuffle record %d has k %d", i, s.K)
		}
	}
	g.checkPlayers(r, &p)
	if pub.Phase == PhaseLobby {
		if len(pub.Decks) > 0 || len(g.Secret.Decks) > 0 || len(pub.Order) > 0 {
			p.add("a game in its lobby has decks or a turn order")
		}
		return p.err()
	}
	g.checkCards(r, &p)
	g.checkTurn(r, &p)
	g.checkFights(r, &p)
	return p.err()
}

// checkTrustless: a trustless game's protocol state holds together: its
// seats are the players', the next index is within the chain, a pending
// action's reveals and the secret links agree, and no link is held when
// nothing is pending.
func (g *Game) checkTrustless(p *problems) {
	pub, t := &g.Public, g.Public.Trustless
	if t == nil {
		p.add("trustless mode: no protocol state")
		return
	}
	if len(t.Seats) != len(pub.Players) {
		p.add("trustless mode: %d seats for %d players", len(t.Seats), len(pub.Players))
	} else {
		for i := range t.Seats {
			if t.Seats[i].UID != pub.Players[i].UID || t.Seats[i].Seat != pub.Players[i].Seat {
				p.add("trustless mode: seat %d is %s, the player there %s", i, t.Seats[i].UID, pub.Players[i].UID)
			}
		}
	}
	if t.NextIndex < 1 || t.NextIndex > t.ChainLength+1 {
		p.add("trustless mode: next index %d outside 1..%d", t.NextIndex, t.ChainLength+1)
	}
	if g.Secret.Seed != "" || g.Secret.ServerSeed != "" || g.Secret.GameSeed != "" || g.Secret.RNGState != "" {
		p.add("trustless mode: a seed or a saved stream in Secret")
	}
	if t.Pending == nil {
		if len(g.Secret.Links) > 0 {
			p.add("trustless mode: %d links held with no action pending", len(g.Secret.Links))
		}
		return
	}
	if t.Pending.Index != t.NextIndex {
		p.add("trustless mode: the pending action has index %d, the next is %d", t.Pending.Index, t.NextIndex)
	}
	if len(t.Pending.Reveals) != len(g.Secret.Links) || len(t.Pending.Reveals) >= len(t.Seats) {
		p.add("trustless mode: %d reveals, %d links held, %d seats", len(t.Pending.Reveals), len(g.Secret.Links), len(t.Seats))
		return
	}
	for k, m := range t.Pending.Reveals {
		if g.Secret.Links[k].Seat != m.Seat {
			p.add("trustless mode: reveal %d is seat %d's, the link held seat %d's", k, m.Seat, g.Secret.Links[k].Seat)
		}
	}
}

func (p *problems) err() error {
	if len(*p) == 0 {
		return nil
	}
	return &StateError{Problems: *p}
}

func (g *Game) checkPlayers(r *Ruleset, p *problems) {
	pub := &g.Public
	if len(pub.Players) > r.MaxPlayers {
		p.add("%d players, the ruleset allows %d", len(pub.Players), r.MaxPlayers)
	}
	uids, seats := map[string]bool{}, map[int]bool{}
	for i := range pub.Players {
		pl := &pub.Players[i]
		switch {
		case pl.UID == "" || uids[pl.UID]:
			p.add("player %d: empty or repeated uid %q", i, pl.UID)
		case pl.Seat < 0 || pl.Seat >= r.MaxPlayers || seats[pl.Seat]:
			p.add("player %s: seat %d out of range or taken twice", pl.UID, pl.Seat)
		case !pl.Class.Valid():
			p.add("player %s: unknown class %q", pl.UID, pl.Class)
		case pl.HP < 0 || pl.HP > r.MaxHP:
			p.add("player %s: HP %d outside 0..%d", pl.UID, pl.HP, r.MaxHP)
		case pl.Pos < 0 || pl.Pos > r.FinalTile():
			p.add("player %s: position %d off the board", pl.UID, pl.Pos)
		}
		uids[pl.UID], seats[pl.Seat] = true, true
		for _, id := range pl.Items {
			if k := r.Card(id); k == nil || k.Kind == CardChance || k.Kind == CardEnemy {
				p.add("player %s holds %q, which is not a treasure card", pl.UID, id)
			}
		}
	}
}

// checkCards: the decks are in order and every card is in one place.
func (g *Game) checkCards(r *Ruleset, p *problems) {
	pub, sec := &g.Public, &g.Secret
	trustless := pub.RNG.Mode == rng.ModeTrustless
	switch {
	case trustless && len(sec.Decks) > 0:
		p.add("a trustless game keeps no deck order, but Secret holds %d decks", len(sec.Decks))
		return
	case trustless && len(pub.Decks) != NumDecks:
		p.add("%d public decks, want %d", len(pub.Decks), NumDecks)
		return
	case !trustless && (len(pub.Decks) != NumDecks || len(sec.Decks) != NumDecks):
		p.add("%d public and %d secret decks, want %d", len(pub.Decks), len(sec.Decks), NumDecks)
		return
	}
	pile := func(d int) []string {
		if trustless {
			return pub.Decks[d].Pile
		}
		return sec.Decks[d].Cards
	}
	seen := make(map[string]int, len(r.Cards()))
	inDeck := func(d int, where, id string) {
		seen[id]++
		if k := r.Card(id); k == nil || k.Deck != d {
			p.add("%s of %s holds %q, which is not one of its cards", where, DeckIDs[d], id)
		}
	}
	for d := range NumDecks {
		switch {
		case trustless && pub.Decks[d].ID != DeckIDs[d]:
			p.add("deck %d is %q, want %q", d, pub.Decks[d].ID, DeckIDs[d])
		case !trustless && (pub.Decks[d].ID != DeckIDs[d] || sec.Decks[d].ID != DeckIDs[d]):
			p.add("deck %d is %q/%q, want %q", d, pub.Decks[d].ID, sec.Decks[d].ID, DeckIDs[d])
		}
		if !trustless && len(pub.Decks[d].Pile) > 0 {
			p.add("deck %s: a public pile outside a trustless game", DeckIDs[d])
		}
		if pub.Decks[d].Size != len(pile(d)) {
			p.add("deck %s: size %d but %d cards", DeckIDs[d], pub.Decks[d].Size, len(pile(d)))
		}
		for _, id := range pile(d) {
			inDeck(d, "the draw pile", id)
		}
		for _, id := range pub.Decks[d].Discard {
			inDeck(d, "the discard pile", id)
		}
	}
	for i := range pub.Players {
		for _, id := range pub.Players[i].Items {
			seen[id]++
		}
	}
	if cb := pub.Combat; cb != nil {
		for _, e := range cb.Enemies {
			seen[e.CardID]++
		}
	}
	for _, k := range r.Cards() {
		if n := seen[k.ID]; n != 1 {
			p.add("card %s is in %d places, want exactly 1", k.ID, n)
		}
	}
	if len(seen) > len(r.Cards()) {
		p.add("%d card ids in play, the ruleset has %d", len(seen), len(r.Cards()))
	}
}

// checkTurn: the turn order and the players it names.
func (g *Game) checkTurn(r *Ruleset, p *problems) {
	pub := &g.Public
	seated := func(uid string) bool { pl, _ := pub.Player(uid); return pl != nil }
	inOrder := map[string]bool{}
	for _, uid := range pub.Order {
		if !seated(uid) || inOrder[uid] {
			p.add("turn order names %q twice or not seated", uid)
		}
		inOrder[uid] = true
	}
	if len(pub.Order) != len(pub.Players) || len(pub.Players) == 0 {
		p.add("turn order of %d for %d players", len(pub.Order), len(pub.Players))
		return
	}
	// After the last turn of the game the index stays one past the order,
	// with no current player (the end-game bracket, the finished game).
	switch {
	case pub.TurnIndex < 0 || pub.TurnIndex > len(pub.Order):
		p.add("turn index %d outside the order of %d", pub.TurnIndex, len(pub.Order))
	case pub.TurnIndex == len(pub.Order):
		if pub.Current != "" {
			p.add("turn index past the order but %q is current", pub.Current)
		}
	case pub.Current != "" && pub.Current != pub.Order[pub.TurnIndex]:
		p.add("current player %q is not the turn order's %q", pub.Current, pub.Order[pub.TurnIndex])
	}
	for _, uid := range []string{pub.Current, pub.Awaiting, pub.Winner} {
		if uid != "" && !seated(uid) {
			p.add("%q is named but not seated", uid)
		}
	}
	if pub.Round < 1 || pub.Round > r.RoundLimit {
		p.add("round %d outside 1..%d", pub.Round, r.RoundLimit)
	}
	if pub.Phase == PhasePlaying {
		switch pub.Step {
		case StepStart, StepManage, StepPreDuel, StepMoveOrSleep, StepResolveTile,
			StepCombat, StepDuel, StepPostCombat, StepCapacity, StepBracket:
		default:
			p.add("unknown step %q", pub.Step)
		}
		if pub.Awaiting == "" {
			p.add("a game in play awaits no one")
		}
	}
}

// checkFights: combat, duel and bracket in progress.
func (g *Game) checkFights(r *Ruleset, p *problems) {
	pub := &g.Public
	seated := func(uid string) bool { pl, _ := pub.Player(uid); return pl != nil }
	if (pub.Combat != nil) != (pub.Phase == PhasePlaying && pub.Step == StepCombat) {
		p.add("combat in progress %v in step %q", pub.Combat != nil, pub.Step)
	}
	if cb := pub.Combat; cb != nil {
		if !seated(cb.UID) || cb.Tier < 1 || cb.Tier > 3 || len(cb.Enemies) < 1 || len(cb.Enemies) > MaxEnemies || cb.Round < 0 {
			p.add("combat %s: player %q, tier %d, %d enemies, round %d", cb.ID, cb.UID, cb.Tier, len(cb.Enemies), cb.Round)
		}
		for _, e := range cb.Enemies {
			if k := r.Card(e.CardID); k == nil || k.Kind != CardEnemy || e.HP < 0 {
				p.add("combat %s: enemy %q (HP %d) is not a live enemy card", cb.ID, e.CardID, e.HP)
			}
		}
	}
	inDuel := pub.Phase == PhasePlaying && (pub.Step == StepDuel || pub.Step == StepBracket)
	if (pub.Duel != nil) != inDuel {
		p.add("duel in progress %v in step %q", pub.Duel != nil, pub.Step)
	}
	if d := pub.Duel; d != nil {
		if !seated(d.Challenger) || !seated(d.Target) || d.Challenger == d.Target || d.Round < 0 || d.Round > r.DuelRounds {
			p.add("duel %s: %q against %q, round %d", d.ID, d.Challenger, d.Target, d.Round)
		}
	}
	if (pub.Bracket != nil) != (pub.Phase == PhasePlaying && pub.Step == StepBracket) && pub.Phase != PhaseFinished {
		p.add("bracket in progress %v in step %q", pub.Bracket != nil, pub.Step)
	}
	if b := pub.Bracket; b != nil {
		ok := len(b.Finalists) >= 2 && b.Next >= 1 && b.Next <= len(b.Finalists)
		champ := false
		for _, uid := range b.Finalists {
			ok = ok && seated(uid)
			champ = champ || uid == b.Champion
		}
		if !ok || !champ {
			p.add("bracket: finalists %v, champion %q, next %d", b.Finalists, b.Champion, b.Next)
		}
	}
}
