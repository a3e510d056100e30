package trustseat_test

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// stated is seat's marker of round 5 as a table shows it now: stating
// the round, the digest d and the transcript its signature (made here
// with the seat's key, marksTable.sign) is over.
func (m *marksTable) stated(seat int, d [32]byte) table.RevealMarker {
	return table.RevealMarker{Seat: seat, UID: []string{"p0", "p1"}[seat], At: int64(1 + seat), Index: 5,
		Digest: hexOf(d), Transcript: hexOf(m.tr), Signature: m.sign(seat, 5, d)}
}

func hexOf(b [32]byte) string { return hex.EncodeToString(b[:]) }

// Markers that state what they were signed over (trustseat.CheckMarks):
// the round shown honestly, both seats' markers over its digest, passes
// (the control), and so does a marker whose digest is written in capitals.
// A marker that is seat 1's valid signature over another digest (the
// split view) is a *SplitView naming both digests, with seat 0's marker
// as its witness; seat 1's marker with its digest altered after signing
// (so its signature verifies over neither) is a *ForgedMarker, not a
// split, and so is one with a bit of its signature flipped (which names
// the pending move shown here); a valid marker of another round shown in
// this one is a *MarksLie that is neither. Each unwraps to the
// *MarksLie the page's WebAssembly says. The positive control: with
// checks.MarkDigest off none is found.
func TestCheckMarksStated(t *testing.T) {
	m := newMarksTable()
	other := m.digest
	other[31] ^= 0x80
	good0, good1 := m.stated(0, m.digest), m.stated(1, m.digest)
	upper := good1
	upper.Digest = strings.ToUpper(upper.Digest)
	for _, tv := range []*table.TrustlessView{m.view(good0, good1), m.view(good1), m.view(good0, upper)} {
		require.NoError(t, trustseat.CheckMarks(tv), "the round shown honestly")
	}

	split := m.stated(1, other)
	altered := good1
	altered.Digest = hexOf(other) // after signing over m.digest
	flipped := good1
	sig, err := hex.DecodeString(good1.Signature)
	require.NoError(t, err)
	sig[10] ^= 1 // one bit of the signature flipped
	flipped.Signature = hex.EncodeToString(sig)
	var round4 table.RevealMarker
	{
		r := m.stated(0, m.digest)
		r.Index, r.Signature = 4, m.sign(0, 4, m.digest)
		round4 = r
	}

	err = trustseat.CheckMarks(m.view(good0, split))
	var sv *trustseat.SplitView
	require.ErrorAs(t, err, &sv, "the split view")
	require.Equal(t, uint32(5), sv.Index)
	require.Equal(t, hexOf(m.digest), sv.Digest, "the round shown")
	require.Equal(t, hexOf(other), sv.Marker.Digest, "the other move, under seat 1's signature")
	require.Equal(t, "p1", sv.Marker.UID)
	require.NotNil(t, sv.Witness)
	require.Equal(t, good0, *sv.Witness)
	require.Contains(t, err.Error(), hexOf(m.digest))
	require.Contains(t, err.Error(), hexOf(other))
	require.Contains(t, err.Error(), "a split view")
	var fm *trustseat.ForgedMarker
	require.False(t, errors.As(err, &fm), "a split is no forgery")

	err = trustseat.CheckMarks(m.view(split)) // no witness: the other side is the round shown
	require.ErrorAs(t, err, &sv)
	require.Nil(t, sv.Witness)
	require.Equal(t, hexOf(m.digest), sv.Digest)

	for _, c := range []struct {
		name   string
		marker table.RevealMarker
		words  string
	}{
		{"a digest altered after signing", altered, "did not sign over the move the marker states"},
		{"a signature flipped", flipped, "did not sign over the pending move shown here"},
	} {
		err := trustseat.CheckMarks(m.view(good0, c.marker))
		require.ErrorAs(t, err, &fm, c.name)
		require.Equal(t, c.marker, fm.Marker)
		require.False(t, errors.As(err, &sv), "%s is no split", c.name)
		var ml *trustseat.MarksLie
		require.ErrorAs(t, err, &ml)
		require.Contains(t, ml.What, c.words)
		require.Contains(t, ml.What, "the server forged the reveal")
	}

	err = trustseat.CheckMarks(m.view(round4))
	var ml *trustseat.MarksLie
	require.ErrorAs(t, err, &ml)
	require.Contains(t, ml.What, "marker of round 4 is shown in round 5")
	require.False(t, errors.As(err, &sv) || errors.As(err, &fm), "a marker of another round proves neither")

	t.Run("control without MarkDigest", func(t *testing.T) {
		checks.Off(t, checks.MarkDigest)
		for _, rs := range [][]table.RevealMarker{{good0, split}, {good0, altered}, {good0, flipped}, {round4}} {
			require.NoError(t, trustseat.CheckMarks(m.view(rs...)))
		}
	})
}

// A third party holding two markers and the seats (trustseat.CheckSplit):
// seat 0's and seat 1's valid markers of round 5 over two digests prove
// the split, both digests named (in either order); the control, the same
// round shown honestly (both over one digest), proves nothing and is no
// error. A marker whose digest was altered after signing is a
// *ForgedMarker whichever side it is on (control: the unaltered marker
// proves the split); a marker that states no digest, another seat's
// player, and markers of two rounds are errors that prove no split.
func TestCheckSplit(t *testing.T) {
	m := newMarksTable()
	seats := m.view().Seats
	other := m.digest
	other[0] ^= 0x01
	good0, good1 := m.stated(0, m.digest), m.stated(1, m.digest)
	split := m.stated(1, other)

	sv, err := trustseat.CheckSplit("g-marks", seats, good0, good1)
	require.NoError(t, err)
	require.Nil(t, sv, "the honest round proves no split")

	for _, pair := range [][2]table.RevealMarker{{good0, split}, {split, good0}} {
		sv, err = trustseat.CheckSplit("g-marks", seats, pair[0], pair[1])
		require.NoError(t, err)
		require.NotNil(t, sv, "the split is proven")
		require.Equal(t, uint32(5), sv.Index)
		require.ElementsMatch(t, []string{hexOf(m.digest), hexOf(other)}, []string{sv.Witness.Digest, sv.Marker.Digest})
		require.Equal(t, sv.Witness.Digest, sv.Digest)
		require.Contains(t, sv.Error(), hexOf(m.digest))
		require.Contains(t, sv.Error(), hexOf(other))
	}

	altered := split
	altered.Digest = hexOf(m.digest) // seat 1 signed over other; the marker now states the honest digest
	for _, pair := range [][2]table.RevealMarker{{good0, altered}, {altered, good0}} {
		sv, err = trustseat.CheckSplit("g-marks", seats, pair[0], pair[1])
		require.Nil(t, sv)
		var fm *trustseat.ForgedMarker
		require.ErrorAs(t, err, &fm, "a forged marker, not a split")
		require.Equal(t, altered, fm.Marker)
	}
	_, err = trustseat.CheckSplit("g-marks", seats, good0, altered)
	require.Error(t, err)
	_, err = trustseat.CheckSplit("g-marks-other", seats, good0, split)
	var fm *trustseat.ForgedMarker
	require.ErrorAs(t, err, &fm, "markers of one table are no signatures at another")

	legacy := split
	legacy.Index, legacy.Digest, legacy.Transcript = 0, "", ""
	notSeat := split
	notSeat.UID = "p0"
	round4 := good0
	round4.Index, round4.Signature = 4, m.sign(0, 4, m.digest)
	for _, c := range []struct {
		name string
		a, b table.RevealMarker
		want string
	}{
		{"a marker stating no digest", good0, legacy, "states no round"},
		{"another seat's player", good0, notSeat, "not that seat's player"},
		{"two rounds", round4, split, "rounds 4 and 5"},
	} {
		sv, err := trustseat.CheckSplit("g-marks", seats, c.a, c.b)
		require.Nil(t, sv, c.name)
		require.ErrorContains(t, err, c.want, c.name)
		require.False(t, errors.As(err, &fm), "%s is no forgery", c.name)
	}
}
