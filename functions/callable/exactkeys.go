package callable

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"

	"github.com/fairboard/fairboard/internal/strictjson"
)

// checkExactKeys rejects raw (valid JSON) if an object in it has a key that
// is not, byte for byte, the JSON name of a field of the struct it decodes
// into. encoding/json matches keys case-insensitively (with Unicode
// folding: "ſeat" finds Seat, "GAMEID" finds GameID), so without this
// check {"seat":3,"ſeat":1} would pass the duplicate-key check and decode
// as seat 1. Values of a type that decodes itself (json.Unmarshaler,
// encoding.TextUnmarshaler) and of interface type are not looked into; a
// value of the wrong shape is left for the decoder to report.
func checkExactKeys(raw json.RawMessage, t reflect.Type) *Error {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return InvalidArgument("data is not valid JSON")
	}
	return exactKeys(v, t, "data")
}

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func exactKeys(v any, t reflect.Type, path string) *Error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if pt := reflect.PointerTo(t); pt.Implements(jsonUnmarshaler) || pt.Implements(textUnmarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := strictjson.Fields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the first bad key is the same on every run
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				return InvalidArgument("%s has an unknown field %s (field names are case-sensitive)", path, quoteShort(k))
			}
			if err := exactKeys(obj[k], ft, path+"."+k); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		arr, ok := v.([]any)
		if !ok {
			return nil
		}
		for i, e := range arr {
			if err := exactKeys(e, t.Elem(), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for k, e := range obj {
			if err := exactKeys(e, t.Elem(), path+"."+k); err != nil {
				return err
			}
		}
	}
	return nil
}
