package table

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/game"
)

// The lobby's actions: join (with its options), leave, removeSeat.

func (t *Table) join(a *Action) *Error {
	if a.Seat < 0 || a.Seat >= len(t.seats) {
		return reject(CodeUnknownPlayer, "no seat "+strconv.Itoa(a.Seat))
	}
	if t.seatOf(a.Actor) != NoSeat {
		return reject(CodeAlreadyJoined, "the actor holds a seat")
	}
	if t.seats[a.Seat].UID != "" {
		return reject(CodeSeatTaken, "seat "+strconv.Itoa(a.Seat)+" is taken")
	}
	opts, err := t.options(a.Options)
	if err != nil {
		return err
	}
	if err := t.takeCommitment(a.Seat, a); err != nil {
		return err
	}
	if err := t.takeEntropy(a.Seat, a.Entropy); err != nil {
		t.freeCommitment(a.Seat)
		return err
	}
	if err := t.takeChain(a, opts); err != nil {
		t.freeEntropy(a.Seat)
		t.freeCommitment(a.Seat)
		return err
	}
	t.seats[a.Seat] = SeatInfo{UID: a.Actor, Options: opts}
	t.emit(Event{To: game.All, Type: "Joined", Vals: [game.MaxVals]int64{int64(a.Seat)}, UID: a.Actor, Options: slices.Clone(opts)})
	return nil
}

// options checks a join's options against def.Seats().Options: each name
// an option of the game, each value one of its values, and either every
// option or none.
func (t *Table) options(given map[string]string) ([]string, *Error) {
	specs := t.def.Seats().Options
	if len(given) == 0 {
		return nil, nil
	}
	var names []string
	for _, o := range specs {
		names = append(names, o.Name)
	}
	keys := make([]string, 0, len(given))
	for name := range given {
		keys = append(keys, name)
	}
	slices.Sort(keys) // so that the first unknown one named is always the same
	for _, name := range keys {
		if !slices.Contains(names, name) {
			return nil, reject(CodeBadOption, fmt.Sprintf("%s has no seat option %q (options: %s)", t.def.Name(), name, strings.Join(names, ", ")))
		}
	}
	opts := make([]string, len(specs))
	for i, o := range specs {
		v, ok := given[o.Name]
		if !ok {
			return nil, reject(CodeBadOption, fmt.Sprintf("option %q missing: give every option or none", o.Name))
		}
		if !slices.Contains(o.Values, v) {
			return nil, reject(CodeBadOption, fmt.Sprintf("option %s: %q is not one of %s", o.Name, v, strings.Join(o.Values, ", ")))
		}
		opts[i] = v
	}
	return opts, nil
}

func (t *Table) leave(a *Action) *Error {
	s := t.seatOf(a.Actor)
	if s == NoSeat {
		return reject(CodeNotSeated, "the actor holds no seat")
	}
	if err := t.seatsFixed(); err != nil {
		return err
	}
	t.seats[s] = SeatInfo{}
	t.freeEntropy(s)
	t.freeCommitment(s)
	t.freeChain(s)
	t.emit(Event{To: game.All, Type: "Left", Vals: [game.MaxVals]int64{int64(s)}, UID: a.Actor})
	return nil
}

func (t *Table) removeSeat(a *Action) *Error {
	switch {
	case a.Actor != t.owner:
		return reject(CodeNotOwner, "only the owner removes a seat")
	case a.Seat < 0 || a.Seat >= len(t.seats):
		return reject(CodeUnknownPlayer, "no seat "+strconv.Itoa(a.Seat))
	case t.seats[a.Seat].UID == "":
		return reject(CodeSeatFree, "seat "+strconv.Itoa(a.Seat)+" is free")
	}
	if err := t.seatsFixed(); err != nil {
		return err
	}
	uid := t.seats[a.Seat].UID
	t.seats[a.Seat] = SeatInfo{}
	t.freeEntropy(a.Seat)
	t.freeCommitment(a.Seat)
	t.freeChain(a.Seat)
	t.emit(Event{To: game.All, Type: "SeatRemoved", Vals: [game.MaxVals]int64{int64(a.Seat)}, UID: uid})
	return nil
}
