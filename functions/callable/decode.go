package callable

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// DecodeData decodes a call's data strictly into v, which must be a non-nil
// pointer. It returns an INVALID_ARGUMENT [*Error] naming the field when the
// data is missing or null, is not valid JSON, has a key twice in one object,
// has a field v does not have, has a value of the wrong type or out of the
// field's range, or has anything after the value. Field names must match
// exactly: unlike encoding/json, which matches them case-insensitively,
// "GAMEID" or "ſeat" is an unknown field, not gameId or seat. A v that is
// not a pointer is a programming error, returned as a plain error
// (answered INTERNAL).
func DecodeData(raw json.RawMessage, v any) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return InvalidArgument("data is required")
	}
	if err := checkDuplicateKeys(raw); err != nil {
		return err
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		if err := checkExactKeys(raw, rv.Type()); err != nil {
			return err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return InvalidArgument("data has content after its value")
	}
	return nil
}

// decodeError turns an encoding/json error into INVALID_ARGUMENT naming the
// field, or returns a programming error as it is.
func decodeError(err error) error {
	var invalid *json.InvalidUnmarshalError
	if errors.As(err, &invalid) {
		return fmt.Errorf("callable: DecodeData: %w", err)
	}
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		where := "data"
		if typeErr.Field != "" {
			where += "." + typeErr.Field
		}
		return InvalidArgument("%s must be %s, not %s", where, describe(typeErr.Type), typeErr.Value)
	}
	var syntaxErr *json.SyntaxError
	if errors.As(err, &syntaxErr) || errors.Is(err, io.ErrUnexpectedEOF) {
		return InvalidArgument("data is not valid JSON")
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return InvalidArgument("data has an unknown field %s", quoteShort(strings.Trim(name, `"`)))
	}
	// An UnmarshalJSON method of ours rejected the value.
	return InvalidArgument("data is invalid: %s", quoteShort(err.Error()))
}

// describe names the JSON shape a Go type accepts, with the range of an
// integer type.
func describe(t reflect.Type) string {
	if t == nil {
		return "a valid value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		return fmt.Sprintf("an integer in [%d, %d]", -(int64(1) << (bits - 1)), int64(uint64(1)<<(bits-1)-1))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return fmt.Sprintf("an integer in [0, %d]", uint64(1)<<t.Bits()-1)
	case reflect.Pointer:
		return describe(t.Elem())
	}
	return "a " + t.Kind().String()
}
