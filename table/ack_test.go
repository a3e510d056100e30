package table_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
)

// TestAckMessageWhat: table.AckMessage acknowledges a reveal (its own
// action, or a move's) and a deal message (its own action, or a move's
// keys) as rng/trustless's messages of their fields, and nothing else:
// not a join, an abort, a move without a reveal or keys, a reveal whose
// fields do not parse, a deal message without parts or with a nil key.
func TestAckMessageWhat(t *testing.T) {
	h := strings.Repeat("ab", 32)
	rv := &table.Reveal{Seat: 1, Index: 3, Link: h, Digest: h, Transcript: strings.Repeat("cd", 32), Signature: strings.Repeat("ef", 64)}
	var d, tr [32]byte
	for i := range d {
		d[i], tr[i] = 0xab, 0xcd
	}
	want := trustless.AckMessage("g", "p1", 1, 3, &d, &tr, bytes.Repeat([]byte{0xef}, 64), 42)
	for _, k := range []table.Kind{table.KindReveal, table.KindMove} {
		got, ok := table.AckMessage("g", &table.Action{Actor: "p1", Kind: k, Reveal: rv}, 42)
		require.True(t, ok, k)
		require.Equal(t, want, got, k)
	}
	key := &mentalpoker.KeyMessage{Game: "g", Seat: 1, Position: 2, Sig: []byte{7}}
	wantDeal := trustless.DealAckMessage("g", "p1", []trustless.SignedPart{{Signed: key.SignedBytes(), Sig: key.Sig}}, 42)
	for _, k := range []table.Kind{table.KindDeal, table.KindMove} {
		got, ok := table.AckMessage("g", &table.Action{Actor: "p1", Kind: k, Deal: &table.DealMessage{Keys: []*mentalpoker.KeyMessage{key}}}, 42)
		require.True(t, ok, k)
		require.Equal(t, wantDeal, got, k)
	}
	bad := *rv
	bad.Digest = "xyz"
	for i, a := range []table.Action{
		{Actor: "p1", Kind: table.KindJoin},
		{Actor: "p1", Kind: table.KindAbort},
		{Actor: "p1", Kind: table.KindMove},
		{Actor: "p1", Kind: table.KindReveal, Reveal: &bad},
		{Actor: "p1", Kind: table.KindDeal, Deal: &table.DealMessage{}},
		{Actor: "p1", Kind: table.KindDeal, Deal: &table.DealMessage{Keys: []*mentalpoker.KeyMessage{nil}}},
		{Actor: "p1", Kind: table.KindJoin, Reveal: rv},
	} {
		_, ok := table.AckMessage("g", &a, 42)
		require.False(t, ok, "case %d", i)
	}
}
