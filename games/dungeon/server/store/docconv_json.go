package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// ---- JSON to document values ----

// jsonToValue converts a JSON value's bytes (as json.Marshal writes them)
// to document values: integers int64 exactly (ErrInvalid beyond int64),
// other numbers float64.
func jsonToValue(b []byte) (any, error) {
	p := jsonParser{b: b}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.b) {
		return nil, p.fail("after the value")
	}
	return v, nil
}

// jsonParser reads one JSON value in one pass, building its document
// value as it validates it.
type jsonParser struct {
	b []byte
	i int
}

var errSyntax = errors.New("store: invalid JSON")

func (p *jsonParser) fail(what string) error {
	return fmt.Errorf("%w at byte %d: %s", errSyntax, p.i, what)
}

func (p *jsonParser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (any, error) {
	if p.i >= len(p.b) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case p.lit("true"):
		return true, nil
	case p.lit("false"):
		return false, nil
	case p.lit("null"):
		return nil, nil
	}
	return nil, p.fail("unexpected character")
}

func (p *jsonParser) lit(s string) bool {
	if len(p.b)-p.i >= len(s) && string(p.b[p.i:p.i+len(s)]) == s {
		p.i += len(s)
		return true
	}
	return false
}

func (p *jsonParser) object() (any, error) {
	p.i++ // {
	m := map[string]any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return m, nil
	}
	for {
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, p.fail("want a key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, p.fail("want ':'")
		}
		p.i++
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.space()
		if p.i >= len(p.b) {
			return nil, p.fail("unexpected end")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return m, nil
		default:
			return nil, p.fail("want ',' or '}'")
		}
	}
}

func (p *jsonParser) array() (any, error) {
	p.i++ // [
	l := []any{}
	p.space()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		return l, nil
	}
	for {
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		l = append(l, v)
		p.space()
		if p.i >= len(p.b) {
			return nil, p.fail("unexpected end")
		}
		switch p.b[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return l, nil
		default:
			return nil, p.fail("want ',' or ']'")
		}
	}
}

// str reads a string: one without escapes or control characters is taken
// as it is (invalid UTF-8 replaced as encoding/json replaces it); one with
// escapes is left to encoding/json.
func (p *jsonParser) str() (string, error) {
	start := p.i
	p.i++ // "
	plain := true
	for p.i < len(p.b) {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			if plain {
				return validString(string(p.b[start+1 : p.i-1])), nil
			}
			var s string
			if err := json.Unmarshal(p.b[start:p.i], &s); err != nil {
				return "", fmt.Errorf("%w: %v", errSyntax, err)
			}
			return s, nil
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", p.fail("control character in a string")
		default:
			p.i++
		}
	}
	return "", p.fail("unterminated string")
}

// number reads a number: an integer (no '.', no exponent) becomes an
// int64, exactly, or ErrInvalid; any other a float64.
func (p *jsonParser) number() (any, error) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	if n := digits(); n == 0 || n > 1 && p.b[intStart] == '0' {
		return nil, p.fail("malformed number")
	}
	integer := true
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		integer = false
		if digits() == 0 {
			return nil, p.fail("malformed number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		integer = false
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.fail("malformed number")
		}
	}
	s := string(p.b[start:p.i])
	if integer {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%w: integer %s outside int64", ErrInvalid, s)
		}
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: number %s: %v", ErrInvalid, s, err)
	}
	return f, nil
}
