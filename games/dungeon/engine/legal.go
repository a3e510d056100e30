package engine

import "github.com/fairboard/fairboard/rng"

// LegalActions appends to buf[:0] every action of a kind in kinds that the
// player uid may send now in the game whose public state is p, under its
// ruleset r (the ruleset the game was created with), and returns the
// extended buffer. It reads p and r only and allocates nothing when buf
// has room (a bot passes the same buffer at every decision; 16 actions is
// room for any step of the default ruleset but the lobby), with one
// exception: a reveal's Digest and Transcript, two strings of 64 hex
// digits, which it makes only when the slot does not hold them already (a
// caller that reuses its buffer makes them about once a round).
//
// Every action listed is accepted by [Engine.Dispatch] on the game (with
// the stream of session.StreamFor) once its sender has filled in the
// fields left to it, and every action Dispatch accepts from uid is
// listed, in a canonical form: Kind and Actor (= uid) are set, with the
// public parameters the kind takes, and every other field is zero. The
// fields left to the sender, zero here:
//
//   - ID, always (any value but p.LastActionID), and At: any
//     value, but for the deadlines below, which At alone decides (the
//     engine reads no clock; a server stamps its own time).
//   - Version: any value Dispatch accepts (0 or p.Version), but in a
//     trustless game every kind except reveal and abort must carry
//     p.Version, which its signature covers.
//   - Signature (trustless): a seated actor signs each of its actions but
//     reveal with its key over [ActionMessage] (a join: with the key the
//     join brings); an actor without a seat (an owner who does not play,
//     [ServerActor]) signs nothing.
//   - a join's secrets, by mode: a fair game's Entropy (0 to 64 bytes of
//     hex); with openings, EntropyCommitment instead (64 hex digits:
//     rng/fair.ContributionCommitment of the game, the Seat and the 32
//     bytes the seat will open); a trustless game's ChainHead and
//     PublicKey (x_0 of the seat's chain and its Ed25519 key, 64 hex
//     digits each).
//   - a reveal's Link (the seat's x_Index, 64 hex digits) and Signature
//     (over rng/trustless.RevealMessage of the game, Index, Digest and
//     Transcript), and its At, at most p.Trustless.Pending.Deadline.
//   - an open's Entropy: the 32 bytes (64 hex digits) the seat's join
//     committed to.
//   - an abort's At, after p.Trustless.Pending.Deadline; a removeSeat's
//     At, after p.Fairness.OpenDeadline. Before those times Dispatch
//     refuses them (deadline_not_passed), as it refuses a reveal after
//     the deadline (deadline_passed): the list holds the round's reveals
//     and its abort together, and the sender's clock says which applies.
//
// The property test (engine/legal_test.go) fills these as an honest
// sender does: Version p.Version; At the test's clock, or one past the
// deadline for an abort and a removeSeat; signatures by each seat's real
// key, a trustless join with a real chain's head and key, a reveal with
// the seat's real link, an open with the contribution the join committed
// to (a fair join's Entropy left empty). What is listed, by phase:
//
//   - lobby: a join (Seat, Class, KeepSmokeBomb) for each free seat
//     0..MaxPlayers-1, each class of [Classes] and KeepSmokeBomb false then
//     true, if uid is not "" and not seated and a seat is free (with
//     openings, only before the first opening); start, for the owner once
//     MinPlayers are seated (with openings, once every seat has opened);
//     abandon, for the owner and [ServerActor]; with openings, open for a
//     seated uid that has not opened, and removeSeat (Target) for the
//     owner, each seat that has not opened in seat order, once the first
//     opening has set the deadline.
//   - playing: the awaited player's decisions (none for anyone else):
//     manage: useItem (CardID) for each held potion, dropItem (CardID) for
//     each held item, endManage; preDuel: offerDuel (Target) for each other
//     player on its tile, skipDuel; moveOrSleep: move, sleep; combat:
//     resolveCombatRound; duel (and the end-game bracket): reroll and
//     declineReroll while the awaited duelist decides on the round just
//     rolled, else resolveDuelRound (the challenger, never in the bracket);
//     capacity: discard (CardID) for each held item. And abandon, for the
//     owner and [ServerActor], whether or not the game awaits them.
//   - a trustless game with an action pending (in the lobby, a start; in
//     play, any action that draws), whatever the phase: nothing of the
//     above but the owner's abandon (which is then its abort); a reveal
//     (Seat, Index, Digest, Transcript: the uid's seat, the pending
//     index, and p.Trustless.Pending's Digest and Transcript in hex, the
//     one pair Dispatch accepts, which a client checks against its own
//     replay of the log before it signs them) for a seated uid that has
//     not revealed the round; and abort for any uid, "" included (the
//     engine does not ask who sends it; the service sends it as
//     [ServerActor]).
//   - not created or finished (or a trustless game without its protocol
//     state): nothing.
//
// The order is fixed: by kind in the order of [ActionKinds] (so abandon
// comes after the turn's kinds, then reveal, abort, open, removeSeat), then
// items in inventory order, targets in seat order, joins by seat, then
// class, then KeepSmokeBomb. Create is never listed.
func LegalActions(p *Public, r *Ruleset, uid string, kinds KindSet, buf []Action) []Action {
	buf = buf[:0]
	if p.Phase != PhaseLobby && p.Phase != PhasePlaying {
		return buf
	}
	var t *Trustless
	var pd *Pending
	if p.RNG.Mode == rng.ModeTrustless {
		if t = p.Trustless; t == nil {
			return buf // Dispatch refuses every action of such a game
		}
		pd = t.Pending
	}
	switch {
	case pd != nil:
		// only reveals, the abort and the owner's abandon (below)
	case p.Phase == PhaseLobby:
		buf = legalLobby(p, r, uid, kinds, buf)
	case uid != "" && uid == p.Awaiting && kinds&TurnKinds != 0:
		if me, _ := p.Player(uid); me != nil {
			buf = legalTurn(p, r, me, kinds, buf)
		}
	}
	if kinds&kAbandon != 0 && uid != "" && (uid == p.Owner || uid == ServerActor && pd == nil) {
		buf = appendAction(buf, ActAbandon, uid, "", "")
	}
	if pd != nil && kinds&(kReveal|kAbort) != 0 {
		buf = legalRound(t, pd, uid, kinds, buf)
	}
	if f := p.Fairness; f != nil && f.Openings && p.Phase == PhaseLobby && kinds&(kOpen|kRemoveSeat) != 0 {
		buf = legalOpenings(p, f, uid, kinds, buf)
	}
	return buf
}

// legalRound appends a trustless round's reveal and abort.
func legalRound(t *Trustless, pd *Pending, uid string, kinds KindSet, buf []Action) []Action {
	if ts, _ := t.Seat(uid); kinds&kReveal != 0 && ts != nil && !revealed(pd, ts.Seat) {
		var a *Action
		buf, a = nextSlot(buf)
		a.set(ActReveal, uid, "", "")
		a.Seat, a.Index = ts.Seat, pd.Index
		setHex(&a.Digest, &pd.Digest)
		setHex(&a.Transcript, &pd.Transcript)
	}
	return appendKind(buf, ActAbort, kAbort, uid, kinds)
}

// revealed reports whether seat has revealed the pending round.
func revealed(pd *Pending, seat int) bool {
	for i := range pd.Reveals {
		if pd.Reveals[i].Seat == seat {
			return true
		}
	}
	return false
}

// legalOpenings appends the lobby's open and removeSeat of a fair game
// with openings f.
func legalOpenings(p *Public, f *Fairness, uid string, kinds KindSet, buf []Action) []Action {
	if _, i := p.Player(uid); kinds&kOpen != 0 && i >= 0 && i < len(f.Seats) && !f.Seats[i].Opened {
		buf = appendAction(buf, ActOpen, uid, "", "")
	}
	if kinds&kRemoveSeat != 0 && uid != "" && uid == p.Owner && f.OpenDeadline != 0 {
		for i := range p.Players {
			if i < len(f.Seats) && !f.Seats[i].Opened {
				buf = appendAction(buf, ActRemoveSeat, uid, "", p.Players[i].UID)
			}
		}
	}
	return buf
}

// legalLobby appends the lobby's joins and start.
func legalLobby(p *Public, r *Ruleset, uid string, kinds KindSet, buf []Action) []Action {
	f := p.Fairness
	openings := f != nil && f.Openings
	if kinds&kJoin != 0 && uid != "" && len(p.Players) < r.MaxPlayers && (!openings || f.OpenDeadline == 0) {
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
	if kinds&kStart != 0 && uid != "" && uid == p.Owner && len(p.Players) >= r.MinPlayers && (!openings || allOpened(f)) {
		buf = appendAction(buf, ActStart, uid, "", "")
	}
	return buf
}

// allOpened reports whether every seat of a game with openings f has
// opened its contribution.
func allOpened(f *Fairness) bool {
	for i := range f.Seats {
		if !f.Seats[i].Opened {
			return false
		}
	}
	return true
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
