package export_test

import (
	"encoding/hex"
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
	"github.com/fairboard/fairboard/games/dungeon/tools/bot/bottest"
	"github.com/fairboard/fairboard/internal/checks"
)

// trustlessExport is a whole 4-player trustless game's export, played
// once for the tests of this file (each tampers with its own copy).
var trustlessExport []byte

func trustlessBytes(t *testing.T) []byte {
	t.Helper()
	if trustlessExport == nil {
		x, _ := bottest.Trustless(t, "tl-export", 4, nil)
		trustlessExport = encode(t, x)
	}
	return slices.Clone(trustlessExport)
}

func decodeT(t *testing.T, b []byte) *export.Export {
	t.Helper()
	x, err := export.Decode(b)
	require.NoError(t, err)
	return x
}

// TestTrustlessExportVerifies: a whole trustless game of 2, 4 and 6
// players, each seat with its own chain and key, exports and verifies,
// and the summary names the mode and what it checked.
func TestTrustlessExportVerifies(t *testing.T) {
	for _, n := range []int{2, 4, 6} {
		x, g := bottest.Trustless(t, "tl", n, nil)
		require.Equal(t, engine.PhaseFinished, g.Public.Phase)
		rep, err := export.Verify(encode(t, x))
		require.NoError(t, err, "%d players", n)
		require.Equal(t, n, rep.Seats)
		require.Equal(t, int(g.Public.Trustless.NextIndex-1), rep.Rounds)
		require.Equal(t, rep.Rounds*n, rep.Links)
		require.Positive(t, rep.CardDraws)
		require.Positive(t, rep.Draws)
		sum := rep.Summary()
		require.True(t, strings.HasPrefix(sum, "ok: trustless game tl: "), sum)
		require.Contains(t, sum, "links checked against their chains")
		t.Log(sum)
	}
}

// TestTrustlessExportInPlay: a trustless game needs no reveal at its end:
// exported in the middle of a round (two of its four reveals in, whose
// links stay secret and out of the export), it verifies, and the summary
// names the open round.
func TestTrustlessExportInPlay(t *testing.T) {
	reveals := 0
	x, g := bottest.Trustless(t, "tl-mid", 4, func(g *engine.Game) bool {
		pd := g.Public.Trustless.Pending
		if pd != nil && pd.Index == 30 && len(pd.Reveals) == 2 {
			reveals++
			return true
		}
		return false
	})
	require.Equal(t, 1, reveals)
	require.Equal(t, engine.PhasePlaying, g.Public.Phase)
	require.NotNil(t, x.Trustless.Pending)
	require.Equal(t, uint32(30), x.Trustless.Pending.Index)
	require.Equal(t, 2, x.Trustless.Pending.Withheld)
	b := encode(t, x)
	for _, l := range g.Secret.Links {
		require.NotContains(t, string(b), l.Link.String(), "a withheld link is in the export")
	}
	rep, err := export.Verify(b)
	require.NoError(t, err)
	require.Equal(t, uint32(30), rep.Pending)
	require.Contains(t, rep.Summary(), "round 30 is open")
}

// mutate decodes the export, changes it and re-encodes it.
func mutate(t *testing.T, b []byte, f func(x *export.Export)) []byte {
	t.Helper()
	x := decodeT(t, b)
	f(x)
	return encode(t, x)
}

// roundActions returns the indexes of the export's actions that are
// reveals of round v.
func roundActions(x *export.Export, v uint32) []int {
	var out []int
	for i, a := range x.Actions {
		if a.Kind == engine.ActReveal && a.Index == v {
			out = append(out, i)
		}
	}
	return out
}

// setField rewrites log entry i with f applied to its JSON object.
func setField(t *testing.T, x *export.Export, i int, f func(m map[string]any)) {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(x.Log[i], &m))
	f(m)
	b, err := json.Marshal(m)
	require.NoError(t, err)
	x.Log[i] = b
}

// TestTrustlessTamperingIsNamed: every kind of tampering with a trustless
// export is refused, naming its kind. Each case caught by a check that can
// be switched off names those checks (every one that names it: several
// may), and its positive control verifies it again with them off: it is
// then not named so (it verifies, or another check names it otherwise).
// The reorderings the engine refuses as actions out of their round, and
// a reveal with no action pending, have no switch.
func TestTrustlessTamperingIsNamed(t *testing.T) {
	good := trustlessBytes(t)
	_, err := export.Verify(good)
	require.NoError(t, err)
	x := decodeT(t, good)
	r5 := roundActions(x, 5)
	require.Len(t, r5, 4)
	otherLink := x.Actions[roundActions(x, 6)[0]].Link

	events := []checks.Check{checks.ExportEvents}
	cases := map[string]struct {
		kind string
		edit func(x *export.Export)
		// checks are the checks that name it.
		checks []checks.Check
	}{
		"a reveal's link changed": {export.TamperLink, func(x *export.Export) {
			x.Actions[r5[1]].Link = otherLink
		}, []checks.Check{checks.RevealLink}},
		"a link changed in the log only": {export.TamperLink, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvRoundRevealed)
			setField(t, x, i, func(m map[string]any) {
				m["trustless"].(map[string]any)["reveals"].([]any)[0].(map[string]any)["link"] = strings.Repeat("ab", 32)
			})
		}, events},
		"two reveals swapped (versions renumbered)": {export.TamperReorder, func(x *export.Export) {
			a, b := r5[1], r5[2]
			x.Actions[a], x.Actions[b] = x.Actions[b], x.Actions[a]
			x.Actions[a].Version, x.Actions[b].Version = uint64(a), uint64(b)
		}, events},
		"a reveal moved to the next round": {export.TamperReorder, func(x *export.Export) {
			a := x.Actions[r5[3]]
			x.Actions = slices.Delete(x.Actions, r5[3], r5[3]+1)
			at := roundActions(x, 6)[0]
			x.Actions = slices.Insert(x.Actions, at, a)
			for i := range x.Actions {
				x.Actions[i].Version = uint64(i)
			}
		}, nil},
		"a reveal dropped": {export.TamperReorder, func(x *export.Export) {
			x.Actions = slices.Delete(x.Actions, r5[2], r5[2]+1)
			for i := range x.Actions {
				x.Actions[i].Version = uint64(i)
			}
		}, nil},
		"a die changed": {export.TamperDraw, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvDiceRolled)
			e := exporttest.Event(t, x, i)
			e.Value = e.Value%e.Sides + 1
			exporttest.SetEvent(x, i, e)
		}, events},
		"a card changed": {export.TamperDraw, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvCardDrawn)
			e := exporttest.Event(t, x, i)
			e.CardID = map[bool]string{true: "t1-dagger-2", false: "t1-dagger-1"}[e.CardID == "t1-dagger-1"]
			exporttest.SetEvent(x, i, e)
		}, events},
		"the pending action dropped": {export.TamperMissingPending, func(x *export.Export) {
			p := r5[0] - 1
			for x.Actions[p].Kind == engine.ActReveal {
				p--
			}
			x.Actions = slices.Delete(x.Actions, p, p+1)
			for i := range x.Actions {
				x.Actions[i].Version = uint64(i)
			}
		}, nil},
		"the pending record dropped from the log": {export.TamperMissingPending, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvActionPending)
			x.Log = slices.Delete(x.Log, i, i+1)
		}, events},
		"an action's signature flipped": {export.TamperSignature, func(x *export.Export) {
			for i := range x.Actions {
				if x.Actions[i].Kind == engine.ActMove {
					x.Actions[i].Signature = flip(x.Actions[i].Signature)
					return
				}
			}
			// The engine's check of it; the log's signature; and, as the
			// transcript covers it, every later reveal's transcript.
		}, []checks.Check{checks.ActionSignature, checks.ExportEvents, checks.RevealDigest}},
		"a reveal's signature flipped": {export.TamperSignature, func(x *export.Export) {
			x.Actions[r5[2]].Signature = flip(x.Actions[r5[2]].Signature)
		}, []checks.Check{checks.RevealSignature}},
		"a signature changed in the log only": {export.TamperSignature, func(x *export.Export) {
			i := exporttest.Find(t, x, engine.EvActionPending)
			setField(t, x, i, func(m map[string]any) {
				tr := m["trustless"].(map[string]any)
				tr["signature"] = flip(tr["signature"].(string))
			})
		}, events},
	}
	for name, c := range cases {
		_, err := export.Verify(mutate(t, good, c.edit))
		var d *export.Divergence
		require.True(t, errors.As(err, &d), "%s: %v", name, err)
		require.Equal(t, c.kind, d.Kind, "%s: %v", name, err)
		require.Contains(t, err.Error(), c.kind, name)
		t.Logf("%s: %v", name, err)
		if c.checks == nil {
			continue
		}
		t.Run(name+" control", func(t *testing.T) {
			for _, k := range c.checks {
				checks.Off(t, k)
			}
			_, err := export.Verify(mutate(t, good, c.edit))
			if errors.As(err, &d) {
				require.NotEqual(t, c.kind, d.Kind, "with %v off, still named %s: %v", c.checks, c.kind, err)
			}
			t.Logf("with %v off: %v", c.checks, err)
		})
	}
}

func flip(sig string) string {
	b, _ := hex.DecodeString(sig)
	b[3] ^= 0x10
	return hex.EncodeToString(b)
}

// TestTrustlessExportSection: the heads and keys of the trustless
// section must be the joins'; a trustless export without its section, or
// another mode's with one, is no export.
func TestTrustlessExportSection(t *testing.T) {
	good := trustlessBytes(t)
	_, err := export.Verify(mutate(t, good, func(x *export.Export) { x.Trustless.Seats[1].ChainHead[0] ^= 1 }))
	var d *export.Divergence
	require.True(t, errors.As(err, &d), "%v", err)
	require.Equal(t, "trustless.seats[1]", d.Field)
	_, err = export.Verify(mutate(t, good, func(x *export.Export) { x.Trustless.Pending = &export.PendingRound{Index: 3} }))
	require.ErrorContains(t, err, "trustless.pending")

	var fe *export.FormatError
	_, err = export.Verify(mutate(t, good, func(x *export.Export) { x.Trustless = nil }))
	require.True(t, errors.As(err, &fe), "%v", err)
	seeded := encode(t, game(t, "seeded", 2))
	_, err = export.Verify(mutate(t, seeded, func(x *export.Export) { x.Trustless = &export.Trustless{} }))
	require.True(t, errors.As(err, &fe), "%v", err)
}

// TestTrustlessAbortedExport: a game aborted at a round's deadline, with
// one seat's link missing, exports and verifies; the summary names the
// abort and the seat; the links that came are published and checked.
func TestTrustlessAbortedExport(t *testing.T) {
	eng := engine.NewReference(engine.DefaultRules())
	r := bot.NewRunner(eng)
	r.Record = true
	seats := []bot.Seat{{Class: engine.ClassWarrior, Policy: policy.Aggressive{}}, {Class: engine.ClassMonk, Policy: policy.Cautious{}},
		{Class: engine.ClassScout, Policy: policy.Aggressive{}}}
	g := &engine.Game{}
	_, err := r.PlayTrustless(g, bot.TrustlessConfig{GameID: "tl-abort", Stop: func(g *engine.Game) bool {
		pd := g.Public.Trustless.Pending
		return pd != nil && pd.Index == 9 && len(pd.Reveals) == 2
	}}, seats)
	require.NoError(t, err)
	pd := g.Public.Trustless.Pending
	abort := engine.Action{Kind: engine.ActAbort, Actor: "server", At: pd.Deadline + 1}
	s, err := session.StreamFor(g, &abort)
	require.NoError(t, err)
	ev, err := eng.Dispatch(g, &abort, s, nil)
	require.NoError(t, err)
	actions := append(slices.Clone(r.Actions()), abort)
	x, err := export.Build(g, eng.Rules(), actions, append(slices.Clone(r.Events()), ev...))
	require.NoError(t, err)
	rep, err := export.Verify(encode(t, x))
	require.NoError(t, err)
	require.NotNil(t, rep.Aborted)
	require.Len(t, rep.Aborted.Missing, 1)
	require.Contains(t, rep.Summary(), "; aborted at round 9 (deadline, not revealed by "+rep.Aborted.Missing[0]+")")
	require.Equal(t, 8*3+2, rep.Links, "the two links that came are checked too")
}
