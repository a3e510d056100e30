// Package strictjson decodes JSON files that people write by hand (a
// ruleset, say) strictly, where encoding/json is lenient:
//
//   - an object key must spell a field's JSON name exactly: encoding/json
//     matches "MaxHP" to the field tagged "maxHp" (case-insensitively), which
//     hides typos; here it is an unknown key, with the near miss suggested;
//   - no key may appear twice in one object (encoding/json keeps the last);
//   - keys that name no field are refused;
//   - the document is exactly one value (trailing data is refused);
//   - every error names the line and column (1-based, in characters) where
//     the problem is, and the path of the value ("decks[2].cards[0].kind").
//
// Only the type's shape is checked here; the values are then decoded by
// encoding/json, whose type errors are given the same position.
package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Error is a decoding error at a position of the input.
type Error struct {
	Line, Column int    // 1-based; Column counts characters, not bytes
	Path         string // the value's path, "" for the document itself
	Msg          string
}

// Error returns "line L, column C: PATH: MSG".
func (e *Error) Error() string {
	where := fmt.Sprintf("line %d, column %d", e.Line, e.Column)
	if e.Path != "" {
		where += ": " + e.Path
	}
	return where + ": " + e.Msg
}

// Unmarshal decodes data into v (a non-nil pointer) after checking that
// every object key matches a field of v's type exactly and appears once,
// and that data holds exactly one JSON value. The error is an *Error.
func Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("strictjson: Unmarshal needs a non-nil pointer, not %T", v)
	}
	c := &checker{data: data, dec: json.NewDecoder(bytes.NewReader(data))}
	c.dec.UseNumber()
	// Syntax first, on the whole input: encoding/json's offsets are exact
	// there, and the walk below then only meets well-formed JSON.
	var raw json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return c.convert(err)
	}
	if err := c.value(rv.Type().Elem(), ""); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return c.convert(err)
	}
	return nil
}

type checker struct {
	data []byte
	dec  *json.Decoder
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// value checks the next value against type t; t == nil accepts any shape
// (for interfaces and types with their own decoding), still refusing
// duplicate keys.
func (c *checker) value(t reflect.Type, path string) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t != nil && (reflect.PointerTo(t).Implements(unmarshalerType) || reflect.PointerTo(t).Implements(textUnmarshalerType)) {
		t = nil
	}
	start := c.next()
	tok, err := c.dec.Token()
	if err != nil {
		return c.convert(err)
	}
	if msg := mismatch(t, tok); msg != "" {
		return c.errAt(start, path, msg)
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if d == '{' {
		return c.object(t, path)
	}
	var elem reflect.Type // d == '['
	if t != nil && t.Kind() != reflect.Interface {
		elem = t.Elem()
	}
	for i := 0; c.dec.More(); i++ {
		if err := c.value(elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	_, err = c.dec.Token() // ]
	return c.convert(err)
}

// mismatch says why the token cannot start a value of type t, or returns
// "". null fits everything (encoding/json leaves the value as it is).
func mismatch(t reflect.Type, tok json.Token) string {
	if t == nil || t.Kind() == reflect.Interface || tok == nil {
		return ""
	}
	want := kindName(t)
	switch v := tok.(type) {
	case json.Delim:
		switch {
		case v == '{' && (t.Kind() == reflect.Struct || (t.Kind() == reflect.Map && t.Key().Kind() == reflect.String)):
			return ""
		case v == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
			return ""
		}
		return fmt.Sprintf("want %s, found %s", want, map[json.Delim]string{'{': "an object", '[': "an array"}[v])
	case bool:
		if t.Kind() == reflect.Bool {
			return ""
		}
		return fmt.Sprintf("want %s, found %v", want, v)
	case string:
		if t.Kind() == reflect.String {
			return ""
		}
		return fmt.Sprintf("want %s, found the string %q", want, v)
	case json.Number:
		var err error
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			_, err = strconv.ParseInt(string(v), 10, t.Bits())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			_, err = strconv.ParseUint(string(v), 10, t.Bits())
		case reflect.Float32, reflect.Float64:
			_, err = strconv.ParseFloat(string(v), t.Bits())
		default:
			return fmt.Sprintf("want %s, found the number %s", want, v)
		}
		if err != nil {
			return fmt.Sprintf("want %s, found %s", want, v)
		}
	}
	return ""
}

// kindName describes the values of type t in words.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return fmt.Sprintf("a whole number (%d-bit)", t.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return fmt.Sprintf("a whole number >= 0 (%d-bit)", t.Bits())
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return t.String()
}

// object checks the members of an object whose '{' was just read.
func (c *checker) object(t reflect.Type, path string) error {
	var fields map[string]reflect.Type
	var elem reflect.Type
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = Fields(t)
		case reflect.Map:
			elem = t.Elem()
		}
	}
	seen := map[string]int64{}
	for c.dec.More() {
		at := c.next()
		tok, err := c.dec.Token()
		if err != nil {
			return c.convert(err)
		}
		key, _ := tok.(string) // encoding/json only returns string keys
		if first, dup := seen[key]; dup {
			l, col := c.lineCol(first)
			return c.errAt(at, path, fmt.Sprintf("duplicate key %q (first at line %d, column %d)", key, l, col))
		}
		seen[key] = at
		sub := joinPath(path, key)
		ft := elem
		if fields != nil {
			var ok bool
			if ft, ok = fields[key]; !ok {
				return c.errAt(at, path, unknownKey(key, fields))
			}
		}
		if err := c.value(ft, sub); err != nil {
			return err
		}
	}
	_, err := c.dec.Token() // }
	return c.convert(err)
}

// unknownKey says that key is no field, suggesting a field that differs
// only in case.
func unknownKey(key string, fields map[string]reflect.Type) string {
	for name := range fields {
		if strings.EqualFold(name, key) {
			return fmt.Sprintf("unknown key %q (did you mean %q? keys are case-sensitive)", key, name)
		}
	}
	return fmt.Sprintf("unknown key %q", key)
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// Fields maps the JSON names of struct type t's exported fields to their
// types, as encoding/json names them: the tag's name, else the Go name;
// "-" and unexported fields left out; the fields of untagged embedded
// structs promoted unless a field of t has the name. The map is cached per
// type and shared: callers must not change it.
func Fields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := fieldsOf(t)
	fieldCache.Store(t, m)
	return m
}

// fieldsOf is Fields without the cache.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range Fields(ft) {
					if _, ok := out[k]; !ok {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// next returns the offset of the next token: after the decoder's position,
// past white space and the separators ',' and ':'.
func (c *checker) next() int64 {
	off := c.dec.InputOffset()
	for off < int64(len(c.data)) {
		switch c.data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

// lineCol returns the 1-based line and column (in characters) of a byte
// offset.
func (c *checker) lineCol(off int64) (int, int) {
	off = min(max(off, 0), int64(len(c.data)))
	before := c.data[:off]
	line := 1 + bytes.Count(before, []byte{'\n'})
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCount(before[lineStart:])
}

func (c *checker) errAt(off int64, path, msg string) error {
	l, col := c.lineCol(off)
	return &Error{Line: l, Column: col, Path: path, Msg: msg}
}

// convert gives encoding/json's errors their position.
func (c *checker) convert(err error) error {
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se) && strings.HasPrefix(se.Error(), "unexpected end"):
		return c.errAt(int64(len(c.data)), "", "unexpected end of the document")
	case errors.As(err, &se):
		// Offset is just past the offending byte.
		msg := strings.Replace(se.Error(), "after top-level value", "after the top-level value", 1)
		return c.errAt(max(se.Offset-1, 0), "", "syntax error: "+msg)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return c.errAt(int64(len(c.data)), "", "unexpected end of the document")
	}
	return c.errAt(c.dec.InputOffset(), "", err.Error())
}
