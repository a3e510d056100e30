package store_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fairboard/fairboard/audit"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
)

// The direct conversion (ToDoc, FromDoc, JSONToDoc) is held to the JSON
// round trip that wrote every stored document before it (ToDocJSON,
// FromDocJSON, JSONToDocStd, kept for this): the same documents, field
// for field, with the same integer and float types, and the same values
// decoded, for every state, event, record and applied action of whole
// games in every mode, for a table of every rule of encoding/json the walk
// follows or hands back to it, and for fuzzed values.

// sameDoc fails unless new and old converted v alike: equal documents
// (reflect.DeepEqual: int64 is not float64, nil is not []any{}), or both
// refused, ErrInvalid for the same values.
func sameDoc(t *testing.T, what string, v any) map[string]any {
	t.Helper()
	got, err := store.ToDoc(v)
	want, werr := store.ToDocJSON(v)
	// The memory store's check of its JSON (always an object) refuses the
	// integers ToDoc refuses.
	if b, merr := json.Marshal(v); merr == nil {
		outside := werr != nil && strings.Contains(werr.Error(), "outside int64")
		if cerr := store.CheckStorable(b); errors.Is(cerr, store.ErrInvalid) != outside {
			t.Fatalf("%s: CheckStorable %v, the JSON round trip %v", what, cerr, werr)
		}
	}
	switch {
	case (err == nil) != (werr == nil):
		t.Fatalf("%s: ToDoc error %v, the JSON round trip's %v", what, err, werr)
	case err != nil:
		if errors.Is(err, store.ErrInvalid) != errors.Is(werr, store.ErrInvalid) {
			t.Fatalf("%s: ToDoc error %v, the JSON round trip's %v (ErrInvalid differs)", what, err, werr)
		}
		return nil
	case !reflect.DeepEqual(got, want):
		t.Fatalf("%s: ToDoc\n%#v\nthe JSON round trip\n%#v", what, got, want)
	}
	return got
}

// sameDecode fails unless FromDoc and the JSON round trip decode doc into
// a fresh T alike (compared through their JSON and reflect.DeepEqual).
func sameDecode[T any](t *testing.T, what string, doc map[string]any) {
	t.Helper()
	var got, want T
	err := store.FromDoc(doc, &got)
	werr := store.FromDocJSON(doc, &want)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%s: FromDoc error %v, the JSON round trip's %v", what, err, werr)
	}
	// A refused document leaves a value partly filled, differently (the
	// callers discard it): compare what both accepted.
	if err == nil && !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s: FromDoc\n%s\nthe JSON round trip\n%s", what, g, w)
	}
}

// TestConversionOfWholeGames: every document the stores write, after every
// action of whole bot games in each mode (2 to 6 players, audit on), is
// what the JSON round trip wrote, and reads back the same.
func TestConversionOfWholeGames(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	docs := 0
	games := []struct {
		mode string
		n    int
	}{{"seeded", 2}, {"crypto", 4}, {"fair", 6}, {"seeded", 5}}
	trustless := []int{2, 4}
	if raceEnabled { // the same code paths, fewer games
		games, trustless = games[:3], trustless[:1]
	}
	for _, tc := range games {
		seats := make([]bot.Seat, tc.n)
		for i, c := range policy.DefaultClasses(tc.n) {
			seats[i] = bot.Seat{Class: c, Policy: []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[i%2]}
		}
		var drawn []rng.Entry
		cfg := bot.Config{Create: engine.Action{GameID: "conv-" + tc.mode, Mode: tc.mode, Audit: true}}
		if tc.mode == "seeded" {
			cfg.Create.Seed = fmt.Sprintf("conv-%d", tc.n)
		} else {
			cfg.Create.ServerSeed = strings.Repeat("ab", 32)
		}
		if tc.mode == "fair" {
			cfg.Entropy = []string{"9f86d081884c7d65", "", "00"}
		}
		cfg.Auditor = auditorFunc(func(e rng.Entry) { drawn = append(drawn, e) })
		version := uint64(0)
		cfg.After = func(g *engine.Game, events []engine.Event) error {
			what := fmt.Sprintf("%s %d players, version %d", tc.mode, tc.n, g.Public.Version)
			sameState(t, what, g, events)
			es := audit.Stamp(drawn, 1_760_000_000_000)
			rec := store.Record{ActionID: "a", Actor: "p1", Kind: engine.ActMove, Fingerprint: "f", Version: g.Public.Version,
				Events: events, Audit: es, Ringed: len(es) > 0}
			sameDecode[store.Record](t, what+" record", sameDoc(t, what+" record", &rec))
			for _, e := range es {
				sameDecode[audit.Entry](t, what+" audit entry", sameDoc(t, what+" audit entry", e))
			}
			ap := store.AppliedAction{Version: version, Action: engine.Action{Kind: engine.ActMove, Actor: "p1", ID: "p1:a", At: 17, Entropy: "00"}}
			sameDecode[store.AppliedAction](t, what+" applied", sameDoc(t, what+" applied", &ap))
			version = g.Public.Version
			drawn = drawn[:0]
			docs++
			return nil
		}
		var g engine.Game
		if err := r.PlayWith(&g, cfg, seats); err != nil {
			t.Fatalf("%s: %v", tc.mode, err)
		}
		if g.Public.Phase != engine.PhaseFinished {
			t.Fatalf("%s: game ended in %s", tc.mode, g.Public.Phase)
		}
	}
	// Trustless games: chains, keys, pending actions, held links, piles.
	for _, n := range trustless {
		seats := make([]bot.Seat, n)
		for i, c := range policy.DefaultClasses(n) {
			seats[i] = bot.Seat{Class: c, Policy: []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[i%2]}
		}
		var g engine.Game
		_, err := r.PlayTrustless(&g, bot.TrustlessConfig{GameID: fmt.Sprint("conv-trustless-", n),
			After: func(g *engine.Game, events []engine.Event) error {
				what := fmt.Sprintf("trustless %d players, version %d", n, g.Public.Version)
				sameState(t, what, g, events)
				docs++
				return nil
			}}, seats)
		if err != nil {
			t.Fatalf("trustless %d: %v", n, err)
		}
	}
	if docs < 500 {
		t.Errorf("only %d actions checked", docs)
	}
}

// sameState checks a game's public and secret state and the events of its
// last action, each converted and decoded, against the JSON round trip.
func sameState(t *testing.T, what string, g *engine.Game, events []engine.Event) {
	t.Helper()
	sameDecode[engine.Public](t, what+" public", sameDoc(t, what+" public", &g.Public))
	sameDecode[engine.Secret](t, what+" secret", sameDoc(t, what+" secret", &g.Secret))
	for i := range events {
		b := events[i].AppendJSON(nil)
		got, err := store.JSONToDoc(b)
		want, werr := store.JSONToDocStd(b)
		if err != nil || werr != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s event %s: JSONToDoc %#v (%v), the standard decode %#v (%v)", what, b, got, err, want, werr)
		}
		sameDecode[engine.Event](t, what+" event", got)
	}
}

type auditorFunc func(rng.Entry)

func (f auditorFunc) Record(e rng.Entry) { f(e) }

// Types for the table of rules.
type (
	valZero   struct{ N int }
	ptrZero   struct{ N int }
	valText   struct{ S string }
	ptrText   struct{ S string }
	valJSON   struct{ S string }
	ptrJSON   struct{ S string }
	inner     struct{ X int }
	embedding struct {
		inner
		Y int `json:"y"`
	}
	stringOpt struct {
		N int `json:"n,string"`
	}
)

func (z valZero) IsZero() bool                  { return z.N == 7 }
func (z *ptrZero) IsZero() bool                 { return z.N == 7 }
func (x valText) MarshalText() ([]byte, error)  { return []byte("t:" + x.S), nil }
func (x *ptrText) MarshalText() ([]byte, error) { return []byte("p:" + x.S), nil }
func (x valJSON) MarshalJSON() ([]byte, error) {
	q, _ := json.Marshal(x.S)
	return []byte(`{"v":[1,2.5,` + string(q) + `]}`), nil
}
func (x *ptrJSON) MarshalJSON() ([]byte, error) {
	return []byte(`{"p":` + fmt.Sprint(len(x.S)) + `}`), nil
}
func (x *valText) UnmarshalText(b []byte) error {
	x.S = strings.TrimPrefix(string(b), "t:")
	return nil
}
func (x *ptrJSON) UnmarshalJSON(b []byte) error { x.S = string(b); return nil }
func (x *ptrText) UnmarshalText(b []byte) error { x.S = string(b); return nil }
func (x *valJSON) UnmarshalJSON(b []byte) error { x.S = strings.ToUpper(string(b)); return nil }

// everything has a field of each kind the rules treat apart.
type everything struct {
	B     bool              `json:"b"`
	BE    bool              `json:"be,omitempty"`
	I     int               `json:"i"`
	I8    int8              `json:"i8,omitempty"`
	U     uint64            `json:"u"`
	U8    uint8             `json:"u8"`
	F     float64           `json:"f"`
	F32   float32           `json:"f32"`
	S     string            `json:"s"`
	SE    string            `json:"se,omitempty"`
	P     *int              `json:"p"`
	PE    *int              `json:"pe,omitempty"`
	L     []string          `json:"l"`
	LE    []string          `json:"le,omitempty"`
	Bytes []byte            `json:"bytes"`
	Arr   [3]int            `json:"arr"`
	ArrE  [0]int            `json:"arre,omitempty"`
	M     map[string]int    `json:"m"`
	MI    map[int]string    `json:"mi"`
	MT    map[valText]int   `json:"mt"`
	ME    map[string]int    `json:"me,omitempty"`
	Any   any               `json:"any"`
	AnyE  any               `json:"anye,omitempty"`
	Num   json.Number       `json:"num"`
	Raw   json.RawMessage   `json:"raw"`
	VZ    valZero           `json:"vz,omitzero"`
	PZ    ptrZero           `json:"pz,omitzero"`
	ZS    struct{ A int }   `json:"zs,omitzero"`
	VT    valText           `json:"vt"`
	PT    ptrText           `json:"pt"`
	PTP   *ptrText          `json:"ptp"`
	VJ    valJSON           `json:"vj"`
	PJ    ptrJSON           `json:"pj"`
	PJP   *ptrJSON          `json:"pjp"`
	Emb   embedding         `json:"emb"`
	Str   stringOpt         `json:"str"`
	Nest  map[string][]*int `json:"nest"`
	Skip  int               `json:"-"`
	Dash  int               `json:"-,"`
	NoTag int
	priv  int
}

// TestConversionRules: a value of every kind and option encoding/json
// treats apart, including those the walk hands back to it (a MarshalJSON,
// an embedded struct, ",string", float32, json.Number), converts and
// decodes as the JSON round trip did; and the values it refuses are
// refused alike.
func TestConversionRules(t *testing.T) {
	one, seven := 1, 7
	full := everything{B: true, BE: true, I: -5, I8: -8, U: math.MaxInt64, U8: 255, F: 2.5, F32: 0.1, S: "é\u2028<&>",
		SE: "x", P: &one, PE: &seven, L: []string{}, LE: []string{"a"}, Bytes: []byte{0, 1, 254}, Arr: [3]int{1, 2, 3},
		M: map[string]int{"a": 1}, MI: map[int]string{-3: "m"}, MT: map[valText]int{{"k"}: 1}, ME: map[string]int{},
		Any: []any{1, "two", 3.5, nil, map[string]any{"x": true}}, AnyE: 0, Num: "12", Raw: json.RawMessage(`{"r":[1,{"s":2}]}`),
		VZ: valZero{7}, PZ: ptrZero{3}, ZS: struct{ A int }{1}, VT: valText{"v"}, PT: ptrText{"p"}, PTP: &ptrText{"pp"},
		VJ: valJSON{"j"}, PJ: ptrJSON{"abc"}, PJP: &ptrJSON{"xy"}, Emb: embedding{inner{4}, 5}, Str: stringOpt{9},
		Nest: map[string][]*int{"n": {nil, &one}}, Skip: 3, Dash: 4, NoTag: 5, priv: 6}
	values := map[string]any{
		"zero value":      &everything{},
		"every field set": &full,
		"by value":        full,
		"map at the top":  map[string]any{"a": []any{uint8(3), float32(1.5), int16(-2)}, "b": nil},
		"nil pointer":     (*everything)(nil),
	}
	for _, f := range []float64{0, math.Copysign(0, -1), 3, -3, 0.1, 1e-7, 1e-6, 123456789.5, 1e15, 1 << 53, 1<<63 - 1024, 1 << 63, 1e20, 1e21, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		values[fmt.Sprintf("float %g", f)] = &struct {
			F float64 `json:"f"`
		}{f}
	}
	for _, s := range []string{"\xff", "a\xc3", "\xed\xa0\x80 surrogate", "ok\x00nul", strings.Repeat("\xe2\x82", 3)} {
		values[fmt.Sprintf("string %q", s)] = &struct{ S, T string }{s, "t"}
		values[fmt.Sprintf("key %q", s)] = map[string]int{s: 1}
	}
	for _, bad := range []any{
		&struct{ U uint64 }{math.MaxUint64},
		&struct{ U uint }{1 << 63},
		&struct{ F float64 }{math.NaN()},
		&struct{ F float64 }{math.Inf(-1)},
		&struct{ C chan int }{},
		&struct{ F func() }{},
		[]int{1},
		"not an object",
	} {
		values[fmt.Sprintf("refused %T", bad)] = bad
	}
	// Two fields with one JSON name: encoding/json keeps neither. (Built
	// at run time: vet refuses the repeated tag in source.)
	dup := reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
		{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
		{Name: "C", Type: reflect.TypeFor[int](), Tag: `json:"c"`},
	})
	dv := reflect.New(dup)
	dv.Elem().Field(0).SetInt(1)
	dv.Elem().Field(1).SetInt(2)
	values["two fields, one name"] = dv.Interface()
	for name, v := range values {
		t.Run(name, func(t *testing.T) {
			doc := sameDoc(t, name, v)
			if doc != nil {
				sameDecode[everything](t, name, doc)
				sameDecode[map[string]any](t, name, doc)
			}
		})
	}
}

// TestDecodeRules: documents as a database may hold them, beyond what
// ToDoc writes (floats where ints are, keys in another case, nulls, wrong
// types, values no document holds), decode as the JSON round trip did, or
// fail alike.
func TestDecodeRules(t *testing.T) {
	for i, doc := range []map[string]any{
		{"i": 3.0, "u": 12.0, "i8": int64(300), "u8": int64(-1)},
		{"I": int64(1), "B": true, "S": "x", "NoTag": int64(2), "notag": int64(3)},
		{"p": nil, "l": nil, "m": nil, "any": nil, "b": nil, "vt": nil, "pj": nil},
		{"i": "1"}, {"l": "x"}, {"m": []any{}}, {"arr": []any{int64(1)}}, {"arr": []any{int64(1), int64(2), int64(3), int64(4)}},
		{"bytes": "AAH+"}, {"bytes": "!!"}, {"any": map[string]any{"n": int64(5), "l": []any{int64(1), 2.5}}},
		{"vt": "t:x", "pt": "y", "ptp": "z", "vj": map[string]any{"q": int64(1)}, "pj": "s", "pjp": nil},
		{"mi": map[string]any{"7": "a"}}, {"mi": map[string]any{"x": "a"}}, {"mt": map[string]any{"t:k": int64(2)}},
		{"num": int64(12)}, {"num": "12"}, {"raw": map[string]any{"a": []any{}}}, {"f32": 0.1}, {"str": map[string]any{"n": "5"}},
		{"emb": map[string]any{"X": int64(1), "y": int64(2)}}, {"u": 1e19}, {"u": -1.0}, {"f": int64(1) << 62},
		{"c": make(chan int)}, {"nest": map[string]any{"n": []any{nil, int64(4)}}}, {"vz": map[string]any{"N": int64(7)}},
	} {
		sameDecode[everything](t, fmt.Sprintf("document %d %v", i, doc), doc)
	}
}

// TestJSONToDocRules: the one-pass parser reads what the standard decode
// reads, refuses what it refuses, and keeps integers exact.
func TestJSONToDocRules(t *testing.T) {
	// Trailing data after the object: the standard decode read the first
	// value and ignored the rest; the parser refuses it (every caller
	// passes one JSON object, and anything after it is a fault).
	if _, err := store.JSONToDoc([]byte(`{"a":1} x`)); err == nil {
		t.Errorf("JSONToDoc accepted trailing data")
	}
	for _, in := range []string{
		`{}`, `{"a":1}`, ` { "a" : [ 1 , 2.0 , -0 , 1e2 , 1E-2 , -1.5e+3 ] } `, `{"a":"\u00e9\ud83d\ude00\n\"\\\/","b":"\ud800"}`,
		`{"a":9223372036854775807,"b":-9223372036854775808}`, `{"a":9223372036854775808}`, `{"a":1e400}`,
		`{"a":{"b":{"c":[[],{},null,true,false]}}}`, `{"a":"\xff\xfe"}`, `{"a":1,"a":2}`,
		`[1]`, `"s"`, `1`, `null`, ``, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`,
		`{"a":1e}`, `{"a":tru}`, `{"a":"x}`, "{\"a\":\"\x01\"}", `{"a":[1 2]}`, `{'a':1}`, `{"a":"\x"}`,
	} {
		got, err := store.JSONToDoc([]byte(in))
		want, werr := store.JSONToDocStd([]byte(in))
		if (err == nil) != (werr == nil) || errors.Is(err, store.ErrInvalid) != errors.Is(werr, store.ErrInvalid) || !reflect.DeepEqual(got, want) {
			t.Errorf("JSONToDoc(%s) = %#v, %v; the standard decode %#v, %v", in, got, err, want, werr)
		}
	}
}

// FuzzConversion: any JSON that decodes into everything gives a value
// whose conversion and decoding match the JSON round trip's, and any bytes
// give JSONToDoc the standard decode's answer.
func FuzzConversion(f *testing.F) {
	for _, s := range []string{`{"b":true,"i":-3,"f":1.5,"s":"\u00e9","l":["a"],"m":{"k":2},"any":[1,{"x":null}]}`,
		`{"u":18446744073709551615}`, `{"f":1e20}`, `{"bytes":"AAE=","arr":[1,2,3],"vt":"t:q","pj":{"a":1}}`,
		`{"mi":{"5":"x"},"nest":{"n":[null,3]},"num":7,"raw":[1]}`, `{"a":"\xff"}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(fuzzOne)
}

func fuzzOne(t *testing.T, b []byte) {
	{
		got, err := store.JSONToDoc(b)
		want, werr := store.JSONToDocStd(b)
		if err != nil && werr == nil && trailing(b) {
			return // refused on purpose (TestJSONToDocRules)
		}
		if (err == nil) != (werr == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("JSONToDoc(%q) = %#v, %v; the standard decode %#v, %v", b, got, err, want, werr)
		}
		var v everything
		if json.Unmarshal(b, &v) != nil {
			return
		}
		if doc := sameDoc(t, "fuzzed", &v); doc != nil {
			sameDecode[everything](t, "fuzzed", doc)
		}
		if got != nil {
			sameDecode[everything](t, "fuzzed document", got)
		}
	}
}

// trailing reports whether b holds something after its first JSON value.
func trailing(b []byte) bool {
	d := json.NewDecoder(strings.NewReader(string(b)))
	var v any
	if d.Decode(&v) != nil {
		return false
	}
	return d.More() || d.InputOffset() < int64(len(strings.TrimRight(string(b), " \t\r\n")))
}
