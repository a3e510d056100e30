package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// MaxArgs is the most arguments a move kind takes.
const MaxArgs = 4

// Move is one move: the seat that makes it, its kind and its arguments in
// the order of the kind's ArgSpecs (the rest zero). Moves compare with ==.
type Move struct {
	Seat int
	Kind string
	Args [MaxArgs]int64
}

// Kind returns the spec of the kind named, or false.
func Kind(kinds []KindSpec, name string) (KindSpec, bool) {
	for _, k := range kinds {
		if k.Name == name {
			return k, true
		}
	}
	return KindSpec{}, false
}

// DecodeMove decodes a move of seat from JSON, {"kind":"NAME"} with one
// field per argument of the kind ({"kind":"bet","amount":3}), strictly:
// an unknown kind (named), an unknown, repeated or missing field, an
// argument that is not a whole number within its ArgSpec's range, or
// trailing data is an *Error with CodeInvalidAction.
func DecodeMove(kinds []KindSpec, seat int, data []byte) (Move, error) {
	bad := func(format string, a ...any) (Move, error) {
		return Move{}, Reject(CodeInvalidAction, fmt.Sprintf(format, a...))
	}
	var fields map[string]json.RawMessage
	var keys []string // in the order given, so that the first unknown one is named
	d := json.NewDecoder(bytes.NewReader(data))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return bad("a move is a JSON object")
	}
	fields = map[string]json.RawMessage{}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return bad("malformed move: %v", err)
		}
		key := tok.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return bad("malformed move: %v", err)
		}
		if _, dup := fields[key]; dup {
			return bad("field %q given twice", key)
		}
		fields[key] = v
		keys = append(keys, key)
	}
	if _, err := d.Token(); err != nil {
		return bad("malformed move: %v", err)
	}
	if _, err := d.Token(); err == nil {
		return bad("trailing data after the move")
	}
	var name string
	if err := json.Unmarshal(fields["kind"], &name); err != nil || fields["kind"] == nil {
		return bad("a move needs a string \"kind\"")
	}
	spec, ok := Kind(kinds, name)
	if !ok {
		return bad("unknown move kind %q", name)
	}
	m := Move{Seat: seat, Kind: spec.Name}
	for i, a := range spec.Args {
		raw, ok := fields[a.Name]
		if !ok {
			return bad("%s needs %q", name, a.Name)
		}
		v, err := strconv.ParseInt(string(raw), 10, 64)
		if err != nil || v < a.Min || v > a.Max {
			return bad("%s.%s must be a whole number in [%d, %d], not %s", name, a.Name, a.Min, a.Max, raw)
		}
		m.Args[i] = v
	}
	for _, k := range keys {
		if k == "kind" {
			continue
		}
		if !hasArg(spec, k) {
			return bad("unknown field %q on %s", k, name)
		}
	}
	return m, nil
}

func hasArg(k KindSpec, name string) bool {
	for _, a := range k.Args {
		if a.Name == name {
			return true
		}
	}
	return false
}

// AppendMoveJSON appends m as DecodeMove reads it: {"kind":"NAME"} and its
// arguments in schema order. A kind not in kinds is written without
// arguments.
func AppendMoveJSON(b []byte, kinds []KindSpec, m Move) []byte {
	b = append(b, `{"kind":`...)
	b = strconv.AppendQuote(b, m.Kind)
	b = appendArgs(b, kinds, m)
	return append(b, '}')
}

// AppendMoveCanonical appends the pinned canonical bytes of m that
// signatures cover: {"seat":S,"kind":"NAME"} then ,"ARG":V for each
// argument in schema order, then }, with no spaces, integers in decimal
// and names as written (ValidateDefinition keeps them to [A-Za-z0-9_]).
// For Pig's roll by seat 0: {"seat":0,"kind":"roll"}.
func AppendMoveCanonical(b []byte, kinds []KindSpec, m Move) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(m.Seat), 10)
	b = append(b, `,"kind":"`...)
	b = append(b, m.Kind...)
	b = append(b, '"')
	b = appendArgs(b, kinds, m)
	return append(b, '}')
}

// AppendSeatCanonical appends the pinned canonical bytes of seat index's
// options: {"seat":I} then ,"OPTION":"VALUE" for each of seats.Options in
// order. For a Pig seat 1: {"seat":1}.
func AppendSeatCanonical(b []byte, seats Seats, index int, s Seat) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	for i, o := range seats.Options {
		if i >= len(s.Options) {
			break
		}
		b = append(b, `,"`...)
		b = append(b, o.Name...)
		b = append(b, `":"`...)
		b = append(b, s.Options[i]...)
		b = append(b, '"')
	}
	return append(b, '}')
}

func appendArgs(b []byte, kinds []KindSpec, m Move) []byte {
	spec, _ := Kind(kinds, m.Kind)
	for i, a := range spec.Args {
		b = append(b, `,"`...)
		b = append(b, a.Name...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, m.Args[i], 10)
	}
	return b
}
