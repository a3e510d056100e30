package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/strictjson"
)

// A ruleset file is decoded strictly: each case edits the embedded default
// (engine/rules/default.json) and expects the error at the line and column
// of the edit, counted by hand in that file.
func TestLoadRulesIsStrict(t *testing.T) {
	def := string(engine.DefaultRulesJSON())
	for _, c := range []struct {
		name, old, new string
		line, col      int
		want           string
	}{
		// line 6 is `  "maxHp": 10,`: the key starts at column 3.
		{"key in another case", `"maxHp": 10,`, `"MaxHP": 10,`, 6, 3, `unknown key "MaxHP" (did you mean "maxHp"?`},
		// line 8 is `  "capacity": 4,`: the repeated key follows `"capacity": 4, ` at column 18.
		{"duplicate key", `"capacity": 4,`, `"capacity": 4, "capacity": 9,`, 8, 18, `duplicate key "capacity" (first at line 8, column 3)`},
		{"unknown key", `"capacity": 4,`, `"capacity": 4, "capacityy": 5,`, 8, 18, `unknown key "capacityy"`},
		// line 16 is `  "dice": {"move": 4, ...`: "move" starts at column 12.
		{"nested key in another case", `"dice": {"move": 4,`, `"dice": {"Move": 4,`, 16, 12, `dice: unknown key "Move"`},
		{"duplicate nested key", `"dice": {"move": 4,`, `"dice": {"move": 4, "move": 5,`, 16, 23, `dice: duplicate key "move"`},
		// a missing comma after `"capacity": 4`: the error is at the next key, line 9 column 3.
		{"syntax error", `"capacity": 4,`, `"capacity": 4`, 9, 3, "syntax error: invalid character '\"' after object key:value pair"},
		{"wrong type", `"roundLimit": 40,`, `"roundLimit": "40",`, 13, 17, `roundLimit: want a whole number (64-bit), found the string "40"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			edited := strings.Replace(def, c.old, c.new, 1)
			require.NotEqual(t, def, edited, "the edit must apply")
			_, err := engine.LoadRules([]byte(edited))
			var e *strictjson.Error
			require.Truef(t, errors.As(err, &e), "want a positioned decoding error, got %v", err)
			require.Equal(t, [2]int{c.line, c.col}, [2]int{e.Line, e.Column}, "%v", err)
			require.Contains(t, err.Error(), c.want)
		})
	}
	_, err := engine.LoadRules([]byte(def + "\n{}"))
	require.ErrorContains(t, err, "after the top-level value")
}
