package table_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/pig"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// TestTableMarkerHoldsNoLink: while a trustless table's round is
// pending, the marker of the actor's reveal, in every view (each seat's,
// the public one), states the round's index and the digest and
// transcript the actor's seat signed (those of the reveal it sent,
// computed by trustseat from its own replay), and no view holds the
// reveal's link, anywhere in its JSON. The positive control: once the
// round closes, the same scan finds the link in the view (the applied
// move's round publishes it).
func TestTableMarkerHoldsNoLink(t *testing.T) {
	s := table.NewMemory()
	_, err := s.Create("mk", pig.Def, table.CreateRequest{Actor: uid(0), ActionID: "create", Mode: rng.ModeTrustless, Seats: 2, ChainLength: 8})
	require.NoError(t, err)
	seats := make([]*trustseat.Seat, 2)
	for i := range seats {
		seats[i], err = trustseat.New(pig.Def, "mk", uid(i), i, 8)
		require.NoError(t, err)
		_, err = s.Do("mk", seats[i].Join("join", uint64(1+i), nil, nil))
		require.NoError(t, err)
	}
	_, err = s.Do("mk", table.Action{Actor: uid(0), ActionID: "start", Version: 3, Kind: table.KindStart})
	require.NoError(t, err)
	v0, err := s.View("mk", uid(0))
	require.NoError(t, err)
	roll, err := seats[0].Move("roll", v0, pigRoll)
	require.NoError(t, err)
	require.NotNil(t, roll.Reveal)
	_, err = s.Do("mk", roll)
	require.NoError(t, err)

	link := strings.ToLower(roll.Reveal.Link)
	require.Len(t, link, 64)
	for _, who := range []string{uid(0), uid(1), ""} {
		v, err := s.View("mk", who)
		require.NoError(t, err)
		p := v.Trustless.Pending
		require.NotNil(t, p)
		require.Len(t, p.Reveals, 1)
		m := p.Reveals[0]
		require.Equal(t, table.RevealMarker{Seat: 0, UID: uid(0), At: m.At, Index: roll.Reveal.Index,
			Digest: roll.Reveal.Digest, Transcript: roll.Reveal.Transcript, Signature: roll.Reveal.Signature}, m, "%q's view", who)
		require.NoError(t, trustseat.CheckMarks(v.Trustless))
		b, err := json.Marshal(v)
		require.NoError(t, err)
		require.NotContains(t, strings.ToLower(string(b)), link, "%q's view holds the pending round's link", who)
	}

	v1, err := s.View("mk", uid(1))
	require.NoError(t, err)
	rev, err := seats[1].Reveal("rev", v1)
	require.NoError(t, err)
	_, err = s.Do("mk", rev)
	require.NoError(t, err)
	v, err := s.View("mk", "")
	require.NoError(t, err)
	require.Nil(t, v.Trustless.Pending, "the round closed")
	b, err := json.Marshal(v)
	require.NoError(t, err)
	require.Contains(t, strings.ToLower(string(b)), link, "the control: the closed round's link is found by the same scan")
}
