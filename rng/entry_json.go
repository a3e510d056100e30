package rng

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// ErrEntryJSON is wrapped by every error of [Entry.MarshalJSON] and
// [Entry.UnmarshalJSON]: an unknown kind or op, a missing, unknown or
// mistyped field, or a payload that no stream could have recorded.
var ErrEntryJSON = errors.New("rng: invalid audit entry")

// The JSON payloads, one per kind (and per op for "sample"). Pointers mark
// the fields that must be present when decoding.
type (
	diceJSON struct {
		Sides *int   `json:"sides"`
		Value *int64 `json:"value"`
	}
	weightedJSON struct {
		Weights []float64 `json:"weights"`
		R       *int64    `json:"r"`
		Index   *int      `json:"index"`
	}
	shuffleJSON struct {
		DeckID      string   `json:"deckId,omitempty"`
		Size        *int     `json:"size"`
		HeadPreview []string `json:"headPreview"`
	}
	opJSON struct {
		Op string `json:"op"`
	}
	sampleIntJSON struct { // ops "u32" and "int" (Min and Max only for "int")
		Op    string `json:"op"`
		Min   *int64 `json:"min,omitempty"`
		Max   *int64 `json:"max,omitempty"`
		Value *int64 `json:"value"`
	}
	sampleFloatJSON struct {
		Op    string   `json:"op"`
		Value *float64 `json:"value"`
	}
	sampleChooseJSON struct {
		Op    string `json:"op"`
		N     *int   `json:"n"`
		Index *int   `json:"index"`
	}
)

// MarshalJSON encodes e in the spec's audit shape
//
//	{"seq":1,"tag":"move.roll","ctx":{"turn":3},"kind":"dice","data":{"sides":4,"value":2}}
//
// with the per-kind data: dice {sides, value}; weighted {weights, r, index};
// shuffle {deckId, size, headPreview}; sample {op, ...} with value for "u32",
// min, max and value for "int", value for "float01", and n and index for
// "chooseOne". Index and value are always written, even when 0; ctx is
// always an object. Data fields that the kind does not use are not written.
//
// It returns an error wrapping [ErrEntryJSON] for any entry that
// [Entry.UnmarshalJSON] would reject, so whatever it writes reads back.
func (e Entry) MarshalJSON() ([]byte, error) {
	if err := e.validate(); err != nil {
		return nil, err
	}
	var data any
	d := e.Data
	switch e.Kind {
	case KindDice:
		data = diceJSON{Sides: &d.Sides, Value: &d.Value}
	case KindWeighted:
		data = weightedJSON{Weights: d.Weights, R: &d.R, Index: &d.Index}
	case KindShuffle:
		data = shuffleJSON{DeckID: d.DeckID, Size: &d.Size, HeadPreview: nonNil(d.HeadPreview)}
	case KindSample:
		switch d.Op {
		case OpUint32:
			data = sampleIntJSON{Op: d.Op, Value: &d.Value}
		case OpInt:
			data = sampleIntJSON{Op: d.Op, Min: &d.Min, Max: &d.Max, Value: &d.Value}
		case OpFloat01:
			data = sampleFloatJSON{Op: d.Op, Value: &d.Float}
		case OpChooseOne:
			data = sampleChooseJSON{Op: d.Op, N: &d.N, Index: &d.Index}
		}
	}
	return json.Marshal(struct {
		Seq  uint64 `json:"seq"`
		Tag  Tag    `json:"tag"`
		Ctx  Ctx    `json:"ctx"`
		Kind Kind   `json:"kind"`
		Data any    `json:"data"`
	}{e.Seq, e.Tag, e.Ctx, e.Kind, data})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// UnmarshalJSON decodes an entry written by [Entry.MarshalJSON]. seq, tag,
// kind and data are required, ctx is optional; every field of the kind's
// data is required except a shuffle's deckId. It returns an error wrapping
// [ErrEntryJSON], naming the problem, for an unknown kind or op, an unknown
// or mistyped field, trailing data, or a payload no stream records (seq 0, a
// value outside its die or range, an index outside its list, a weighted
// index that does not follow from r, a float outside [0, 1), ...). On error
// e is unchanged.
func (e *Entry) UnmarshalJSON(b []byte) error {
	var top struct {
		Seq  *uint64         `json:"seq"`
		Tag  *Tag            `json:"tag"`
		Ctx  json.RawMessage `json:"ctx"`
		Kind *Kind           `json:"kind"`
		Data json.RawMessage `json:"data"`
	}
	if err := decodeStrict(b, &top, "entry"); err != nil {
		return err
	}
	switch {
	case top.Seq == nil:
		return missing("entry", "seq")
	case top.Tag == nil:
		return missing("entry", "tag")
	case top.Kind == nil:
		return missing("entry", "kind")
	case top.Data == nil:
		return missing("entry", "data")
	}
	out := Entry{Seq: *top.Seq, Tag: *top.Tag, Kind: *top.Kind}
	if top.Ctx != nil {
		if err := decodeStrict(top.Ctx, &out.Ctx, "ctx"); err != nil {
			return err
		}
	}
	var err error
	out.Data, err = decodeData(out.Kind, top.Data)
	if err != nil {
		return err
	}
	if err := out.validate(); err != nil {
		return err
	}
	*e = out
	return nil
}

// decodeData decodes the payload of the given kind.
func decodeData(kind Kind, raw []byte) (Data, error) {
	what := fmt.Sprintf("%s data", kind)
	switch kind {
	case KindDice:
		var j diceJSON
		if err := decodeStrict(raw, &j, what); err != nil {
			return Data{}, err
		}
		if j.Sides == nil || j.Value == nil {
			return Data{}, missing(what, "sides and value")
		}
		return Data{Sides: *j.Sides, Value: *j.Value}, nil
	case KindWeighted:
		var j weightedJSON
		if err := decodeStrict(raw, &j, what); err != nil {
			return Data{}, err
		}
		if j.Weights == nil || j.R == nil || j.Index == nil {
			return Data{}, missing(what, "weights, r and index")
		}
		return Data{Weights: j.Weights, R: *j.R, Index: *j.Index}, nil
	case KindShuffle:
		var j shuffleJSON
		if err := decodeStrict(raw, &j, what); err != nil {
			return Data{}, err
		}
		if j.Size == nil || j.HeadPreview == nil {
			return Data{}, missing(what, "size and headPreview")
		}
		return Data{DeckID: j.DeckID, Size: *j.Size, HeadPreview: j.HeadPreview}, nil
	case KindSample:
		return decodeSample(raw)
	}
	return Data{}, fmt.Errorf("%w: unknown kind %q (want dice, weighted, shuffle or sample)", ErrEntryJSON, truncate(string(kind)))
}

// decodeSample decodes a "sample" payload by its op.
func decodeSample(raw []byte) (Data, error) {
	var op opJSON
	if err := json.Unmarshal(raw, &op); err != nil {
		return Data{}, fmt.Errorf("%w: sample data: %v", ErrEntryJSON, err)
	}
	what := fmt.Sprintf("sample data (op %q)", truncate(op.Op))
	switch op.Op {
	case OpUint32, OpInt:
		var j sampleIntJSON
		if err := decodeStrict(raw, &j, what); err != nil {
			return Data{}, err
		}
		if j.Value == nil {
			return Data{}, missing(what, "value")
		}
		if op.Op == OpUint32 {
			if j.Min != nil || j.Max != nil {
				return Data{}, fmt.Errorf("%w: %s: min and max belong to op %q only", ErrEntryJSON, what, OpInt)
			}
			return Data{Op: op.Op, Value: *j.Value}, nil
		}
		if j.Min == nil || j.Max == nil {
			return Data{}, missing(what, "min and max")
		}
		return Data{Op: op.Op, Min: *j.Min, Max: *j.Max, Value: *j.Value}, nil
	case OpFloat01:
		var j sampleFloatJSON
		if err := decodeStrict(raw, &j, what); err != nil {
			return Data{}, err
		}
		if j.Value == nil {
			return Data{}, missing(what, "value")
		}
		return Data{Op: op.Op, Float: *j.Value}, nil
	case OpChooseOne:
		var j sampleChooseJSON
		if err := decodeStrict(raw, &j, what); err != nil {
			return Data{}, err
		}
		if j.N == nil || j.Index == nil {
			return Data{}, missing(what, "n and index")
		}
		return Data{Op: op.Op, N: *j.N, Index: *j.Index}, nil
	}
	return Data{}, fmt.Errorf("%w: %s: unknown op (want u32, int, float01 or chooseOne)", ErrEntryJSON, what)
}

// decodeStrict decodes one JSON value into v, rejecting unknown fields and
// trailing data.
func decodeStrict(raw []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrEntryJSON, what, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: %s: trailing data after the JSON value", ErrEntryJSON, what)
	}
	return nil
}

func missing(what, fields string) error {
	return fmt.Errorf("%w: %s: missing %s", ErrEntryJSON, what, fields)
}

// validate checks that e is an entry a stream could have recorded.
func (e Entry) validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s data: %s", ErrEntryJSON, e.Kind, fmt.Sprintf(format, args...))
	}
	if e.Seq == 0 {
		return fmt.Errorf("%w: seq is 0; the first entry of a stream is seq 1", ErrEntryJSON)
	}
	d := e.Data
	switch e.Kind {
	case KindDice:
		if d.Sides < 1 || int64(d.Sides) > MaxSpan || d.Value < 1 || d.Value > int64(d.Sides) {
			return bad("value %d of a %d-sided die (want 1 <= value <= sides <= 2^32)", d.Value, d.Sides)
		}
	case KindWeighted:
		return validateWeighted(d, bad)
	case KindShuffle:
		if d.Size < 0 || int64(d.Size) > MaxSpan || len(d.HeadPreview) > d.Size {
			return bad("size %d with %d preview items (want 0 <= preview <= size <= 2^32)", d.Size, len(d.HeadPreview))
		}
	case KindSample:
		return validateSample(d, bad)
	default:
		return fmt.Errorf("%w: unknown kind %q (want dice, weighted, shuffle or sample)", ErrEntryJSON, truncate(string(e.Kind)))
	}
	return nil
}

// validateWeighted checks the weights as [WeightedPick] does and that index
// is the one r chooses.
func validateWeighted(d Data, bad func(string, ...any) error) error {
	if len(d.Weights) == 0 {
		return bad("no weights")
	}
	var sum int64
	idx := -1
	for i, w := range d.Weights {
		if math.IsNaN(w) || w <= 0 || w > MaxSpan || w != math.Trunc(w) {
			return bad("weight %d is %v (want a whole number in [1, 2^32])", i, w)
		}
		sum += int64(w)
		if sum > MaxSpan {
			return bad("weights sum past 2^32")
		}
		if idx < 0 && d.R < sum {
			idx = i
		}
	}
	if d.R < 0 || d.R >= sum {
		return bad("r %d outside [0, %d)", d.R, sum)
	}
	if d.Index != idx {
		return bad("index %d, but r %d picks index %d", d.Index, d.R, idx)
	}
	return nil
}

// validateSample checks a "sample" payload by its op.
func validateSample(d Data, bad func(string, ...any) error) error {
	switch d.Op {
	case OpUint32:
		if d.Value < 0 || d.Value > math.MaxUint32 {
			return bad("u32 value %d outside [0, 2^32)", d.Value)
		}
	case OpInt:
		if _, err := span(d.Min, d.Max); err != nil {
			return bad("%v", err)
		}
		if d.Value < d.Min || d.Value > d.Max {
			return bad("value %d outside [%d, %d]", d.Value, d.Min, d.Max)
		}
	case OpFloat01:
		if !(d.Float >= 0 && d.Float < 1) {
			return bad("float01 value %v outside [0, 1)", d.Float)
		}
	case OpChooseOne:
		if d.N < 1 || int64(d.N) > MaxSpan || d.Index < 0 || d.Index >= d.N {
			return bad("index %d of %d items (want 0 <= index < n <= 2^32)", d.Index, d.N)
		}
	default:
		return bad("unknown op %q (want u32, int, float01 or chooseOne)", truncate(d.Op))
	}
	return nil
}
