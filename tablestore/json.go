package tablestore

import (
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/table"
)

// TableEventFields names the values of the table's own events
// (table.Event with Game false), in the order of their Vals.
var TableEventFields = map[string][]string{
	"TableCreated": {"seats"},
	"Joined":       {"seat"},
	"Left":         {"seat"},
	"SeatRemoved":  {"seat"},
	"Started":      nil,
	"Abandoned":    nil,
	// A trustless table's: a move pending its round (index, the actor's
	// seat), a seat's reveal accepted (index, seat), the round closed
	// (index), the game aborted (index, 0 if none was pending; uid: by
	// whom; options: the reason, then the missing seats' uids).
	"Pending":     {"index", "seat"},
	"Revealed":    {"index", "seat"},
	"RoundClosed": {"index"},
	"Aborted":     {"index"},
	// A named deck's commitment, published when it is shuffled (k, the
	// number of cards; options: the deck id, the tag, the commitment:
	// table.TypeDeckCommitted).
	table.TypeDeckCommitted: {"k", "cards"},
	// The public trace of an event addressed to one seat
	// (table.TypeAddressed): the seat it went to, nothing of it.
	table.TypeAddressed: {"seat"},
}

// AppendEventJSON appends e as the functions and the Firestore log show
// it: a game's event as game.AppendEventJSON writes it ({"seq":N,"type":
// "T"}, ,"to":S if addressed, then ,"FIELD":V per field of its type in
// def.EventTypes()) with ,"game":true; a table's event as {"seq":N,
// "type":"T"} with its values named by TableEventFields, then ,"uid":U
// and ,"options":[...] when it has them.
func AppendEventJSON(b []byte, def game.Definition, e table.Event) []byte {
	if e.Game {
		b = game.AppendEventJSON(b, def.EventTypes(), e.Seq, game.Event{To: e.To, Type: e.Type, Vals: e.Vals})
		b = b[:len(b)-1]
		return append(b, `,"game":true}`...)
	}
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"type":`...)
	b = strconv.AppendQuote(b, e.Type)
	if e.To != game.All {
		b = append(b, `,"to":`...)
		b = strconv.AppendInt(b, int64(e.To), 10)
	}
	for i, f := range TableEventFields[e.Type] {
		b = append(b, ',')
		b = strconv.AppendQuote(b, f)
		b = append(b, ':')
		b = strconv.AppendInt(b, e.Vals[i], 10)
	}
	if e.UID != "" {
		b = append(b, `,"uid":`...)
		b = strconv.AppendQuote(b, e.UID)
	}
	if e.Options != nil {
		b = append(b, `,"options":[`...)
		for i, o := range e.Options {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, o)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// AppendEventsJSON appends events as a JSON array of AppendEventJSON.
func AppendEventsJSON(b []byte, def game.Definition, events []table.Event) []byte {
	b = append(b, '[')
	for i, e := range events {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendEventJSON(b, def, e)
	}
	return append(b, ']')
}
