package callable

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// decodeEnvelope checks that body is exactly one JSON object whose only
// field is "data", present once, and returns data's raw value. Every
// failure is INVALID_ARGUMENT.
func decodeEnvelope(body []byte) (json.RawMessage, *Error) {
	if !utf8.Valid(body) {
		return nil, InvalidArgument("request body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, InvalidArgument(`request body must be a JSON object {"data": ...}`)
	}
	var data json.RawMessage
	seen := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, InvalidArgument("request body is not valid JSON")
		}
		if key, _ := tok.(string); key != "data" {
			return nil, InvalidArgument("request body has an unexpected field %s", quoteShort(key))
		}
		if seen {
			return nil, InvalidArgument(`request body has "data" twice`)
		}
		seen = true
		if err := dec.Decode(&data); err != nil {
			return nil, InvalidArgument("request body is not valid JSON")
		}
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, InvalidArgument("request body is not valid JSON")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, InvalidArgument("request body has content after the JSON object")
	}
	if !seen {
		return nil, InvalidArgument(`request body has no "data" field`)
	}
	if err := checkDuplicateKeys(data); err != nil {
		return nil, err
	}
	return data, nil
}

// checkDuplicateKeys rejects raw if any object in it, at any depth, has the
// same key twice (exact match): encoding/json would silently keep the last,
// so such data is ambiguous. raw must be valid JSON.
func checkDuplicateKeys(raw json.RawMessage) *Error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	// One set of keys per open object; nil for an open array.
	var stack []map[string]bool
	expectKey := func() bool { return len(stack) > 0 && stack[len(stack)-1] != nil }
	for {
		// Between tokens, dec knows whether the next string is a key.
		atKey := expectKey() && dec.More()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return InvalidArgument("data is not valid JSON")
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, map[string]bool{})
			continue
		case json.Delim('['):
			stack = append(stack, nil)
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			continue
		}
		if atKey {
			key := tok.(string)
			keys := stack[len(stack)-1]
			if keys[key] {
				return InvalidArgument("data has the key %s twice in one object", quoteShort(key))
			}
			keys[key] = true
			// The value follows; if it is a scalar, consume it now so the
			// next string token is read as a key again.
			if err := skipScalar(dec, &stack); err != nil {
				return err
			}
		}
	}
}

// skipScalar reads the token after a key: a scalar is consumed; an opening
// delimiter is pushed on the stack so the walk descends into it.
func skipScalar(dec *json.Decoder, stack *[]map[string]bool) *Error {
	tok, err := dec.Token()
	if err != nil {
		return InvalidArgument("data is not valid JSON")
	}
	switch tok {
	case json.Delim('{'):
		*stack = append(*stack, map[string]bool{})
	case json.Delim('['):
		*stack = append(*stack, nil)
	}
	return nil
}

// quoteShort quotes s for an error message, cut to 64 bytes so a hostile
// key cannot flood the answer.
func quoteShort(s string) string {
	const max = 64
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	b, _ := json.Marshal(s)
	return string(b)
}
