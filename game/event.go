package game

import "strconv"

// MaxVals is the most values an event carries.
const MaxVals = 4

// Event is one entry of a game's log: its type, the seat it is addressed
// to (All for the public log) and its values in the order of the type's
// EventSpec.Fields (the rest zero). The machinery numbers the log.
type Event struct {
	To   int
	Type string
	Vals [MaxVals]int64
}

// AppendEventJSON appends e as {"seq":N,"type":"T"} with ,"to":S for an
// addressed event and ,"FIELD":V for each field of its type, in order.
func AppendEventJSON(b []byte, types []EventSpec, seq int, e Event) []byte {
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	b = append(b, `,"type":`...)
	b = strconv.AppendQuote(b, e.Type)
	if e.To != All {
		b = append(b, `,"to":`...)
		b = strconv.AppendInt(b, int64(e.To), 10)
	}
	for _, t := range types {
		if t.Type != e.Type {
			continue
		}
		for i, f := range t.Fields {
			b = append(b, ',')
			b = strconv.AppendQuote(b, f)
			b = append(b, ':')
			b = strconv.AppendInt(b, e.Vals[i], 10)
		}
		break
	}
	return append(b, '}')
}

// Visible reports whether seat may read e: a public event, or one
// addressed to seat.
func (e *Event) Visible(seat int) bool { return e.To == All || e.To == seat }
