package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Divergence is the first place where an export does not hold together:
// what verification expected (recomputed from the export's own inputs:
// seeds, ruleset, actions) against what the export records.
type Divergence struct {
	// Action is the index of the action being replayed or checked, -1 when
	// the divergence is not tied to one.
	Action int
	// Seq is the log seq of the event concerned, 0 when none.
	Seq uint64
	// Field names what differs: an event field ("DiceRolled.value"), a
	// fairness field ("fairness.serverSeedHex", "fairness.shuffles[3].order[4]"),
	// "rules", "action", "log".
	Field string
	// Expected is the recomputed value, Found the export's.
	Expected, Found string
	// Why, if set, says in words what the difference means.
	Why string
	// Kind, if set, names the kind of tampering a trustless game's
	// divergence shows (TamperLink, TamperReorder, TamperDraw,
	// TamperMissingPending, TamperSignature); it leads Why in the message.
	Kind string
}

func (d *Divergence) Error() string {
	var b bytes.Buffer
	b.WriteString("divergence")
	if d.Action >= 0 {
		fmt.Fprintf(&b, " at action %d", d.Action)
	}
	if d.Seq > 0 {
		fmt.Fprintf(&b, ", event seq %d", d.Seq)
	}
	fmt.Fprintf(&b, ": %s: expected %s, found %s", d.Field, d.Expected, d.Found)
	switch {
	case d.Kind != "" && d.Why != "":
		b.WriteString(" (" + d.Kind + ": " + d.Why + ")")
	case d.Kind != "":
		b.WriteString(" (" + d.Kind + ")")
	case d.Why != "":
		b.WriteString(" (" + d.Why + ")")
	}
	return b.String()
}

// kv is one member of a JSON object, its value compacted.
type kv struct {
	key string
	val string
}

// members returns an object's members in order, or ok = false if b is not
// a JSON object.
func members(b []byte) (out []kv, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			return nil, false
		}
		out = append(out, kv{k, c.String()})
	}
	return out, true
}

// diffEvent compares an event the replay made (want) with the log's entry
// (got), field by field, into nested objects and lists; it returns the
// first differing field ("DiceRolled.value", "FairnessRevealed.fairness.seed"),
// or same when they are the same event in any layout.
func diffEvent(typ string, want, got []byte) (field, expected, found string, same bool) {
	if bytes.Equal(want, got) {
		return "", "", "", true
	}
	return diffValue(typ, want, got)
}

// diffValue compares two JSON values and names the first difference under
// the path.
func diffValue(path string, want, got []byte) (field, expected, found string, same bool) {
	w, okW := members(want)
	g, okG := members(got)
	if okW && okG {
		gm := make(map[string]string, len(g))
		for _, m := range g {
			gm[m.key] = m.val
		}
		for _, m := range w {
			v, ok := gm[m.key]
			if !ok {
				return path + "." + m.key, m.val, "nothing", false
			}
			if f, e, fo, s := diffValue(path+"."+m.key, []byte(m.val), []byte(v)); !s {
				return f, e, fo, false
			}
			delete(gm, m.key)
		}
		for _, m := range g {
			if _, extra := gm[m.key]; extra {
				return path + "." + m.key, "nothing", m.val, false
			}
		}
		return "", "", "", true
	}
	var wl, gl []json.RawMessage
	if json.Unmarshal(want, &wl) == nil && json.Unmarshal(got, &gl) == nil && wl != nil && gl != nil {
		for i := range min(len(wl), len(gl)) {
			if f, e, fo, s := diffValue(path+"["+strconv.Itoa(i)+"]", wl[i], gl[i]); !s {
				return f, e, fo, false
			}
		}
		if len(wl) != len(gl) {
			return path, strconv.Itoa(len(wl)) + " items", strconv.Itoa(len(gl)), false
		}
		return "", "", "", true
	}
	cw, cg := compact(want), compact(got)
	if cw == cg {
		return "", "", "", true
	}
	return path, cw, cg, false
}

// compact returns b's JSON without insignificant space, or b as a quoted
// string if it is not JSON.
func compact(b []byte) string {
	var c bytes.Buffer
	if err := json.Compact(&c, b); err != nil {
		return strconv.Quote(string(b))
	}
	return c.String()
}
