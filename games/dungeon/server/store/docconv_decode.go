package store

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// ---- Decoding ----

// decodeDoc fills v (a non-nil pointer) from document m without JSON, as
// json.Unmarshal of json.Marshal(m) would (see the top of docconv.go). It
// fills a zero value as json.Unmarshal does; into a value already holding
// data it overwrites what m names.
func decodeDoc(m map[string]any, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &json.InvalidUnmarshalError{Type: reflect.TypeOf(v)}
	}
	return decodeValue(m, rv.Elem())
}

// decodeValue stores document value d (nil, bool, string, int64, float64,
// []any, map[string]any) in v, which is settable.
func decodeValue(d any, v reflect.Value) error {
	switch d.(type) {
	case nil, bool, string, int64, float64, []any, map[string]any:
	default:
		// Not a value ToDoc makes (a database's timestamp, bytes; a value
		// JSON cannot hold): json.Marshal's and json.Unmarshal's rules.
		return decodeViaJSON(d, v)
	}
	t := v.Type()
	ti := infoOf(t)
	if d == nil {
		switch {
		case t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface:
			v.SetZero() // json.Unmarshal sets a pointer to nil, even one to an Unmarshaler
			return nil
		case ti.unmarshaler:
			return decodeViaJSON(d, v) // its UnmarshalJSON gets the null
		case t.Kind() == reflect.Map || t.Kind() == reflect.Slice:
			v.SetZero()
		}
		return nil // null leaves any other value as it is
	}
	if ti.custom || (t.Kind() == reflect.Struct && planOf(t).viaJSON) ||
		(t.Kind() == reflect.Pointer && (custom(t.Elem()) || t.Elem().Kind() == reflect.Struct && planOf(t.Elem()).viaJSON)) {
		return decodeViaJSON(d, v)
	}
	if t.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return decodeValue(d, v.Elem())
	}
	if ti.textUnmarsh {
		if s, ok := d.(string); ok {
			return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
		}
		return decodeViaJSON(d, v) // json.Unmarshal's rules for a non-string
	}
	mismatch := func() error {
		return &json.UnmarshalTypeError{Value: docKind(d), Type: t}
	}
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return decodeViaJSON(d, v)
		}
		v.Set(reflect.ValueOf(asJSONAny(d)))
		return nil
	case reflect.Bool:
		b, ok := d.(bool)
		if !ok {
			return mismatch()
		}
		v.SetBool(b)
	case reflect.String:
		s, ok := d.(string)
		if !ok {
			return mismatch()
		}
		v.SetString(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := docInt(d)
		if !ok || v.OverflowInt(n) {
			return mismatch()
		}
		v.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if f, ok := d.(float64); ok && f >= 1<<63 {
			return decodeViaJSON(d, v) // beyond int64: json.Unmarshal's rules
		}
		n, ok := docInt(d)
		if !ok || n < 0 || v.OverflowUint(uint64(n)) {
			return mismatch()
		}
		v.SetUint(uint64(n))
	case reflect.Float64:
		switch x := d.(type) {
		case float64:
			v.SetFloat(x)
		case int64:
			v.SetFloat(float64(x))
		default:
			return mismatch()
		}
	case reflect.Struct:
		m, ok := d.(map[string]any)
		if !ok {
			return mismatch()
		}
		p := planOf(t)
		keys := fieldKeys(p, m)
		for _, k := range keys {
			e := m[k]
			i, ok := p.byName[k]
			if !ok {
				if i, ok = p.fold(k); !ok {
					// Unknown fields are ignored, as json.Unmarshal does,
					// once the document could be JSON at all.
					if !plainDoc(e) {
						if _, err := json.Marshal(e); err != nil {
							return err
						}
					}
					continue
				}
			}
			if err := decodeValue(e, v.Field(p.fields[i].index)); err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := d.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String {
			if ok {
				return decodeViaJSON(d, v)
			}
			return mismatch()
		}
		if v.IsNil() {
			v.Set(reflect.MakeMapWithSize(t, len(m)))
		}
		for k, e := range m {
			ev := reflect.New(t.Elem()).Elem()
			if err := decodeValue(e, ev); err != nil {
				return err
			}
			v.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
	case reflect.Slice:
		if s, ok := d.(string); ok && t.Elem().Kind() == reflect.Uint8 {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return err
			}
			v.SetBytes(b)
			return nil
		}
		l, ok := d.([]any)
		if !ok {
			return mismatch()
		}
		s := reflect.MakeSlice(t, len(l), len(l))
		for i, e := range l {
			if err := decodeValue(e, s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Array:
		l, ok := d.([]any)
		if !ok {
			return mismatch()
		}
		for i := 0; i < v.Len(); i++ {
			if i < len(l) {
				if err := decodeValue(l[i], v.Index(i)); err != nil {
					return err
				}
			} else {
				v.Index(i).SetZero()
			}
		}
	default:
		return decodeViaJSON(d, v)
	}
	return nil
}

// fieldKeys returns m's keys in the order to decode them: any order when
// each names a field exactly (or none); otherwise sorted, as the JSON of
// m lists them, so that of two keys matching one field case-insensitively
// the later wins, as in json.Unmarshal.
func fieldKeys(p *plan, m map[string]any) []string {
	keys := make([]string, 0, len(m))
	folded := false
	for k := range m {
		keys = append(keys, k)
		if _, ok := p.byName[k]; !ok && !folded {
			_, folded = p.fold(k)
		}
	}
	if folded {
		slices.Sort(keys)
	}
	return keys
}

// plainDoc reports whether d holds only the values ToDoc makes.
func plainDoc(d any) bool {
	switch x := d.(type) {
	case nil, bool, string, int64, float64:
		return true
	case []any:
		for _, e := range x {
			if !plainDoc(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !plainDoc(e) {
				return false
			}
		}
		return true
	}
	return false
}

// fold finds a field whose name equals k case-insensitively, as
// json.Unmarshal matches keys when no name matches exactly.
func (p *plan) fold(k string) (int, bool) {
	for i, f := range p.fields {
		if strings.EqualFold(f.name, k) {
			return i, true
		}
	}
	return 0, false
}

// docInt is d as an integer, if it is one (a float64 with an integral
// value is: JSON writes it without a point).
func docInt(d any) (int64, bool) {
	switch x := d.(type) {
	case int64:
		return x, true
	case float64:
		if n, err := encodeFloat(x); err == nil {
			if i, ok := n.(int64); ok {
				return i, true
			}
		}
	}
	return 0, false
}

// asJSONAny is d as json.Unmarshal leaves it in an interface{}: numbers
// as float64.
func asJSONAny(d any) any {
	switch x := d.(type) {
	case int64:
		return float64(x)
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = asJSONAny(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = asJSONAny(e)
		}
		return out
	}
	return d
}

func docKind(d any) string {
	switch d.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case string:
		return "string"
	case int64, float64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", d)
}

// decodeViaJSON stores d in v through its JSON, as FromDoc did.
func decodeViaJSON(d any, v reflect.Value) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v.Addr().Interface())
}
