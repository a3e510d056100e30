package functest

import (
	"encoding/json"
	"strconv"
)

// Reading the events out of any answer: the functions' JSON and the Firestore REST API's typed values.

// events returns every JSON object with a seq and a type found in text
// (a getView or act answer, a REST document or query answer, whose typed
// values are read as plain ones), or none if text is not JSON.
func events(text string) []map[string]any {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil
	}
	var out []map[string]any
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			_, hasSeq := x["seq"]
			_, hasType := x["type"]
			if hasSeq && hasType {
				out = append(out, x)
			}
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(plain(v))
	return out
}

// plain turns Firestore REST typed values ({"integerValue": "5"},
// {"mapValue": {"fields": ...}}, ...) into plain JSON values, in place.
func plain(v any) any {
	switch x := v.(type) {
	case []any:
		for i := range x {
			x[i] = plain(x[i])
		}
	case map[string]any:
		if len(x) == 1 {
			for k, val := range x {
				switch k {
				case "stringValue", "booleanValue", "doubleValue", "timestampValue", "referenceValue", "nullValue":
					return val
				case "integerValue":
					s, _ := val.(string)
					f, _ := strconv.ParseFloat(s, 64)
					return f
				case "mapValue":
					m, _ := val.(map[string]any)
					if f, ok := m["fields"]; ok {
						return plain(f)
					}
					return map[string]any{}
				case "arrayValue":
					m, _ := val.(map[string]any)
					if vs, ok := m["values"]; ok {
						return plain(vs)
					}
					return []any{}
				}
			}
		}
		for k, val := range x {
			x[k] = plain(val)
		}
	}
	return v
}
