package callable

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type actData struct {
	GameID string   `json:"gameId"`
	Seat   uint8    `json:"seat"`
	Delta  int16    `json:"delta"`
	Cards  []string `json:"cards"`
	Move   struct {
		Kind string  `json:"kind"`
		Bet  float64 `json:"bet"`
	} `json:"move"`
	Ready bool `json:"ready"`
	Moves []struct {
		Kind string `json:"kind"`
	} `json:"moves"`
}

func TestDecodeDataAccepts(t *testing.T) {
	var v actData
	raw := `{"gameId":"g1","seat":3,"delta":-7,"cards":["7H","2C"],"move":{"kind":"bet","bet":2.5},"ready":true}`
	if err := DecodeData(json.RawMessage(raw), &v); err != nil {
		t.Fatal(err)
	}
	if v.GameID != "g1" || v.Seat != 3 || v.Delta != -7 || len(v.Cards) != 2 || v.Move.Kind != "bet" || v.Move.Bet != 2.5 || !v.Ready {
		t.Fatalf("decoded %+v", v)
	}
	// Surrounding whitespace, as the envelope may leave it, is fine.
	if err := DecodeData(json.RawMessage(" {\"seat\":1} \n"), &v); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeDataRejects(t *testing.T) {
	for _, tc := range []struct {
		name, raw, want string
	}{
		{"missing", ``, "data is required"},
		{"null", `null`, "data is required"},
		{"not an object", `[1,2]`, "data must be an object, not array"},
		{"string", `"g1"`, "data must be an object, not string"},
		{"unknown field", `{"gameId":"g1","sneaky":1}`, `unknown field "sneaky"`},
		{"unknown nested field", `{"move":{"kind":"x","card":"7H"}}`, `unknown field "card"`},
		{"wrong type", `{"gameId":7}`, "data.gameId must be a string, not number"},
		{"wrong nested type", `{"move":{"bet":"all"}}`, "data.move.bet must be a number, not string"},
		{"wrong element type", `{"cards":["7H",2]}`, "data.cards must be a string, not number"},
		{"out of range", `{"seat":256}`, "data.seat must be an integer in [0, 255], not number 256"},
		{"negative unsigned", `{"seat":-1}`, "data.seat must be an integer in [0, 255]"},
		{"int16 range", `{"delta":40000}`, "data.delta must be an integer in [-32768, 32767]"},
		{"fraction for int", `{"seat":1.5}`, "data.seat must be an integer in [0, 255], not number 1.5"},
		{"bool as string", `{"ready":"yes"}`, "data.ready must be a boolean, not string"},
		{"duplicate key", `{"seat":1,"seat":2}`, `key "seat" twice`},
		// encoding/json would match these case-insensitively (with Unicode
		// folding: U+017F LATIN SMALL LETTER LONG S folds to "s").
		{"folded duplicate", `{"seat":3,"ſeat":1}`, `unknown field "ſeat"`},
		{"upper case", `{"gameId":"x","GAMEID":"y"}`, `unknown field "GAMEID"`},
		{"other case alone", `{"GameId":"x"}`, `unknown field "GameId"`},
		{"nested other case", `{"move":{"Kind":"x"}}`, `data.move has an unknown field "Kind"`},
		{"other case in an array of objects", `{"moves":[{"kind":"a"},{"KIND":"b"}]}`, `data.moves[1] has an unknown field "KIND"`},
		{"duplicate nested key", `{"move":{"kind":"a","kind":"b"}}`, `key "kind" twice`},
		{"trailing value", `{"seat":1} {"seat":2}`, "content after"},
		{"trailing garbage", `{"seat":1} ]`, "not valid JSON"},
		{"syntax", `{"seat":}`, "not valid JSON"},
		{"truncated", `{"seat":1`, "not valid JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v actData
			err := DecodeData(json.RawMessage(tc.raw), &v)
			var ce *Error
			if !errors.As(err, &ce) || ce.Status != StatusInvalidArgument {
				t.Fatalf("err = %v, want INVALID_ARGUMENT", err)
			}
			if !strings.Contains(ce.Message, tc.want) {
				t.Errorf("message %q lacks %q", ce.Message, tc.want)
			}
		})
	}
}

func TestDecodeDataNonPointerIsProgrammingError(t *testing.T) {
	err := DecodeData(json.RawMessage(`{"seat":1}`), actData{})
	var ce *Error
	if err == nil || errors.As(err, &ce) {
		t.Fatalf("err = %v, want a plain (INTERNAL) error", err)
	}
}

func TestQuoteShortCutsLongKeys(t *testing.T) {
	long := strings.Repeat("é", 100)
	q := quoteShort(long)
	if len(q) > 80 || !strings.HasSuffix(q, `…"`) {
		t.Fatalf("quoteShort = %q", q)
	}
	if q := quoteShort(`a"b`); q != `"a\"b"` {
		t.Fatalf("quoteShort = %s", q)
	}
}

type embeddedPart struct {
	Inner string `json:"inner"`
}

type withEmbedded struct {
	embeddedPart
	Raw   json.RawMessage `json:"raw"`
	Skip  string          `json:"-"`
	Plain string
}

// Exact names follow encoding/json's naming: promoted fields of an
// embedded struct, the Go name when untagged, "-" left out; a value that
// decodes itself (json.RawMessage) is not looked into.
func TestDecodeDataExactNames(t *testing.T) {
	var v withEmbedded
	if err := DecodeData(json.RawMessage(`{"inner":"a","raw":{"ANY":1},"Plain":"p"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.Inner != "a" || string(v.Raw) != `{"ANY":1}` || v.Plain != "p" {
		t.Fatalf("decoded %+v", v)
	}
	for _, raw := range []string{`{"Skip":"x"}`, `{"plain":"p"}`, `{"Inner":"a"}`, `{"-":"x"}`} {
		var ce *Error
		if err := DecodeData(json.RawMessage(raw), &v); !errors.As(err, &ce) || !strings.Contains(ce.Message, "unknown field") {
			t.Errorf("DecodeData(%s) = %v; want an unknown field", raw, err)
		}
	}
}
