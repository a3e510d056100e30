package export_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/export/exporttest"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/tools/bot"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/shuffles"
)

var serverSeed = strings.Repeat("9c", 32)

func seats(n int) []bot.Seat {
	out := make([]bot.Seat, n)
	for i := range out {
		out[i] = bot.Seat{Class: engine.Classes[i%4], Policy: []policy.Policy{policy.Cautious{}, policy.Aggressive{}}[i%2]}
	}
	return out
}

// game plays a whole bot game in the mode and returns its export.
func game(t testing.TB, mode rng.Mode, players int) *export.Export {
	t.Helper()
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.Record = true
	cfg := bot.Config{Create: engine.Action{GameID: "x-" + string(mode), Mode: string(mode)}}
	switch mode {
	case rng.ModeSeeded:
		cfg.Create.Seed = "export-test"
	default:
		cfg.Create.ServerSeed = serverSeed
		if mode == rng.ModeFair {
			cfg.Entropy = []string{"01", "", "abcdef"}
		}
	}
	var g engine.Game
	require.NoError(t, r.PlayWith(&g, cfg, seats(players)))
	x, err := export.Build(&g, eng.Rules(), r.Actions(), r.Events())
	require.NoError(t, err)
	return x
}

func encode(t testing.TB, x *export.Export) []byte {
	t.Helper()
	b, err := x.Encode()
	require.NoError(t, err)
	return b
}

func reload(t testing.TB, x *export.Export) *export.Export {
	t.Helper()
	y, err := export.Decode(encode(t, x))
	require.NoError(t, err)
	return y
}

func TestRoundTripAndVerifyEveryMode(t *testing.T) {
	for _, mode := range []rng.Mode{rng.ModeSeeded, rng.ModeCrypto, rng.ModeFair} {
		x := game(t, mode, 4)
		b := encode(t, x)
		y, err := export.Decode(b)
		require.NoError(t, err)
		require.Equal(t, b, encode(t, y), "encode(decode(b)) == b")
		rep, err := export.Verify(b)
		require.NoError(t, err, mode)
		require.Equal(t, mode, rep.Mode)
		require.Equal(t, len(x.Log), rep.Events)
		require.Equal(t, len(x.Fairness.Shuffles), rep.Shuffles)
		require.Positive(t, rep.CardDraws)
		require.Equal(t, mode != rng.ModeCrypto, rep.Replayed)
		if rep.Replayed {
			require.Positive(t, rep.Draws)
		}
		// The export itself tells no secret the reveal did not: no salt key,
		// no crypto server seed.
		require.NotContains(t, string(b), `"serverSeed"`)
		if mode == rng.ModeCrypto {
			require.NotContains(t, string(b), serverSeed)
		}
		// An export is readable in any layout: compact JSON verifies too.
		var any map[string]any
		require.NoError(t, json.Unmarshal(b, &any))
		compact, _ := json.Marshal(any)
		_, err = export.Verify(compact)
		require.NoError(t, err)
	}
}

// A game abandoned in its lobby and one abandoned in play export and verify.
func TestAbandonedGamesVerify(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	g := &engine.Game{}
	var log []engine.Event
	var acts []engine.Action
	do := func(a engine.Action) {
		var s *rng.Stream
		if g.Public.Phase != engine.PhaseNone {
			var err error
			s, err = session.Stream(g)
			require.NoError(t, err)
		}
		ev, err := eng.Dispatch(g, &a, s, log)
		require.NoError(t, err)
		log = ev
		acts = append(acts, a)
		if s != nil {
			require.NoError(t, g.SaveStream(s))
		}
	}
	do(engine.Action{Kind: engine.ActCreate, Actor: "p1", GameID: "lobby", Mode: "fair", ServerSeed: serverSeed})
	do(engine.Action{Kind: engine.ActJoin, Actor: "p1", Class: engine.ClassMonk, Entropy: "0a"})
	do(engine.Action{Kind: engine.ActAbandon, Actor: "p1"})
	x, err := export.Build(g, eng.Rules(), acts, log)
	require.NoError(t, err)
	rep, err := export.Verify(encode(t, x))
	require.NoError(t, err)
	require.Zero(t, rep.Shuffles)
	require.Empty(t, x.Fairness.GameSeedHex)

	r := bot.NewRunner(eng)
	r.Record, r.MaxActions = true, 30
	var h engine.Game
	err = r.PlayWith(&h, bot.Config{Create: engine.Action{GameID: "mid", Mode: "fair", ServerSeed: serverSeed}}, seats(2))
	require.ErrorContains(t, err, "action limit")
	acts = append([]engine.Action{}, r.Actions()...)
	s, err := session.Stream(&h)
	require.NoError(t, err)
	ev, err := eng.Dispatch(&h, &engine.Action{Kind: engine.ActAbandon, Actor: "p1"}, s, append([]engine.Event{}, r.Events()...))
	require.NoError(t, err)
	x, err = export.Build(&h, eng.Rules(), append(acts, engine.Action{Kind: engine.ActAbandon, Actor: "p1"}), ev)
	require.NoError(t, err)
	rep, err = export.Verify(encode(t, x))
	require.NoError(t, err)
	require.Equal(t, 1+2+1+30+1, rep.Actions) // create, 2 joins, start, 30 moves, abandon
}

func TestBuildRefuses(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.Record = true
	g, log, err := r.Play("build", seats(2), nil)
	require.NoError(t, err)
	acts := r.Actions()
	other, _ := engine.LoadRules([]byte(strings.Replace(string(engine.DefaultRulesJSON()), `"startHp": 10`, `"startHp": 9`, 1)))
	require.NotNil(t, other)
	for _, c := range []struct {
		g    *engine.Game
		r    *engine.Ruleset
		a    []engine.Action
		l    []engine.Event
		want string
	}{
		{&engine.Game{}, eng.Rules(), acts, log, "only a finished game"},
		{g, other, acts, log, "played under ruleset"},
		{g, eng.Rules(), acts[1:], log, "actions for a game at version"},
		{g, eng.Rules(), acts, log[1:], "events for a log of"},
	} {
		_, err := export.Build(c.g, c.r, c.a, c.l)
		require.ErrorContains(t, err, c.want)
	}
}

// Divergences the gamectl tests do not reach, each naming its field.
func TestDivergences(t *testing.T) {
	fairX := game(t, rng.ModeFair, 3)
	cryptoX := game(t, rng.ModeCrypto, 2)
	cases := []struct {
		name   string
		base   *export.Export
		tamper func(x *export.Export)
		want   string
	}{
		{"a log seq skipped", fairX, func(x *export.Export) {
			e := exporttest.Event(t, x, 5)
			e.Seq = 99
			exporttest.SetEvent(x, 5, e)
		}, "DeckShuffled.seq: expected 6, found 99"},
		{"a crypto log seq skipped", cryptoX, func(x *export.Export) {
			e := exporttest.Event(t, x, 5)
			e.Seq = 99
			exporttest.SetEvent(x, 5, e)
		}, "log[5].seq: expected 6, found 99"},
		{"an unknown event in a replayed log", fairX, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvMoved)
			x.Log[i] = []byte(strings.Replace(string(x.Log[i]), `"type":"Moved"`, `"type":"Teleported"`, 1))
		}, `Moved.type: expected "Moved", found "Teleported"`},
		{"an event added at the end", fairX, func(x *export.Export) {
			e := exporttest.Event(t, x, len(x.Log)-2)
			e.Seq = uint64(len(x.Log) + 1)
			x.Log = append(x.Log, e.AppendJSON(nil))
		}, "log (last event): expected FairnessRevealed"},
		{"the log cut short", fairX, func(x *export.Export) {
			x.Log = x.Log[:len(x.Log)/2]
		}, "expected FairnessRevealed"},
		{"a drawn card changed in the log", cryptoX, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvCardDrawn)
			e := exporttest.Event(t, x, i)
			e.CardID = x.Fairness.Shuffles[0].Order[5]
			if e.DeckID != "treasure.t1" {
				e.CardID = "t1-boots-1"
				e.DeckID = "treasure.t1"
			}
			exporttest.SetEvent(x, i, e)
		}, "CardDrawn.cardId: expected"},
		{"an enemy never committed", cryptoX, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvEnemySpawned)
			e := exporttest.Event(t, x, i)
			e.CardID = "no-such-card"
			exporttest.SetEvent(x, i, e)
		}, `EnemySpawned.cardId: expected a card of the ruleset, found "no-such-card"`},
		{"an order with a card of another deck", cryptoX, func(x *export.Export) {
			x.Fairness.Shuffles[0].Order[0] = "e1-rats-1"
		}, "fairness.shuffles[0].order[0]"},
		{"a shuffle missing", cryptoX, func(x *export.Export) {
			x.Fairness.Shuffles = x.Fairness.Shuffles[:len(x.Fairness.Shuffles)-1]
		}, "fairness.shuffles"},
		{"a crypto export claims a seed", cryptoX, func(x *export.Export) {
			x.Fairness.Seed = "s"
			i := len(x.Log) - 1
			e := exporttest.Event(t, x, i)
			e.Fair.Seed = "s"
			exporttest.SetEvent(x, i, e)
		}, "a crypto game has none"},
		{"a crypto action moved", cryptoX, func(x *export.Export) {
			x.Actions[7], x.Actions[8] = x.Actions[8], x.Actions[7]
		}, "actions[7].version: expected 7, found 8"},
		{"a field added to an event", fairX, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvMoved)
			x.Log[i] = []byte(strings.TrimSuffix(string(x.Log[i]), "}") + `,"bonus":1}`)
		}, "Moved.bonus: expected nothing, found 1"},
		{"the create's mode changed", fairX, func(x *export.Export) {
			x.Actions[0].Mode = "seeded"
		}, `actions[0].mode: expected fair, found "seeded"`},
		{"the commitment in the log changed", fairX, func(x *export.Export) {
			e := exporttest.Event(t, x, 0)
			e.Commitment[0] ^= 1
			exporttest.SetEvent(x, 0, e)
		}, "GameCreated.commitment"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := reload(t, c.base)
			c.tamper(x)
			_, err := export.Verify(encode(t, x))
			var d *export.Divergence
			require.True(t, errors.As(err, &d), "%v", err)
			require.ErrorContains(t, err, c.want)
		})
	}
}

func TestDecodeRefuses(t *testing.T) {
	good := encode(t, game(t, rng.ModeSeeded, 2))
	for _, c := range []struct{ in, want string }{
		{"", "not a JSON object"},
		{"null", `no "format" field`},
		{`{"format":1}`, "not a JSON object"},
		{`{"format":"fairboard-export/v0"}`, `format "fairboard-export/v0"`},
		{string(good) + "{}", "trailing data"},
		{strings.Replace(string(good), `"mode": "seeded"`, `"mode": "quantum"`, 1), `mode "quantum"`},
		{replaceLine(good, ` "rules": `, ` "rules": [1],`), `"rules" is not a ruleset object`},
		{strings.Replace(string(good), `"gameId": "x-seeded"`, `"gameId": 7`, 1), "gameId"},
		{strings.Replace(string(good), `"log": [`, `"log": [7,`, 1), "log entry 0 is not an object"},
		{strings.Replace(string(good), `"actor":"p1"`, `"actor":"p1","serverSeed":"00"`, 1), `unknown field "serverSeed"`},
		{strings.Replace(string(good), `"minPlayers":2`, `"minPlayers":-1`, 1), "rules: engine: invalid ruleset"},
		{strings.Replace(string(encode(t, game(t, rng.ModeCrypto, 2))), `"type":"Moved"`, `"type":"Teleported"`, 1), `unknown event type "Teleported"`},
		{`{"format":"fairboard-export/v1","mode":"fair","rules":{},"actions":[],"log":[]}`, "no actions"},
		{strings.Replace(string(good), `"game": "dungeon"`, `"game": "pig"`, 1), `an export of the game "pig": this format is the dungeon's`},
	} {
		_, err := export.Verify([]byte(c.in))
		var fe *export.FormatError
		require.True(t, errors.As(err, &fe), "%q: %v", c.want, err)
		require.ErrorContains(t, err, c.want)
	}
	require.ErrorContains(t, func() error { _, err := export.Decode(make([]byte, export.MaxSize+1)); return err }(), "more than")
}

// An export names its game, the dungeon; one written before exports named
// it (no game field) is the dungeon's and verifies as it always did.
func TestExportNamesTheDungeon(t *testing.T) {
	good := encode(t, game(t, rng.ModeSeeded, 2))
	require.Contains(t, string(good), `"game": "dungeon"`)
	for _, b := range [][]byte{good, []byte(strings.Replace(string(good), `"game": "dungeon",`, "", 1))} {
		_, err := export.Verify(b)
		require.NoError(t, err)
	}
	require.NotContains(t, strings.Replace(string(good), `"game": "dungeon",`, "", 1), `"game"`)
}

// replaceLine replaces the line of b that starts with prefix.
func replaceLine(b []byte, prefix, line string) string {
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, prefix) {
			lines[i] = line
		}
	}
	return strings.Join(lines, "\n")
}

// FuzzDecode: the decoder and the verifier never panic, whatever the input;
// what decodes re-encodes to an export that decodes to the same value.
func FuzzDecode(f *testing.F) {
	f.Add(encode(f, game(f, rng.ModeSeeded, 2)))
	f.Add([]byte(`{"format":"fairboard-export/v1","mode":"fair","rules":{},"players":[],"actions":[{"version":0,"kind":"create","actor":"p"}],"log":[{}],"fairness":{}}`))
	f.Add([]byte(`{"format":"fairboard-export/v1"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := export.Decode(b)
		if err != nil {
			var fe *export.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("decode error %T: %v", err, err)
			}
			return
		}
		_, _ = x.Verify()
		enc, err := x.Encode()
		if err != nil {
			return // e.g. rules that are not valid JSON cannot come out of Decode; other values may fail to encode
		}
		y, err := export.Decode(enc)
		if err != nil {
			t.Fatalf("re-encoded export does not decode: %v\n%s", err, enc)
		}
		enc2, err := y.Encode()
		if err != nil || string(enc2) != string(enc) {
			t.Fatalf("encoding is not stable: %v", err)
		}
	})
}

func TestGameShuffles(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	var g engine.Game
	seed := strings.Repeat("42", 32)
	require.NoError(t, r.PlayWith(&g, bot.Config{Create: engine.Action{Mode: "fair", ServerSeed: seed}}, seats(3)))
	all, err := export.GameShuffles(&g, "")
	require.NoError(t, err)
	require.Len(t, all, len(g.Secret.Shuffles))
	first := all[0]
	require.Equal(t, "treasure.t1", first.DeckID)
	require.Equal(t, "chacha20-spec-v1", first.Algorithm)
	require.Equal(t, g.Secret.GameSeed, first.SeedHex)
	require.Equal(t, first.SeedHex, first.Seed, "verifyShuffle takes chacha20-spec-v1's seed as hex")
	require.True(t, first.Verifiable)
	// The game's first shuffle is the registry's algorithm on the ruleset's
	// deck and the game seed alone, as verifyShuffle would be called with
	// the answer's own fields.
	again, err := shuffles.Shuffle(first.Algorithm, first.Seed, eng.Rules().InitialDeck(engine.DeckTreasureT1))
	require.NoError(t, err)
	require.Equal(t, first.Order, again)
	enemies, err := export.GameShuffles(&g, "enemy.t1")
	require.NoError(t, err)
	for _, s := range enemies {
		require.Equal(t, "enemy.t1", s.DeckID)
	}
	_, err = export.GameShuffles(&g, "jokers")
	require.ErrorContains(t, err, `unknown deck "jokers"`)

	var live engine.Game
	r.MaxActions = 5
	_ = r.PlayWith(&live, bot.Config{Create: engine.Action{Mode: "crypto", ServerSeed: seed}}, seats(2))
	_, err = export.GameShuffles(&live, "")
	require.ErrorIs(t, err, export.ErrNotRevealed)
	_ = r.PlayWith(&live, bot.Config{Create: engine.Action{Mode: "seeded", Seed: "live"}}, seats(2))
	s, err := export.GameShuffles(&live, "chance")
	require.NoError(t, err)
	require.Equal(t, "sfc32-spec-v1", s[0].Algorithm)
	require.Equal(t, "6c697665", s[0].SeedHex) // "live" in ASCII, by hand
	require.Equal(t, "live", s[0].Seed, "verifyShuffle takes sfc32-spec-v1's seed as the text")
	every, err := export.GameShuffles(&live, "")
	require.NoError(t, err)
	require.Zero(t, every[0].K)
	deck := eng.Rules().InitialDeck(slices.Index(engine.DeckIDs[:], every[0].DeckID))
	again, err = shuffles.Shuffle(every[0].Algorithm, every[0].Seed, deck)
	require.NoError(t, err)
	require.Equal(t, every[0].Order, again, "a seeded game's first shuffle from the answer's algorithm and seed")
}
