package engine

import "encoding/hex"

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
func appendAction(buf []Action, k ActionKind, uid, card, target string) []Action {
	buf, a := nextSlot(buf)
	a.set(k, uid, card, target)
	a.Seat, a.Index = 0, 0
	setString(&a.Digest, "")
	setString(&a.Transcript, "")
	return buf
}

// nextSlot extends buf by one slot and returns it, for [Action.set] to
// write: a slot the buffer already has is kept rather than cleared, as an
// Action is 360 bytes holding 18 strings, and clearing and copying it
// whole was most of the enumeration's time. It is cleared only if a
// caller set one of the fields that set does not write.
func nextSlot(buf []Action) ([]Action, *Action) {
	n := len(buf)
	if n == cap(buf) {
		buf = append(buf, Action{})
	} else {
		buf = buf[:n+1]
	}
	a := &buf[n]
	if a.ID != "" || a.Version != 0 || a.At != 0 || a.GameID != "" || a.Mode != "" || a.Seed != "" ||
		a.Audit || a.ChainLength != 0 || a.DeadlineMs != 0 || a.Openings || a.ServerSeed != "" ||
		a.Entropy != "" || a.EntropyCommitment != "" || a.ChainHead != "" || a.PublicKey != "" ||
		a.Signature != "" || a.Link != "" {
		*a = Action{}
	}
	return buf, a
}

// set writes into a slot of nextSlot the fields every listed action but
// a join has: kind k by uid with the card or the target given, no class
// and KeepSmokeBomb false. The caller writes Seat, Index, Digest and
// Transcript (a reveal's, or zero).
func (a *Action) set(k ActionKind, uid, card, target string) {
	// A field is written only if it differs: the slot most often holds
	// the same strings already, and each write of a string into the heap
	// costs a write barrier while the garbage collector runs.
	setString(&a.Kind, k)
	setString(&a.Actor, uid)
	setString(&a.Class, "")
	setString(&a.Target, target)
	setString(&a.CardID, card)
	a.KeepSmokeBomb = false
}

// setString sets *p to v unless it is equal already.
func setString[S ~string](p *S, v S) {
	if *p != v {
		*p = v
	}
}

// setHex sets *p to h's 64 lower-case hex digits unless it holds them
// already: the comparison makes no string, the write makes one.
func setHex(p *string, h *Hash32) {
	var b [64]byte
	hex.Encode(b[:], h[:])
	if *p != string(b[:]) {
		*p = string(b[:])
	}
}
