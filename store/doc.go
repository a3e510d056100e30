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
// bool, string, int64, float64, []any or map[string]any. JSON integers
// become int64 exactly (never through float64); an integer outside int64
// is ErrInvalid (Firestore has no wider integer). nil and empty slices and
// maps stay distinct (null vs [] / {}), as JSON keeps them.
func ToDoc(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return JSONToDoc(b)
}

// JSONToDoc is ToDoc on a JSON object's bytes.
func JSONToDoc(b []byte) (map[string]any, error) {
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
// returns it: int64, float64, nested []any and map[string]any) into v
// through JSON, so the struct's JSON tags and decoders apply.
func FromDoc(m map[string]any, v any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
