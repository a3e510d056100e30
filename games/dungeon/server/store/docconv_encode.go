package store

import (
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ---- Encoding ----

// encodeDoc converts v to a document without JSON (see the top of
// docconv.go).
func encodeDoc(v any) (map[string]any, error) {
	rv := reflect.ValueOf(v)
	out, err := encodeValue(rv)
	if err != nil {
		return nil, err
	}
	m, ok := out.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: document is not a JSON object", ErrInvalid)
	}
	return m, nil
}

// encodeValue converts one value as json.Marshal and the conversion of
// its result would.
func encodeValue(v reflect.Value) (any, error) {
	if !v.IsValid() {
		return nil, nil
	}
	t := v.Type()
	if t.Kind() == reflect.Pointer && v.IsNil() {
		return nil, nil
	}
	if t.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, nil
		}
		return encodeValue(v.Elem())
	}
	ti := infoOf(t)
	if ti.custom || (t.Kind() == reflect.Struct && planOf(t).viaJSON) {
		return encodeViaJSON(v)
	}
	if t.Kind() != reflect.Pointer && (ti.text || (ti.textPtr && v.CanAddr())) {
		m := v.Interface()
		if !ti.text {
			m = v.Addr().Interface()
		}
		b, err := m.(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return nil, &json.MarshalerError{Type: t, Err: err}
		}
		return validString(string(b)), nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return v.Bool(), nil
	case reflect.String:
		return validString(v.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int(), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := v.Uint()
		if u > math.MaxInt64 {
			return nil, fmt.Errorf("%w: integer %d outside int64", ErrInvalid, u)
		}
		return int64(u), nil
	case reflect.Float64:
		return encodeFloat(v.Float())
	case reflect.Pointer:
		return encodeValue(v.Elem())
	case reflect.Struct:
		return encodeStruct(v)
	case reflect.Map:
		return encodeMap(v)
	case reflect.Slice:
		if v.IsNil() {
			return nil, nil
		}
		if e := infoOf(t.Elem()); t.Elem().Kind() == reflect.Uint8 && !e.custom && !e.text && !e.textPtr {
			return base64.StdEncoding.EncodeToString(v.Bytes()), nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			e, err := encodeValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	return nil, &json.UnsupportedTypeError{Type: t}
}

// encodeFloat is a float64 as JSON writes it and the conversion reads it
// back: an integral value under 1e21 is written without a point or an
// exponent, so it becomes an int64 (ErrInvalid beyond int64); others keep
// their float64 value exactly (JSON writes the shortest representation
// that reads back as the same float64). NaN and infinities are not JSON.
func encodeFloat(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	a := math.Abs(f)
	if a >= 1e21 || f != math.Trunc(f) || (a < 1e-6 && f != 0) {
		return f, nil
	}
	if a < 1<<53 {
		return int64(f), nil // exact: JSON writes every digit
	}
	// JSON writes the shortest digits that read back as f, then zeros:
	// the integer read is those digits, not always f itself.
	s := strconv.FormatFloat(f, 'f', -1, 64)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: integer %s outside int64", ErrInvalid, s)
	}
	return n, nil
}

// validString is s as encoding/json writes it: each byte of an invalid
// UTF-8 sequence becomes U+FFFD.
func validString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func encodeStruct(v reflect.Value) (any, error) {
	p := planOf(v.Type())
	out := make(map[string]any, len(p.fields))
	for _, f := range p.fields {
		fv := v.Field(f.index)
		if f.omitEmpty && isEmpty(fv) || f.omitZero && isZero(fv) {
			continue
		}
		e, err := encodeValue(fv)
		if err != nil {
			return nil, err
		}
		out[f.name] = e
	}
	return out, nil
}

// isEmpty is encoding/json's omitempty test.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// isZero is encoding/json's omitzero test: the type's IsZero method if it
// has one, else the zero value.
func isZero(v reflect.Value) bool {
	t := v.Type()
	ti := infoOf(t)
	switch {
	case ti.zeroer:
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			return true
		}
		return v.Interface().(interface{ IsZero() bool }).IsZero()
	case ti.zeroerPtr:
		if !v.CanAddr() {
			c := reflect.New(t).Elem()
			c.Set(v)
			v = c
		}
		return v.Addr().Interface().(interface{ IsZero() bool }).IsZero()
	}
	return v.IsZero()
}

func encodeMap(v reflect.Value) (any, error) {
	if v.IsNil() {
		return nil, nil
	}
	kt := v.Type().Key()
	out := make(map[string]any, v.Len())
	it := v.MapRange()
	for it.Next() {
		var k string
		switch {
		case kt.Kind() == reflect.String:
			k = validString(it.Key().String())
		case infoOf(kt).text:
			if kt.Kind() == reflect.Pointer && it.Key().IsNil() {
				k = ""
				break
			}
			b, err := it.Key().Interface().(encoding.TextMarshaler).MarshalText()
			if err != nil {
				return nil, &json.MarshalerError{Type: kt, Err: err}
			}
			k = validString(string(b))
		case kt.Kind() >= reflect.Int && kt.Kind() <= reflect.Int64:
			k = strconv.FormatInt(it.Key().Int(), 10)
		case kt.Kind() >= reflect.Uint && kt.Kind() <= reflect.Uintptr:
			k = strconv.FormatUint(it.Key().Uint(), 10)
		default:
			return nil, &json.UnsupportedTypeError{Type: v.Type()}
		}
		e, err := encodeValue(it.Value())
		if err != nil {
			return nil, err
		}
		out[k] = e
	}
	return out, nil
}

// encodeViaJSON converts v through its JSON, as ToDoc did.
func encodeViaJSON(v reflect.Value) (any, error) {
	var x any
	if v.CanAddr() {
		x = v.Addr().Interface() // pointer-receiver methods, as json.Marshal of the parent finds them
	} else {
		x = v.Interface()
	}
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return jsonToValue(b)
}
