package sim

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
)

// realResults returns the JSON of a small real run, with a comparison.
func realResults(t testing.TB) []byte {
	cfg := testConfig(20, 1)
	cfg.B = &Ruleset{Rules: engine.DefaultRules(), Source: "copy"}
	o, err := Run(t.Context(), cfg, nil)
	require.NoError(t, err)
	b, err := json.Marshal(NewResults(cfg, o, nil))
	require.NoError(t, err)
	return b
}

func TestParseResultsRejectsCorruptFiles(t *testing.T) {
	good := string(realResults(t))
	_, err := ParseResults([]byte(good))
	require.NoError(t, err)
	for name, bad := range map[string]string{
		"null combat":   strings.Replace(good, `"combats":{`, `"combats":{"t9":null,`, 1),
		"null class":    strings.Replace(good, `"class":{`, `"class":{"wizard":null,`, 1),
		"negative":      strings.Replace(good, `"games":20,`, `"games":-20,`, 1),
		"format":        strings.Replace(good, Format, "fairboard-sim/0", 1),
		"no tally":      strings.Replace(good, `"tally":{`, `"tallyX":{`, 1),
		"range":         strings.Replace(good, `"range":[0,20]`, `"range":[0,30]`, 1),
		"null paired":   strings.Replace(good, `"paired":{`, `"paired":{"x":null,`, 1),
		"lonely tallyB": strings.Replace(good, `"compareWith":`, `"compareWithX":`, 1),
	} {
		require.NotEqualf(t, good, bad, "%s: the corruption must apply", name)
		_, err := ParseResults([]byte(bad))
		require.Errorf(t, err, "%s", name)
	}
}

// FuzzParseResults: no results.json, however corrupt, makes parsing,
// merging or rendering panic.
func FuzzParseResults(f *testing.F) {
	good := realResults(f)
	f.Add(good)
	f.Add([]byte(`{"format":"` + Format + `","config":{"games":1,"players":1,"shards":1},"range":[0,1],"tally":{}}`))
	f.Add([]byte(`{"format":"` + Format + `","config":{"games":1,"players":16,"shards":1},"range":[0,1],"done":1,"tally":{"seat":[{"played":1}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseResults(data)
		if err != nil {
			return
		}
		m, err := Merge([]*Results{r})
		if err != nil {
			return
		}
		m.reportHTML()
		m.measuresCSV()
		m.roundsCSV()
	})
}
