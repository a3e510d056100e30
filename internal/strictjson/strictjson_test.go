package strictjson

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

type inner struct {
	Tier int    `json:"tier"`
	Name string `json:"name,omitempty"`
}

type doc struct {
	MaxHP  int               `json:"maxHp"`
	Weight float64           `json:"weight"`
	On     bool              `json:"on"`
	Zones  []inner           `json:"zones"`
	Pair   [2]int            `json:"pair"`
	Extra  map[string]int    `json:"extra"`
	Raw    json.RawMessage   `json:"raw"`
	Any    any               `json:"any"`
	Ptr    *inner            `json:"ptr"`
	Skip   int               `json:"-"`
	Plain  string            // no tag: its Go name
	Nested map[string]*inner `json:"nested"`
	hidden int
}

func TestUnmarshalAcceptsWhatEncodingJSONWrites(t *testing.T) {
	in := doc{MaxHP: 10, Weight: 2.5, On: true, Zones: []inner{{1, "a"}, {2, ""}}, Pair: [2]int{3, 4},
		Extra: map[string]int{"x": 1}, Raw: json.RawMessage(`{"a":[1,{"b":null}]}`), Any: map[string]any{"k": "v"},
		Ptr: &inner{Tier: 3}, Plain: "p", Nested: map[string]*inner{"n": {Tier: 1}}}
	b, err := json.Marshal(in)
	require.NoError(t, err)
	var out doc
	require.NoError(t, Unmarshal(b, &out))
	in.hidden = 0
	require.Equal(t, in, out)
	// null is accepted everywhere, as encoding/json accepts it.
	require.NoError(t, Unmarshal([]byte(`{"maxHp":null,"zones":[null],"ptr":null}`), &out))
}

// Every error names its line and column (counted by hand in each input,
// 1-based, in characters) and says what is wrong.
func TestUnmarshalErrors(t *testing.T) {
	for _, c := range []struct {
		name, in   string
		line, col  int
		path, want string
	}{
		{"wrong case", "{\n  \"MaxHP\": 3\n}", 2, 3, "", `unknown key "MaxHP" (did you mean "maxHp"? keys are case-sensitive)`},
		{"unknown", `{"maxHp": 3, "bogus": 1}`, 1, 14, "", `unknown key "bogus"`},
		{"duplicate", "{\"maxHp\": 3,\n \"maxHp\": 4}", 2, 2, "", `duplicate key "maxHp" (first at line 1, column 2)`},
		{"nested unknown", "{\"zones\": [{\"tier\": 1},\n  {\"Tier\": 2}]}", 2, 4, "zones[1]", `unknown key "Tier"`},
		{"nested duplicate", `{"ptr": {"tier": 1, "tier": 1}}`, 1, 21, "ptr", `duplicate key "tier"`},
		{"duplicate in a map", `{"extra": {"a": 1, "a": 2}}`, 1, 20, "extra", `duplicate key "a"`},
		{"duplicate in raw", `{"raw": {"a": 1, "a": 2}}`, 1, 18, "raw", `duplicate key "a"`},
		{"duplicate in any", `{"any": [{"a": 1, "a": 2}]}`, 1, 19, "any[0]", `duplicate key "a"`},
		{"string for int", "{\n\t\"maxHp\": \"ten\"}", 2, 11, "maxHp", `want a whole number (64-bit), found the string "ten"`},
		{"fraction for int", `{"zones": [{"tier": 1.5}]}`, 1, 21, "zones[0].tier", "want a whole number (64-bit), found 1.5"},
		{"object for slice", `{"zones": {}}`, 1, 11, "zones", "want an array, found an object"},
		{"array for struct", `{"ptr": []}`, 1, 9, "ptr", "want an object, found an array"},
		{"bool for string", `{"Plain": true}`, 1, 11, "Plain", "want a string, found true"},
		{"number for bool", `{"on": 1}`, 1, 8, "on", "want true or false, found the number 1"},
		{"skipped field", `{"Skip": 1}`, 1, 2, "", `unknown key "Skip"`},
		{"unexported field", `{"hidden": 1}`, 1, 2, "", `unknown key "hidden"`},
		{"syntax: missing comma", "{\"maxHp\": 3\n \"on\": true}", 2, 2, "", "syntax error"},
		{"syntax: bad literal", `{"on": tru}`, 1, 11, "", "syntax error"},
		{"syntax: multi-byte before", "{\"Plain\": \"é\", \"on\": x}", 1, 22, "", "syntax error"},
		{"trailing data", "{}\n{}", 2, 1, "", "after the top-level value"},
		{"empty", "", 1, 1, "", "unexpected end of the document"},
		{"truncated", "{\"maxHp\": 3,\n", 2, 1, "", "unexpected end of the document"},
		{"top level not an object", `[1]`, 1, 1, "", "want an object, found an array"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var d doc
			err := Unmarshal([]byte(c.in), &d)
			var e *Error
			require.Truef(t, errors.As(err, &e), "want *Error, got %v", err)
			require.Equal(t, c.line, e.Line, "line: %v", err)
			require.Equal(t, c.col, e.Column, "column: %v", err)
			require.Equal(t, c.path, e.Path, "%v", err)
			require.Contains(t, e.Msg, c.want)
		})
	}
}

func TestUnmarshalNeedsAPointer(t *testing.T) {
	var d doc
	require.Error(t, Unmarshal([]byte(`{}`), d))
	require.Error(t, Unmarshal([]byte(`{}`), (*doc)(nil)))
}

// FuzzUnmarshal: no input makes the decoder panic, and whatever it accepts
// encoding/json accepts too, with the same result.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(`{"maxHp":3,"zones":[{"tier":1}],"extra":{"a":1},"raw":{"x":[1,2]}}`))
	f.Add([]byte(`{"MaxHP":3}`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte("{\n\"on\": tru}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var strict, lax doc
		if err := Unmarshal(data, &strict); err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 || e.Column < 1 {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		if err := json.Unmarshal(data, &lax); err != nil {
			t.Fatalf("strict accepted what encoding/json refuses: %v", err)
		}
		a, _ := json.Marshal(strict)
		b, _ := json.Marshal(lax)
		if string(a) != string(b) {
			t.Fatalf("strict %s, encoding/json %s", a, b)
		}
	})
}
