package game

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Ruleset is one game's ruleset: data, held as the game's own typed value.
type Ruleset interface {
	// Game is the name of the definition the ruleset belongs to.
	Game() string
	// CanonicalJSON is the ruleset's canonical encoding: the game's
	// fields in a fixed order, no spaces. Decoding it gives the same
	// ruleset.
	CanonicalJSON() []byte
	// Hash is the lower-case hex SHA-256 of CanonicalJSON.
	Hash() string
}

// HashJSON returns the lower-case hex SHA-256 of canonical.
func HashJSON(canonical []byte) string {
	h := sha256.Sum256(canonical)
	return hex.EncodeToString(h[:])
}

// DecodeStrict decodes one JSON value from data into v, refusing unknown
// fields and trailing data with an *Error of CodeBadRuleset.
func DecodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return Reject(CodeBadRuleset, err.Error())
	}
	if _, err := d.Token(); err == nil {
		return Reject(CodeBadRuleset, "trailing data after the ruleset")
	}
	return nil
}

// CheckParam returns an *Error of CodeBadRuleset if v is outside p's range
// or, for an integer parameter, not whole.
func CheckParam(p Param, v float64) error {
	if math.IsNaN(v) || v < p.Min || v > p.Max || (p.Integer && v != math.Trunc(v)) {
		kind := "a number"
		if p.Integer {
			kind = "a whole number"
		}
		return Reject(CodeBadRuleset, fmt.Sprintf("%s must be %s in [%g, %g], not %g", p.Path, kind, p.Min, p.Max, v))
	}
	return nil
}

// ParamOf returns def's parameter at path, or an *Error of CodeBadRuleset
// naming the known ones.
func ParamOf(def Definition, path string) (Param, error) {
	var names []string
	for _, p := range def.Params() {
		if p.Path == path {
			return p, nil
		}
		names = append(names, p.Path)
	}
	return Param{}, Reject(CodeBadRuleset, fmt.Sprintf("%s has no ruleset number %q (known: %s)", def.Name(), path, strings.Join(names, ", ")))
}

// Number returns the ruleset number at path (keys joined by '.') of r, a
// ruleset of def. It works on r's canonical JSON: for the edges (sweeps,
// reports), not for a game in play.
func Number(def Definition, r Ruleset, path string) (float64, error) {
	if _, err := ParamOf(def, path); err != nil {
		return 0, err
	}
	var m map[string]any
	if err := json.Unmarshal(r.CanonicalJSON(), &m); err != nil {
		return 0, Reject(CodeBadRuleset, err.Error())
	}
	keys := strings.Split(path, ".")
	var cur any = m
	for _, k := range keys {
		obj, ok := cur.(map[string]any)
		if !ok {
			return 0, Reject(CodeBadRuleset, "no number at "+path)
		}
		cur = obj[k]
	}
	v, ok := cur.(float64)
	if !ok {
		return 0, Reject(CodeBadRuleset, "no number at "+path)
	}
	return v, nil
}

// WithNumber returns a copy of r, a ruleset of def, with the number at
// path set to v, decoded again by def.DecodeRuleset (so every check of the
// game's applies); a path that is not one of def.Params() or a value out
// of its range is an *Error of CodeBadRuleset.
func WithNumber(def Definition, r Ruleset, path string, v float64) (Ruleset, error) {
	p, err := ParamOf(def, path)
	if err != nil {
		return nil, err
	}
	if err := CheckParam(p, v); err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(r.CanonicalJSON(), &m); err != nil {
		return nil, Reject(CodeBadRuleset, err.Error())
	}
	keys := strings.Split(path, ".")
	obj := m
	for _, k := range keys[:len(keys)-1] {
		next, ok := obj[k].(map[string]any)
		if !ok {
			return nil, Reject(CodeBadRuleset, "no number at "+path)
		}
		obj = next
	}
	obj[keys[len(keys)-1]] = v
	b, err := json.Marshal(m)
	if err != nil {
		return nil, Reject(CodeBadRuleset, err.Error())
	}
	return def.DecodeRuleset(b)
}
