package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// ToDoc converts v (a struct that marshals to a JSON object) to the
// document shape a database stores: map[string]any whose values are nil,
// bool, string, int64, float64, []any or map[string]any. The document is
// what v's JSON is (its field names, omitempty and omitzero, its
// MarshalJSON and MarshalText methods): JSON integers become int64 exactly
// (never through float64); an integer outside int64 is ErrInvalid
// (Firestore has no wider integer). nil and empty slices and maps stay
// distinct (null vs [] / {}), as JSON keeps them. It walks v directly,
// without writing its JSON (docconv.go), and validates as it builds.
func ToDoc(v any) (map[string]any, error) { return encodeDoc(v) }

// JSONToDoc is ToDoc on a JSON object's bytes: one pass that validates
// the JSON as it builds the document.
func JSONToDoc(b []byte) (map[string]any, error) {
	v, err := jsonToValue(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: document is not a JSON object", ErrInvalid)
	}
	return m, nil
}

// toDocJSON is ToDoc as it was before the direct conversion: json.Marshal,
// then jsonToDocStd. The tests hold ToDoc to it.
func toDocJSON(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonToDocStd(b)
}

// jsonToDocStd is JSONToDoc as it was before its one-pass parser: a
// decode with UseNumber, then a walk converting every json.Number.
func jsonToDocStd(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var raw any
	if err := d.Decode(&raw); err != nil {
		return nil, err
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: document is not a JSON object", ErrInvalid)
	}
	out, err := convert(m)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

// convert replaces every json.Number with int64 or float64, in place.
func convert(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: integer %s outside int64", ErrInvalid, s)
			}
			return n, nil
		}
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("%w: number %s: %v", ErrInvalid, s, err)
		}
		return f, nil
	case map[string]any:
		for k, e := range x {
			c, err := convert(e)
			if err != nil {
				return nil, err
			}
			x[k] = c
		}
		return x, nil
	case []any:
		for i, e := range x {
			c, err := convert(e)
			if err != nil {
				return nil, err
			}
			x[i] = c
		}
		return x, nil
	}
	return v, nil
}

// FromDoc decodes a stored document (as ToDoc made it, or as a database
// returns it: int64, float64, nested []any and map[string]any) into v, a
// non-nil pointer, as json.Unmarshal of the document's JSON would: the
// struct's JSON tags and decoders apply. It walks the document directly
// (docconv.go), without writing its JSON.
func FromDoc(m map[string]any, v any) error { return decodeDoc(m, v) }

// fromDocJSON is FromDoc as it was before the direct conversion; the
// tests hold FromDoc to it.
func fromDocJSON(m map[string]any, v any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// checkStorable refuses JSON that a database could not store exactly: an
// integer outside int64 (ErrInvalid), as JSONToDoc would, in one pass
// over b that builds nothing. b is JSON that encoding/json wrote.
func checkStorable(b []byte) error {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case c == '-' || c >= '0' && c <= '9':
			j, integer := i, true
			for j < len(b) && (b[j] == '-' || b[j] == '+' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] >= '0' && b[j] <= '9') {
				if b[j] == '.' || b[j] == 'e' || b[j] == 'E' {
					integer = false
				}
				j++
			}
			if integer {
				if _, err := strconv.ParseInt(string(b[i:j]), 10, 64); err != nil {
					return fmt.Errorf("%w: integer %s outside int64", ErrInvalid, b[i:j])
				}
			}
			i = j - 1
		}
	}
	return nil
}
