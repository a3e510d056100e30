package engine

// KindSet is a set of action kinds: bit i stands for ActionKinds[i].
type KindSet uint32

// KindsOf returns the set of the kinds given; a kind outside [ActionKinds]
// adds nothing.
func KindsOf(kinds ...ActionKind) KindSet {
	var s KindSet
	for _, k := range kinds {
		if i := kindIndex(k); i >= 0 {
			s |= 1 << i
		}
	}
	return s
}

// Has reports whether k is in the set.
func (s KindSet) Has(k ActionKind) bool {
	i := kindIndex(k)
	return i >= 0 && s&(1<<i) != 0
}

// The bit of each kind, in the order of ActionKinds (kindIndex).
const (
	kCreate KindSet = 1 << iota
	kJoin
	kStart
	kUseItem
	kDropItem
	kEndManage
	kOfferDuel
	kSkipDuel
	kMove
	kSleep
	kCombatRound
	kDuelRound
	kReroll
	kDeclineReroll
	kDiscard
	kAbandon
)

// The sets of kinds a caller of [LegalActions] usually asks for.
const (
	// TurnKinds are the decisions of a game in play: everything the
	// awaited player sends to move the game on (manage, preDuel,
	// moveOrSleep, combat, duel, re-roll and capacity actions). A bot
	// chooses among these.
	TurnKinds = kUseItem | kDropItem | kEndManage | kOfferDuel | kSkipDuel | kMove | kSleep |
		kCombatRound | kDuelRound | kReroll | kDeclineReroll | kDiscard
	// AllKinds is every kind but create (which needs no game): the
	// lobby's join and start, the turn kinds, and the owner's abandon.
	AllKinds = TurnKinds | kJoin | kStart | kAbandon
)

// LegalActions appends to buf[:0] every action of a kind in kinds that the
// player uid may send now in the game whose public state is p, under its
// ruleset r (the ruleset the game was created with), and returns the
// extended buffer. It reads p and r only and allocates nothing when buf
// has room (a bot passes the same buffer at every decision; 16 actions is
// room for any step of the default ruleset but the lobby).
//
// Every action listed is accepted by [Engine.Dispatch] on the game (with
// the game's stream), and every action Dispatch accepts from uid is listed,
// in a canonical form: Kind and Actor (= uid) are set, with the parameters
// the kind takes, and every other field is zero. The fields a sender fills
// in freely are left to it: ID, Version and At (any value Dispatch's own
// checks accept), and a fair game's join Entropy (0 to 64 bytes of hex;
// listed empty). Fields a kind does not read are zero here, though
// Dispatch ignores them. What is listed, by phase:
//
//   - lobby: a join (Seat, Class, KeepSmokeBomb) for each free seat
//     0..MaxPlayers-1, each class of [Classes] and KeepSmokeBomb false then
//     true, if uid is not "" and not seated and a seat is free; start, for
//     the owner once MinPlayers are seated; abandon, for the owner.
//   - playing: the awaited player's decisions (none for anyone else):
//     manage: useItem (CardID) for each held potion, dropItem (CardID) for
//     each held item, endManage; preDuel: offerDuel (Target) for each other
//     player on its tile, skipDuel; moveOrSleep: move, sleep; combat:
//     resolveCombatRound; duel (and the end-game bracket): reroll and
//     declineReroll while the awaited duelist decides on the round just
//     rolled, else resolveDuelRound (the challenger, never in the bracket);
//     capacity: discard (CardID) for each held item. And abandon, for the
//     owner, whether or not the game awaits it.
//   - not created or finished: nothing.
//
// The order is fixed: by kind in the order of [ActionKinds] (so abandon
// comes last), then items in inventory order, targets in seat order, joins
// by seat, then class, then KeepSmokeBomb. Create is never listed.
func LegalActions(p *Public, r *Ruleset, uid string, kinds KindSet, buf []Action) []Action {
	buf = buf[:0]
	switch p.Phase {
	case PhaseLobby:
		buf = legalLobby(p, r, uid, kinds, buf)
	case PhasePlaying:
		if uid != "" && uid == p.Awaiting && kinds&TurnKinds != 0 {
			if me, _ := p.Player(uid); me != nil {
				buf = legalTurn(p, r, me, kinds, buf)
			}
		}
	default:
		return buf
	}
	if kinds&kAbandon != 0 && uid != "" && uid == p.Owner {
		buf = append(buf, Action{Kind: ActAbandon, Actor: uid})
	}
	return buf
}

// legalLobby appends the lobby's joins and start.
func legalLobby(p *Public, r *Ruleset, uid string, kinds KindSet, buf []Action) []Action {
	if kinds&kJoin != 0 && uid != "" && len(p.Players) < r.MaxPlayers {
		if me, _ := p.Player(uid); me == nil {
			for seat := 0; seat < r.MaxPlayers; seat++ {
				if seatTaken(p, seat) {
					continue
				}
				for _, c := range Classes {
					buf = append(buf, Action{Kind: ActJoin, Actor: uid, Seat: seat, Class: c},
						Action{Kind: ActJoin, Actor: uid, Seat: seat, Class: c, KeepSmokeBomb: true})
				}
			}
		}
	}
	if kinds&kStart != 0 && uid != "" && uid == p.Owner && len(p.Players) >= r.MinPlayers {
		buf = append(buf, Action{Kind: ActStart, Actor: uid})
	}
	return buf
}

func seatTaken(p *Public, seat int) bool {
	for i := range p.Players {
		if p.Players[i].Seat == seat {
			return true
		}
	}
	return false
}

// legalTurn appends the decisions of the awaited player me.
func legalTurn(p *Public, r *Ruleset, me *Player, kinds KindSet, buf []Action) []Action {
	uid := me.UID
	switch p.Step {
	case StepManage:
		if kinds&kUseItem != 0 {
			for _, id := range me.Items {
				if k := r.Card(id); k != nil && k.Kind == CardPotion {
					buf = appendAction(buf, ActUseItem, uid, id, "")
				}
			}
		}
		buf = appendItems(buf, ActDropItem, kDropItem, me, kinds)
		buf = appendKind(buf, ActEndManage, kEndManage, uid, kinds)
	case StepPreDuel:
		if kinds&kOfferDuel != 0 {
			for i := range p.Players {
				if o := &p.Players[i]; o.UID != uid && o.Pos == me.Pos {
					buf = appendAction(buf, ActOfferDuel, uid, "", o.UID)
				}
			}
		}
		buf = appendKind(buf, ActSkipDuel, kSkipDuel, uid, kinds)
	case StepMoveOrSleep:
		buf = appendKind(buf, ActMove, kMove, uid, kinds)
		buf = appendKind(buf, ActSleep, kSleep, uid, kinds)
	case StepCombat:
		buf = appendKind(buf, ActCombatRound, kCombatRound, uid, kinds)
	case StepDuel, StepBracket:
		switch d := p.Duel; {
		case d == nil:
		case d.Rolled:
			buf = appendKind(buf, ActReroll, kReroll, uid, kinds)
			buf = appendKind(buf, ActDeclineReroll, kDeclineReroll, uid, kinds)
		case p.Step == StepDuel:
			buf = appendKind(buf, ActDuelRound, kDuelRound, uid, kinds)
		}
	case StepCapacity:
		buf = appendItems(buf, ActDiscard, kDiscard, me, kinds)
	}
	return buf
}

// appendItems appends an action of kind k for each of me's items.
func appendItems(buf []Action, k ActionKind, bit KindSet, me *Player, kinds KindSet) []Action {
	if kinds&bit != 0 {
		for _, id := range me.Items {
			buf = appendAction(buf, k, me.UID, id, "")
		}
	}
	return buf
}

// appendKind appends the action of kind k, which takes no parameter.
func appendKind(buf []Action, k ActionKind, bit KindSet, uid string, kinds KindSet) []Action {
	if kinds&bit != 0 {
		buf = appendAction(buf, k, uid, "", "")
	}
	return buf
}

// appendAction appends the action of kind k by uid with the card or the
// target given (the fields of a turn's actions), every other field zero.
// It writes the fields of a slot the buffer already has rather than a
// whole new Action: an Action is 216 bytes, a dozen of them pointers, and
// clearing and copying it whole was most of the enumeration's time; a slot
// is cleared only if a caller set one of the other fields.
func appendAction(buf []Action, k ActionKind, uid, card, target string) []Action {
	n := len(buf)
	if n == cap(buf) {
		buf = append(buf, Action{})
	} else {
		buf = buf[:n+1]
	}
	a := &buf[n]
	if a.ID != "" || a.Version != 0 || a.At != 0 || a.GameID != "" || a.Mode != "" || a.Seed != "" ||
		a.Audit || a.ServerSeed != "" || a.Entropy != "" {
		*a = Action{}
	}
	// A field is written only if it differs: the slot most often holds
	// the same strings already, and each write of a string into the heap
	// costs a write barrier while the garbage collector runs.
	setString(&a.Kind, k)
	setString(&a.Actor, uid)
	setString(&a.Class, "")
	setString(&a.Target, target)
	setString(&a.CardID, card)
	a.Seat, a.KeepSmokeBomb = 0, false
	return buf
}

// setString sets *p to v unless it is equal already.
func setString[S ~string](p *S, v S) {
	if *p != v {
		*p = v
	}
}
