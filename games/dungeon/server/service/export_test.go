package service_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/policy"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// game is how playTo sets a game up.
type game struct {
	id, mode, seed string
	entropy        []string // per seat, fair games only
	// anonymous sends create, joins and start without an action id.
	anonymous bool
	// stopAt stops the game when it reaches this version (0: play it out).
	stopAt uint64
}

// playTo plays the game through the service with the bots (players
// p1..pN, p1 the owner), one Do per action, and returns the last view.
func playTo(t *testing.T, svc *service.Service, g game, n int) *service.View {
	t.Helper()
	ctx := context.Background()
	ss := seats(n)
	id := func(s string) string {
		if g.anonymous {
			return ""
		}
		return s
	}
	do := func(a engine.Action) {
		t.Helper()
		if _, err := svc.Do(ctx, g.id, a); err != nil {
			t.Fatalf("%s by %s: %v", a.Kind, a.Actor, err)
		}
	}
	do(engine.Action{Kind: engine.ActCreate, Actor: policy.UID(0), ID: id("create"), Mode: g.mode, Seed: g.seed})
	for i, s := range ss {
		a := engine.Action{Kind: engine.ActJoin, Actor: policy.UID(i), ID: id("join"), Seat: i, Class: s.Class}
		if i < len(g.entropy) {
			a.Entropy = g.entropy[i]
		}
		do(a)
	}
	if g.stopAt == 0 || g.stopAt > uint64(n)+1 {
		do(engine.Action{Kind: engine.ActStart, Actor: policy.UID(0), ID: id("start")})
	}
	for k := 0; ; k++ {
		v, err := svc.View(ctx, policy.UID(0), g.id, 0)
		require.NoError(t, err)
		if v.Public.Phase != engine.PhasePlaying || (g.stopAt != 0 && v.Public.Version >= g.stopAt) {
			return v
		}
		uid := v.Public.Awaiting
		a := ss[int(uid[1]-'1')].Policy.Choose(v.Public, svc.Rules(), uid)
		a.ID = "a" + strconv.Itoa(k)
		do(a)
	}
}

// TestExportVerifies: a whole fair game with entropy, and a crypto game,
// played through the service (create, joins and start without action
// ids), are exported for a seated player and verified by the export
// package: every applied action is in the server's list, in order.
func TestExportVerifies(t *testing.T) {
	for _, mode := range []rng.Mode{rng.ModeFair, rng.ModeCrypto, rng.ModeSeeded} {
		t.Run(string(mode), func(t *testing.T) {
			mem := store.NewMemory()
			svc := newService(mem, nil)
			g := game{id: "x-" + string(mode), mode: string(mode), anonymous: true}
			switch mode {
			case rng.ModeFair:
				g.entropy = []string{"00ff00ff00ff", "", strings.Repeat("ab", 64)}
			case rng.ModeSeeded:
				g.seed = "export-seeded"
			}
			v := playTo(t, svc, g, 3)
			require.Equal(t, engine.PhaseFinished, v.Public.Phase)
			x, err := svc.Export(context.Background(), policy.UID(2), g.id)
			require.NoError(t, err)
			require.Len(t, x.Actions, int(v.Public.Version))
			for i, a := range x.Actions {
				require.Equal(t, uint64(i), a.Version)
			}
			require.Equal(t, engine.ActCreate, x.Actions[0].Kind)
			require.Equal(t, engine.ActJoin, x.Actions[1].Kind)
			require.Equal(t, engine.ActStart, x.Actions[4].Kind)
			b, err := x.Encode()
			require.NoError(t, err)
			rep, err := export.Verify(b)
			require.NoError(t, err)
			require.Equal(t, len(x.Actions), rep.Actions)
			require.Equal(t, mode != rng.ModeCrypto, rep.Replayed)
			require.Positive(t, rep.Shuffles)
			if mode == rng.ModeFair {
				require.Equal(t, g.entropy, x.Fairness.ContributionsHex)
				require.Equal(t, v.Public.Fairness.CommitmentHex, x.Fairness.CommitmentHex)
			}
			// The owner too; the list never holds the server's seed.
			_, err = svc.Export(context.Background(), policy.UID(0), g.id)
			require.NoError(t, err)
			applied, err := mem.Applied(context.Background(), g.id)
			require.NoError(t, err)
			for _, a := range applied {
				require.Empty(t, a.Action.ServerSeed)
			}
		})
	}
}

// TestExportAndShufflesRefused: strangers get the answer of a game that
// does not exist, in every phase; members get not-finished until the end
// (in every mode: a seeded game's seed is secret until its end too).
func TestExportAndShufflesRefused(t *testing.T) {
	ctx := context.Background()
	mem := store.NewMemory()
	svc := newService(mem, nil)
	playTo(t, svc, game{id: "lobby", mode: "fair", stopAt: 1}, 2)
	playTo(t, svc, game{id: "playing", mode: "seeded", seed: "s", stopAt: 12}, 2)
	playTo(t, svc, game{id: "done", mode: "crypto"}, 2)
	shuffles := func(viewer, id string) error { _, err := svc.Shuffles(ctx, viewer, id, ""); return err }
	exports := func(viewer, id string) error { _, err := svc.Export(ctx, viewer, id); return err }
	for name, call := range map[string]func(viewer, id string) error{"Shuffles": shuffles, "Export": exports} {
		for _, id := range []string{"lobby", "playing", "done", "missing"} {
			require.ErrorIs(t, call("stranger", id), store.ErrNotFound, "%s of %s by a stranger", name, id)
		}
		for _, id := range []string{"lobby", "playing"} {
			for _, uid := range []string{"p1", "p2"} {
				require.ErrorIs(t, call(uid, id), service.ErrNotFinished, "%s of %s by %s", name, id, uid)
			}
		}
		require.NoError(t, call("p2", "done"), name)
		var fe *service.FieldError
		require.ErrorAs(t, call("p1", "a/b"), &fe, name)
		require.Equal(t, "gameId", fe.Field)
	}
	_, err := svc.Shuffles(ctx, "p1", "done", "treasure.t9")
	var fe *service.FieldError
	require.ErrorAs(t, err, &fe)
	require.Equal(t, "deckId", fe.Field)
	require.Contains(t, fe.Problem, "treasure.t1")
}

// dropsApplied is a store that lists no applied action (a game played
// before the server kept the list).
type dropsApplied struct{ store.Store }

func (d dropsApplied) Apply(ctx context.Context, r store.Request, m store.Mutator) (*store.Record, error) {
	return d.Store.Apply(ctx, r, func(g *engine.Game, staged []engine.Action) (store.Outcome, error) {
		out, err := m(g, staged)
		if g.Public.Version > 3 {
			out.Applied = nil
		}
		return out, err
	})
}

func TestExportWithoutTheListRefused(t *testing.T) {
	svc := newService(dropsApplied{store.NewMemory()}, nil)
	playTo(t, svc, game{id: "old", mode: "crypto"}, 2)
	_, err := svc.Export(context.Background(), "p1", "old")
	require.ErrorIs(t, err, service.ErrNotExportable)
	require.ErrorContains(t, err, "3 actions listed for a game at version")
}

// TestShufflesOfFinishedGames: getShuffle's answer is the export's
// shuffles; a fair game's are verifiable, and its first shuffle (the
// t1 treasure deck on a fresh stream) is chacha20-spec-v1 of the game seed
// over the ruleset's deck order, which VerifyShuffle confirms; a crypto
// game's carry their orders and salts but no algorithm or seed.
func TestShufflesOfFinishedGames(t *testing.T) {
	ctx := context.Background()
	svc := newService(store.NewMemory(), nil)
	playTo(t, svc, game{id: "f", mode: "fair", entropy: []string{"0123", "4567"}}, 2)
	playTo(t, svc, game{id: "c", mode: "crypto"}, 2)

	sh, err := svc.Shuffles(ctx, "p2", "f", "")
	require.NoError(t, err)
	x, err := svc.Export(ctx, "p2", "f")
	require.NoError(t, err)
	require.Equal(t, rng.ModeFair, sh.Mode)
	require.Len(t, sh.Shuffles, len(x.Fairness.Shuffles))
	for i, s := range sh.Shuffles {
		xs := x.Fairness.Shuffles[i]
		require.Equal(t, xs.DeckID, s.DeckID)
		require.Equal(t, xs.Tag, s.Tag)
		require.Equal(t, xs.Seq, s.Seq)
		require.Equal(t, xs.Order, s.Order)
		require.Equal(t, xs.SaltHex, s.SaltHex)
		require.True(t, s.Verifiable)
		require.Equal(t, "chacha20-spec-v1", s.Algorithm)
		require.Equal(t, x.Fairness.GameSeedHex, s.SeedHex)
	}
	first := sh.Shuffles[0]
	require.Equal(t, "treasure.t1", first.DeckID)
	deck := svc.Rules().InitialDeck(engine.DeckTreasureT1)
	claimed := make([]string, len(first.Order))
	for i, c := range first.Order {
		claimed[i] = strconv.Itoa(slices.Index(deck, c))
	}
	r, err := svc.VerifyShuffle("chacha20-spec-v1", first.SeedHex, claimed)
	require.NoError(t, err)
	require.True(t, r.Valid && r.Matches, "first shuffle %v, recomputed %v", claimed, r.Actual)

	one, err := svc.Shuffles(ctx, "p1", "f", "enemy.t2")
	require.NoError(t, err)
	require.NotEmpty(t, one.Shuffles)
	for _, s := range one.Shuffles {
		require.Equal(t, "enemy.t2", s.DeckID)
	}

	cs, err := svc.Shuffles(ctx, "p1", "c", "")
	require.NoError(t, err)
	require.Equal(t, rng.ModeCrypto, cs.Mode)
	require.NotEmpty(t, cs.Shuffles)
	for _, s := range cs.Shuffles {
		require.False(t, s.Verifiable)
		require.Empty(t, s.Algorithm)
		require.Empty(t, s.SeedHex)
		require.NotEmpty(t, s.Order)
		require.False(t, s.SaltHex.IsZero())
	}
}

// TestVerifyShuffleRefusals: bad input is a *FieldError naming the field,
// checked before any work.
func TestVerifyShuffleRefusals(t *testing.T) {
	svc := newService(store.NewMemory(), nil)
	deck := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = strconv.Itoa(i)
		}
		return out
	}
	for _, c := range []struct {
		name, algorithm, seed string
		deck                  []string
		field, problem        string
	}{
		{"no algorithm", "", "00", deck(5), "algorithm", "is required"},
		{"unknown algorithm", "fisher-yates-v2", "00", deck(5), "algorithm", "must be one of fisher-yates-v1, chacha20-spec-v1"},
		{"long algorithm", strings.Repeat("a", 33), "00", deck(5), "algorithm", "at most 32 bytes"},
		{"seed not hex", "fisher-yates-v1", "0g", deck(5), "seed", "not hexadecimal"},
		{"odd hex seed", "chacha20-spec-v1", "abc", deck(5), "seed", "not hexadecimal"},
		{"seed not UTF-8", "sfc32-spec-v1", "\xff", deck(5), "seed", "not valid UTF-8"},
		{"seed too long", "fisher-yates-v1", strings.Repeat("00", 2049), deck(5), "seed", "at most 4096 bytes"},
		{"bad hash-chain seed", "hashchain-v1", "00:1", deck(5), "seed", "want HEX or HEX:SESSION:MOVE"},
		{"bad Tenhou seed", "tenhou-mt19937-v1", "AAAA", deck(136), "seed", "is not a seed of tenhou-mt19937-v1"},
		{"empty deck", "fisher-yates-v1", "00", nil, "claimed_deck", "1 to 4096 cards, not 0"},
		{"oversized deck", "fisher-yates-v1", "00", deck(4097), "claimed_deck", "1 to 4096 cards, not 4097"},
		{"empty card", "fisher-yates-v1", "00", []string{"0", ""}, "claimed_deck", "card 1 is required"},
		{"long card", "fisher-yates-v1", "00", []string{"0", strings.Repeat("c", 65)}, "claimed_deck", "card 1 must be at most 64 bytes"},
		{"card not UTF-8", "fisher-yates-v1", "00", []string{"\xfe"}, "claimed_deck", "card 0 is not valid UTF-8"},
		{"not a Tenhou wall", "tenhou-mt19937-v1", "AAAA", deck(52), "claimed_deck", "136 or 108 tiles, not 52"},
	} {
		_, err := svc.VerifyShuffle(c.algorithm, c.seed, c.deck)
		var fe *service.FieldError
		require.ErrorAs(t, err, &fe, c.name)
		require.ErrorIs(t, err, service.ErrInvalid, c.name)
		require.Equal(t, c.field, fe.Field, c.name)
		require.Contains(t, fe.Problem, c.problem, c.name)
		require.LessOrEqual(t, len(fe.Problem), 300, "%s: the problem quotes the input", c.name)
	}
	// A valid claim that is another deck's order: answered, not refused.
	r, err := svc.VerifyShuffle("fisher-yates-v1", "00", deck(3))
	require.NoError(t, err)
	require.True(t, r.Valid)
	require.Len(t, r.Actual, 3)
}

// TestEntropyOnlyInFairJoins: a join's entropy is checked in the one
// table of field limits (hex, at most 64 bytes, joins only) and refused by
// the engine in a game that is not fair.
func TestEntropyOnlyInFairJoins(t *testing.T) {
	ctx := context.Background()
	svc := newService(store.NewMemory(), nil)
	for _, mode := range []string{"crypto", "fair"} {
		_, err := svc.Do(ctx, "e-"+mode, engine.Action{Kind: engine.ActCreate, Actor: "p1", ID: "c", Mode: mode})
		require.NoError(t, err)
	}
	join := func(game, actionID, entropy string) error {
		_, err := svc.Do(ctx, game, engine.Action{Kind: engine.ActJoin, Actor: "p1", ID: actionID, Class: engine.ClassMonk, Entropy: entropy})
		return err
	}
	var fe *service.FieldError
	for _, c := range []struct{ entropy, problem string }{
		{"abc", "even number of hex digits"},
		{"zz", "even number of hex digits"},
		{strings.Repeat("00", fair.MaxEntropy+1), "at most 128 bytes"},
	} {
		require.ErrorAs(t, join("e-fair", "j", c.entropy), &fe, c.entropy)
		require.Equal(t, "entropy", fe.Field)
		require.Contains(t, fe.Problem, c.problem)
	}
	var rej *engine.Error
	require.ErrorAs(t, join("e-crypto", "j1", "00ff"), &rej)
	require.Equal(t, engine.CodeInvalidAction, rej.Code)
	require.NoError(t, join("e-fair", "j2", strings.Repeat("AB", fair.MaxEntropy)))
	_, err := svc.Do(ctx, "e-fair", engine.Action{Kind: engine.ActStart, Actor: "p1", ID: "s", Entropy: "00"})
	require.ErrorAs(t, err, &fe)
	require.Equal(t, "entropy", fe.Field)
	require.True(t, errors.Is(err, service.ErrInvalid), fmt.Sprint(err))
}
