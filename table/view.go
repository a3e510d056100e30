package table

import (
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// View is what one reader may see of a table: the public part, and for a
// seat its own part of the game (its view, its addressed events, its
// legal moves). It never holds another seat's private part nor the
// secret part (the game's secret, the stream, the seed). Every slice is
// the View's own.
type View struct {
	Game    string
	Mode    rng.Mode
	Owner   string
	Phase   Phase
	Version uint64
	// Seats are the table's seats, free ones with UID "".
	Seats []SeatInfo
	// Rules is the ruleset's canonical JSON, RulesHash its hash.
	Rules     []byte
	RulesHash string
	// Seat is the reader's seat, or NoSeat.
	Seat int
	// ToMove is the seat the game awaits, or game.Nobody (in the lobby
	// and once finished).
	ToMove int
	// State is the game's AppendView for the reader's seat, or its
	// AppendPublic for a reader without a seat; nil before the start.
	State []byte
	// Private is the game's private part of the reader's seat
	// (AppendPrivate: its own part alone, as SeatPart has it); nil for a
	// reader without a seat and before the start.
	Private []byte
	// Legal are the reader's legal moves now (the game's Legal, from the
	// seat's own view; none unless it is the seat the game awaits).
	Legal []game.Move
	// Log is the events the reader may read, in order.
	Log []Event
	// Outcome is set once the table is finished.
	Outcome *Outcome
	// Fairness is a fair table's protocol (nil in other modes): the
	// commitment, and once finished what opens it.
	Fairness *Fairness
	// Trustless is a trustless table's protocol (nil in other modes):
	// the seats' commitments, every closed round, the pending one.
	Trustless *TrustlessView
	// Audited is true for a table that keeps an audit ring (audit.go):
	// the flag only, never an entry (a rematch carries it on).
	Audited bool
}

// View returns what uid may see: a seated uid its seat's view, anyone
// else (a spectator, "") the public part (as Public).
func (t *Table) View(uid string) *View { return t.view(t.seatOf(uid)) }

// Public returns the public part: what a reader without a seat sees.
func (t *Table) Public() *View { return t.view(NoSeat) }

func (t *Table) view(seat int) *View {
	v := &View{Game: t.def.Name(), Mode: t.mode, Owner: t.owner, Phase: t.phase, Version: t.version,
		Rules: slices.Clone(t.rules.CanonicalJSON()), RulesHash: t.rules.Hash(), Seat: seat, ToMove: game.Nobody,
		Log: visible(t.log, seat), Audited: t.aud != nil}
	v.Seats = make([]SeatInfo, len(t.seats))
	for i, s := range t.seats {
		v.Seats[i] = SeatInfo{UID: s.UID, Options: slices.Clone(s.Options)}
	}
	if t.m != nil {
		st := t.m.State()
		if t.phase == PhasePlaying {
			v.ToMove = st.ToMove()
		}
		if seat == NoSeat {
			v.State = st.AppendPublic(nil)
		} else {
			v.State = st.AppendView(nil, seat)
			v.Private = st.AppendPrivate(nil, seat)
			if t.phase == PhasePlaying && (t.tl == nil || t.tl.Pending == nil) {
				v.Legal = st.Legal(seat, nil)
			}
		}
	}
	v.Fairness = t.fairness()
	v.Trustless = t.trustView()
	if t.out != nil {
		o := *t.out
		o.Winners, o.Payoffs = slices.Clone(o.Winners), slices.Clone(o.Payoffs)
		v.Outcome = &o
	}
	return v
}

// SeatPart is what one seat alone may read of a table beyond its public
// part: its uid, the game's private part of it (AppendPrivate; nil before
// the start) and the events addressed to it, in order. A store keeps it
// where that seat alone reads it (tablestore/fstables: games/{id}/seats/
// {seat}).
type SeatPart struct {
	Seat    int
	UID     string
	Private []byte
	Events  []Event
}

// SeatPart returns seat's part (0 <= seat < the seat count; out of range:
// the zero SeatPart with Seat NoSeat). Every slice is the SeatPart's own.
func (t *Table) SeatPart(seat int) SeatPart {
	if seat < 0 || seat >= len(t.seats) {
		return SeatPart{Seat: NoSeat}
	}
	p := SeatPart{Seat: seat, UID: t.seats[seat].UID}
	if t.m != nil {
		p.Private = t.m.State().AppendPrivate(nil, seat)
	}
	for _, e := range slices.Concat(t.sealed.Addressed, t.log) {
		if e.To == seat {
			e.Options = slices.Clone(e.Options)
			p.Events = append(p.Events, e)
		}
	}
	return p
}

// Seats returns the table's seat count.
func (t *Table) Seats() int { return len(t.seats) }

// TypeAddressed is the type of the public trace an addressed event
// leaves for every reader it is not addressed to: a table event
// (Game false, To game.All) at the event's seq, with Vals[0] the seat it
// went to, and nothing of its type or values.
const TypeAddressed = "Addressed"

// visible returns the events of ev as seat reads them, copied: the public
// ones and those addressed to it as they are, every other addressed event
// as its trace (TypeAddressed: the seq and the seat it went to, nothing
// else). NoSeat reads the public events and every addressed one's trace.
// So every reader reads every seq.
func visible(ev []Event, seat int) []Event {
	out := make([]Event, 0, len(ev))
	for _, e := range ev {
		switch {
		case e.To == game.All || (seat != NoSeat && e.To == seat):
			e.Options = slices.Clone(e.Options)
		default:
			e = Trace(e)
		}
		out = append(out, e)
	}
	return out
}

// Trace returns the public trace of the addressed event e: its seq and
// the seat it went to (Vals[0]), type TypeAddressed, nothing else.
func Trace(e Event) Event {
	return Event{Seq: e.Seq, To: game.All, Type: TypeAddressed, Vals: [game.MaxVals]int64{int64(e.To)}}
}
