package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// A parameter is one number of a ruleset's JSON, named by its path:
// object keys joined by dots, and an array element selected in brackets
// either by its identifier or by its position:
//
//	startHp                              a top-level number
//	classes.scoutMove                    a key of an object
//	decks[enemy.t1].cards[e1-goblin].hp  an element by identifier
//	composition[2].options[2xT1].weight  ("2" is the table's tier)
//	composition[2].options[1xT2].enemies[#0]  an element by position
//
// An element's identifier is the first of its fields id, choice, outcome,
// tier and index that it has (a deck and a card by id, a composition option
// by choice, a loot outcome by outcome, a table and a zone by tier, a tile
// by index). [#N] selects the N-th element (from 0) of any array, the only
// way into an array of plain numbers.

// node is a JSON value that keeps the order of an object's keys, so that a
// ruleset rewritten with one number changed reads like the original.
type node struct {
	keys []string
	obj  []*node     // values of keys, in order
	arr  []*node     // array elements
	num  json.Number // a number
	lit  any         // string, bool or nil
	kind byte        // 'o', 'a', 'n', 'l'
}

// parseTree decodes JSON into a node tree (numbers kept as written).
func parseTree(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the ruleset's JSON value")
	}
	return n, nil
}

func readNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' {
			n := &node{kind: 'o'}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := readNode(dec)
				if err != nil {
					return nil, err
				}
				n.keys, n.obj = append(n.keys, k.(string)), append(n.obj, v)
			}
			_, err := dec.Token() // '}'
			return n, err
		}
		n := &node{kind: 'a'}
		for dec.More() {
			v, err := readNode(dec)
			if err != nil {
				return nil, err
			}
			n.arr = append(n.arr, v)
		}
		_, err := dec.Token() // ']'
		return n, err
	case json.Number:
		return &node{kind: 'n', num: t}, nil
	default:
		return &node{kind: 'l', lit: t}, nil
	}
}

// write appends the tree as JSON.
func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			n.obj[i].write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	case 'n':
		b.WriteString(n.num.String())
	default:
		lb, _ := json.Marshal(n.lit)
		b.Write(lb)
	}
}

func (n *node) field(key string) *node {
	for i, k := range n.keys {
		if k == key {
			return n.obj[i]
		}
	}
	return nil
}

// idFields name an array element, in order of preference.
var idFields = []string{"id", "choice", "outcome", "tier", "index"}

// ident returns an array element's identifier, or "".
func (n *node) ident() string {
	if n.kind != 'o' {
		return ""
	}
	for _, f := range idFields {
		if v := n.field(f); v != nil {
			switch v.kind {
			case 'n':
				return v.num.String()
			case 'l':
				if s, ok := v.lit.(string); ok {
					return s
				}
			}
		}
	}
	return ""
}

// splitPath splits a path into steps: a key ("classes") or a selector
// ("[e1-goblin]", "[#0]"). Dots inside brackets belong to the selector.
func splitPath(path string) ([]string, error) {
	var steps []string
	for i := 0; i < len(path); {
		switch path[i] {
		case '[':
			j := strings.IndexByte(path[i:], ']')
			if j < 2 {
				return nil, fmt.Errorf("path %q: an unclosed or empty [ ] at byte %d", path, i)
			}
			steps = append(steps, path[i:i+j+1])
			i += j + 1
			if i < len(path) && path[i] != '.' && path[i] != '[' {
				return nil, fmt.Errorf("path %q: want . or [ after ] at byte %d", path, i)
			}
		case '.':
			if i == 0 || i == len(path)-1 || path[i+1] == '.' || path[i+1] == '[' {
				return nil, fmt.Errorf("path %q: an empty key at byte %d", path, i)
			}
			i++
		default:
			j := strings.IndexAny(path[i:], ".[")
			if j < 0 {
				j = len(path) - i
			}
			steps = append(steps, path[i:i+j])
			i += j
		}
	}
	if len(steps) == 0 {
		return nil, fmt.Errorf("empty path")
	}
	return steps, nil
}

// find returns the node at path, or an error naming the first step that
// leads nowhere and what could be there instead.
func (n *node) find(path string) (*node, error) {
	steps, err := splitPath(path)
	if err != nil {
		return nil, err
	}
	cur, at := n, ""
	for _, s := range steps {
		where := at
		if where == "" {
			where = "the ruleset"
		}
		if s[0] == '[' {
			sel := s[1 : len(s)-1]
			if cur.kind != 'a' {
				return nil, fmt.Errorf("path %q: %s is not an array", path, where)
			}
			next := (*node)(nil)
			if strings.HasPrefix(sel, "#") {
				k, err := strconv.Atoi(sel[1:])
				if err != nil || k < 0 || k >= len(cur.arr) {
					return nil, fmt.Errorf("path %q: %s has elements #0..#%d, not %s", path, where, len(cur.arr)-1, sel)
				}
				next = cur.arr[k]
			} else {
				var ids []string
				for _, e := range cur.arr {
					id := e.ident()
					if id == sel {
						next = e
						break
					}
					if id != "" {
						ids = append(ids, id)
					}
				}
				if next == nil {
					return nil, fmt.Errorf("path %q: no element %q in %s (there: %s; or [#N] by position)", path, sel, where, strings.Join(ids, ", "))
				}
			}
			cur, at = next, at+s
			continue
		}
		if cur.kind != 'o' {
			return nil, fmt.Errorf("path %q: %s is not an object (no key %q)", path, where, s)
		}
		next := cur.field(s)
		if next == nil {
			return nil, fmt.Errorf("path %q: no key %q in %s (keys: %s)", path, s, where, strings.Join(cur.keys, ", "))
		}
		if at != "" {
			at += "."
		}
		cur, at = next, at+s
	}
	return cur, nil
}

// Param is one number of a ruleset: its path and value.
type Param struct {
	Path  string
	Value float64
}

// Params lists every number of a ruleset's JSON, in document order, each
// with the path that names it (elements by identifier when they have one
// unique in their array, else by position).
func Params(rulesJSON []byte) ([]Param, error) {
	root, err := parseTree(rulesJSON)
	if err != nil {
		return nil, fmt.Errorf("ruleset: %w", err)
	}
	var out []Param
	var walk func(n *node, path string)
	walk = func(n *node, path string) {
		switch n.kind {
		case 'o':
			for i, k := range n.keys {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(n.obj[i], p)
			}
		case 'a':
			seen := map[string]int{}
			for _, e := range n.arr {
				seen[e.ident()]++
			}
			for i, e := range n.arr {
				sel := "#" + strconv.Itoa(i)
				if id := e.ident(); id != "" && seen[id] == 1 {
					sel = id
				}
				walk(e, path+"["+sel+"]")
			}
		case 'n':
			v, err := n.num.Float64()
			if err == nil {
				out = append(out, Param{Path: path, Value: v})
			}
		}
	}
	walk(root, "")
	return out, nil
}

// ParamValue returns the number at path in a ruleset's JSON, or an error
// naming the path and what is wrong (no such key or element, not a number).
func ParamValue(rulesJSON []byte, path string) (float64, error) {
	root, err := parseTree(rulesJSON)
	if err != nil {
		return 0, fmt.Errorf("ruleset: %w", err)
	}
	n, err := root.find(path)
	if err != nil {
		return 0, err
	}
	if n.kind != 'n' {
		return 0, fmt.Errorf("path %q names %s, not a number", path, describeNode(n))
	}
	return n.num.Float64()
}

func describeNode(n *node) string {
	switch n.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	}
	if s, ok := n.lit.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(n.lit)
}

// FormatNumber writes v as the ruleset would: an integer without a
// decimal point.
func FormatNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// WithParams returns the ruleset with the numbers at the paths set to the
// values, loaded and validated: an unknown path, a path that names no
// number, or a value the ruleset refuses is an error naming it.
func WithParams(rulesJSON []byte, set ...Param) (*engine.Ruleset, error) {
	data, what, err := setParams(rulesJSON, set)
	if err != nil {
		return nil, err
	}
	r, err := engine.LoadRules(data)
	if err != nil {
		return nil, fmt.Errorf("%s: the ruleset refuses it: %w", strings.Join(what, ", "), err)
	}
	return r, nil
}

// ParamsJSON returns the ruleset's JSON with the numbers at the paths set
// to the values, indented, keys in their order: what WithParams loads,
// as a file "gamectl sim --rules" takes. It does not validate the values.
func ParamsJSON(rulesJSON []byte, set ...Param) ([]byte, error) {
	data, _, err := setParams(rulesJSON, set)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// setParams writes the values into the JSON at the paths; what names each
// change, for errors.
func setParams(rulesJSON []byte, set []Param) (data []byte, what []string, err error) {
	root, err := parseTree(rulesJSON)
	if err != nil {
		return nil, nil, fmt.Errorf("ruleset: %w", err)
	}
	for _, p := range set {
		n, err := root.find(p.Path)
		if err != nil {
			return nil, nil, err
		}
		if n.kind != 'n' {
			return nil, nil, fmt.Errorf("path %q names %s, not a number", p.Path, describeNode(n))
		}
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			return nil, nil, fmt.Errorf("%s = %v is not a number", p.Path, p.Value)
		}
		n.num = json.Number(FormatNumber(p.Value))
		what = append(what, p.Path+" = "+FormatNumber(p.Value))
	}
	var b bytes.Buffer
	root.write(&b)
	return b.Bytes(), what, nil
}
