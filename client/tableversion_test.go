package client_test

import (
	"crypto/ed25519"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
)

// TestTableMoveSignatureUsedAgain: a Pig table's protocol in which a
// later roll of p0's is shown with the version and signature of an
// earlier one (the signature verifies: it is p0's, over that version) is
// refused by the follower every seat keeps, and so by the record's
// check, which share it (match), naming the version: a move made at the
// version of one before it is a signature used again. The honest
// protocol follows (the control); with checks.MoveVersion off the same
// protocol is refused only later, by the round's reveals, signed over the
// roll as it was, under another message (a move that draws nothing would
// have no reveal to fail: TestTableSplitView shows a seat reveal an old
// roll shown pending with the check off).
func TestTableMoveSignatureUsedAgain(t *testing.T) {
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	def := defOf("pig")
	run := newTrustRun(t, def, "mv-again", 2, key, nil, nil)
	var rolls []int // p0's applied rolls, by move
	// The whole protocol, as the store holds it: a seat's own views
	// hold only the moves after its checkpoint (TrustTable.View).
	require.NoError(t, run.playWith(rollOnce, func(*table.View) bool { // p0 rolls again whatever the dice
		rolls = rolls[:0]
		for i, m := range run.truth(t).Trustless.Moves {
			if m.Move == `{"seat":0,"kind":"roll"}` {
				rolls = append(rolls, i)
			}
		}
		return len(rolls) >= 2
	}))
	v := run.truth(t)
	record := func(p *match.RecordTrustless) *match.Record {
		r := &match.Record{Game: def.Name(), Mode: rng.ModeTrustless, Seats: 2, Rules: v.Rules, Trustless: p}
		for _, m := range p.Moves {
			r.Moves = append(r.Moves, m.Move)
		}
		return r
	}
	honest := v.Trustless.RecordTrustless
	_, err = match.FollowTrustless(def, record(&honest))
	require.NoError(t, err, "the control: the protocol as it is")

	forged := honest
	forged.Moves = append([]match.TrustlessMove(nil), honest.Moves...)
	i, j := rolls[0], rolls[1]
	forged.Moves[j].Version, forged.Moves[j].Signature = honest.Moves[i].Version, honest.Moves[i].Signature
	_, err = match.FollowTrustless(def, record(&forged))
	require.ErrorContains(t, err, "a signature used again")
	t.Log(err)

	t.Run("without MoveVersion", func(t *testing.T) {
		checks.Off(t, checks.MoveVersion)
		_, err := match.FollowTrustless(def, record(&forged))
		require.Error(t, err)
		require.NotContains(t, err.Error(), "a signature used again")
		require.Contains(t, err.Error(), "reveal signature does not verify", "refused later, by the round")
		t.Log(err)
	})
}
