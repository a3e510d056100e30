package functions_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
)

// forgedReveals are a hostile player's reveals that
// TestTrustlessRefusalsThroughTheFunctions sends while the start is
// pending (index 1), made from p2's good reveal: who sends it and its
// data, the status and code it is refused with, the checks that refuse it
// (every one of them: either alone refuses it), and what the same call
// gets with those checks off, its positive control: accepted (then is
// ""), or refused by a later check with then.
var forgedReveals = []struct {
	name         string
	make         func(t *testing.T, tb *tlTable, good engine.Action) (uid string, data map[string]any)
	status, code string
	checks       []checks.Check
	then         string
}{
	{"early", func(t *testing.T, tb *tlTable, good engine.Action) (string, map[string]any) {
		// An index not pending (2 is the next one's), signed over 1.
		good.Index = 2
		return "p2", revealData(good, "early")
	}, "FAILED_PRECONDITION", "wrong_index", []checks.Check{checks.RevealIndex}, ""},
	{"another seat's", func(t *testing.T, tb *tlTable, good engine.Action) (string, map[string]any) {
		return "p1", revealData(good, "seat")
	}, "PERMISSION_DENIED", "wrong_seat", []checks.Check{checks.RevealSeat}, "bad_signature"}, // p2's signature, checked under p1's key
	{"another digest", func(t *testing.T, tb *tlTable, good engine.Action) (string, map[string]any) {
		// The player signs what it was shown: another game.
		good.Digest = strings.Repeat("ab", 32)
		msg := trustless.RevealMessage(tb.id, 1, hash(t, good.Digest), hash(t, good.Transcript))
		good.Signature = hex.EncodeToString(ed25519.Sign(keyOf(t, tb.seats[1]), msg))
		return "p2", revealData(good, "digest")
	}, "FAILED_PRECONDITION", "wrong_digest", []checks.Check{checks.RevealDigest}, ""},
	{"another key", func(t *testing.T, tb *tlTable, good engine.Action) (string, map[string]any) {
		_, k, _ := ed25519.GenerateKey(nil)
		good.Signature = hex.EncodeToString(ed25519.Sign(k, trustless.RevealMessage(tb.id, 1, hash(t, good.Digest), hash(t, good.Transcript))))
		return "p2", revealData(good, "key")
	}, "PERMISSION_DENIED", "bad_signature", []checks.Check{checks.RevealSignature}, ""},
	{"a link not the chain's", func(t *testing.T, tb *tlTable, good engine.Action) (string, map[string]any) {
		good.Link = strings.Repeat("0f", 32)
		return "p2", revealData(good, "link")
	}, "INVALID_ARGUMENT", "wrong_link", []checks.Check{checks.RevealLink}, ""},
}

// forgedControls are the positive controls of
// TestTrustlessRefusalsThroughTheFunctions: each forged reveal, its twice
// and its late reveal, sent on a fresh table of s with the checks that
// refused it switched off, gets what the row says: the refusal was those
// checks' doing.
func forgedControls(t *testing.T, s *tlServer) {
	for i, f := range forgedReveals {
		t.Run(f.name+" control", func(t *testing.T) {
			for _, c := range f.checks {
				checks.Off(t, c)
			}
			tb := newTLTable(t, s, "tl-control-"+string(rune('a'+i)))
			good, err := tb.seats[1].Reveal(&tb.state, 0)
			require.NoError(t, err)
			uid, data := f.make(t, tb, good)
			err = tb.call("reveal", uid, data)
			if f.then == "" {
				require.NoError(t, err, "with %v off, the %s reveal is taken", f.checks, f.name)
				return
			}
			refused(t, err, "PERMISSION_DENIED", f.then)
		})
	}
	// A second reveal of p2's, under another action id: refused by the
	// service's check of the staged reveals and, as p2's reveal would
	// close the round of two, by the engine's once the staged one is
	// applied. With both off, the round closes on p2's two reveals, and
	// only the engine's check that every seat's link is there (R_v needs
	// p1's) refuses it, as invalid_action.
	t.Run("twice control", func(t *testing.T) {
		checks.Off(t, checks.StagedOnce)
		checks.Off(t, checks.RevealOnce)
		tb := newTLTable(t, s, "tl-control-twice")
		good, err := tb.seats[1].Reveal(&tb.state, 0)
		require.NoError(t, err)
		require.NoError(t, tb.call("reveal", "p2", revealData(good, "r1")))
		refused(t, tb.call("reveal", "p2", revealData(good, "again")), "INVALID_ARGUMENT", "invalid_action")
	})
	// A reveal after the deadline (within the grace).
	t.Run("late control", func(t *testing.T) {
		checks.Off(t, checks.RevealDeadline)
		tb := newTLTable(t, s, "tl-control-late")
		s.ms.Add(5_000)
		late, err := tb.seats[0].Reveal(&tb.state, 0)
		require.NoError(t, err)
		require.NoError(t, tb.call("reveal", "p1", revealData(late, "late")), "with RevealDeadline off, the late reveal is taken")
	})
}
