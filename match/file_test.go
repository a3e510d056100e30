package match_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// played returns the JSON record of a whole peek game in mode.
func played(t *testing.T, mode rng.Mode) []byte {
	t.Helper()
	var audit []rng.Entry
	cfg := match.PlayConfig{Config: match.Config{Mode: mode, Seats: make([]game.Seat, 2),
		Auditor: rng.AuditorFunc(func(e rng.Entry) { audit = append(audit, e) })}, Bots: []string{"random"}, BotSeed: "b"}
	if mode == rng.ModeSeeded {
		cfg.Seed = "rec"
	}
	m, _, err := match.Play(peek{}, cfg)
	require.NoError(t, err)
	r, err := match.NewRecord(m, audit)
	require.NoError(t, err)
	b, err := json.Marshal(r)
	require.NoError(t, err)
	return b
}

// edit decodes a record's JSON, lets f change it, and encodes it again.
func edit(t *testing.T, b []byte, f func(map[string]any)) []byte {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v))
	f(v)
	out, err := json.Marshal(v)
	require.NoError(t, err)
	return out
}

func check(t *testing.T, b []byte) (divergence, err error) {
	t.Helper()
	r, err := match.ReadRecord(b)
	if err != nil {
		return nil, err
	}
	return match.CheckRecord(peek{}, r)
}

// A record replays to itself, seeded and crypto; every change to what it
// says the game gave is a divergence that names it, and a record that
// cannot be replayed is an error (never a panic).
func TestRecordReplaysAndCatchesChanges(t *testing.T) {
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeCrypto} {
		b := played(t, mode)
		require.True(t, match.IsRecord(b))
		d, err := check(t, b)
		require.NoError(t, err, mode)
		require.NoError(t, d, mode)

		diverge := map[string]func(map[string]any){
			"log entry 3": func(v map[string]any) {
				v["log"].([]any)[2].(map[string]any)["card"] = 9
			},
			"the number of log entries": func(v map[string]any) { v["log"] = v["log"].([]any)[:2] },
			"the final state":           func(v map[string]any) { v["stateSha256"] = strings.Repeat("0", 64) },
		}
		if mode == rng.ModeSeeded {
			diverge["audit entry 1"] = func(v map[string]any) {
				v["audit"].([]any)[0].(map[string]any)["tag"] = "peek.other"
			}
		}
		for want, f := range diverge {
			d, err := check(t, edit(t, b, f))
			require.NoError(t, err, want)
			require.ErrorContains(t, d, want, mode)
		}
		refused := map[string]func(map[string]any){
			"move 1 (guess by seat 1)": func(v map[string]any) {
				v["moves"].([]any)[0] = `{"seat":1,"kind":"guess","card":1}`
			},
			"is not in canonical form": func(v map[string]any) {
				v["moves"].([]any)[0] = `{"kind":"guess","seat":0,"card":1}`
			},
			`unknown move kind "fold"`: func(v map[string]any) { v["moves"].([]any)[0] = `{"seat":0,"kind":"fold"}` },
			`a move needs a whole-number "seat"`: func(v map[string]any) {
				v["moves"].([]any)[0] = `{"kind":"guess","card":1}`
			},
			`a record of "pig", not "peek"`: func(v map[string]any) { v["game"] = "pig" },
			"rules: ":                       func(v map[string]any) { v["rules"] = map[string]any{"goal": 1} },
		}
		for want, f := range refused {
			_, err := check(t, edit(t, b, f))
			require.ErrorContains(t, err, want, mode)
		}
	}
	// A crypto record's draws: out of range, short or left over.
	b := played(t, rng.ModeCrypto)
	for want, f := range map[string]func(map[string]any){
		"outside [0, 4]":           func(v map[string]any) { v["draws"].([]any)[0] = 7 },
		"past the end":             func(v map[string]any) { v["draws"] = v["draws"].([]any)[:2] },
		"1 of 5 draws left unused": func(v map[string]any) { v["draws"] = append(v["draws"].([]any), 0) },
	} {
		_, err := check(t, edit(t, b, f))
		require.ErrorContains(t, err, want)
	}
}

func TestReadRecordRefusals(t *testing.T) {
	b := played(t, rng.ModeSeeded)
	for want, data := range map[string][]byte{
		`unknown field "extra"`:          edit(t, b, func(v map[string]any) { v["extra"] = 1 }),
		"trailing data":                  append(append([]byte{}, b...), []byte(" {}")...),
		`format "fairboard-game/v0"`:     edit(t, b, func(v map[string]any) { v["format"] = "fairboard-game/v0" }),
		"names no game":                  edit(t, b, func(v map[string]any) { delete(v, "game") }),
		"a seeded record without a seed": edit(t, b, func(v map[string]any) { delete(v, "seed") }),
		"a crypto record with a seed":    edit(t, b, func(v map[string]any) { v["mode"] = "crypto" }),
		`mode "dice"`:                    edit(t, b, func(v map[string]any) { v["mode"] = "dice" }),
		"a trustless record without a trustless game's protocol": edit(t, b, func(v map[string]any) { v["mode"] = "trustless" }),
		"a fair record without its fairness":                     edit(t, b, func(v map[string]any) { v["mode"] = "fair" }),
		"a seeded record with a fair game's fairness": edit(t, b, func(v map[string]any) {
			v["fairness"] = map[string]any{"commitmentHex": "", "serverSeedHex": "", "contributionsHex": []string{}}
		}),
		"a fair record's seed is its game seed": edit(t, b, func(v map[string]any) {
			v["mode"] = "fair"
			v["fairness"] = map[string]any{"commitmentHex": "", "serverSeedHex": "", "contributionsHex": []string{}}
		}),
		"a seeded record with draws": edit(t, b, func(v map[string]any) { v["draws"] = []int{1} }),
		"stateSha256 must be 64":     edit(t, b, func(v map[string]any) { v["stateSha256"] = "ab" }),
		"1 seat options for 2 seats": edit(t, b, func(v map[string]any) { v["seatOptions"] = [][]string{{"x"}} }),
		"seats 0":                    edit(t, b, func(v map[string]any) { v["seats"] = 0 }),
		"not a game record":          []byte(`[1,2]`),
	} {
		_, err := match.ReadRecord(data)
		require.ErrorContains(t, err, want)
	}
	require.False(t, match.IsRecord([]byte(`{"format":"fairboard-export/v1"}`)))
}
