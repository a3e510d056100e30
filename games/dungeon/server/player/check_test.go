package player_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng/trustless"
)

// TestCheckShownNamesHowThePendingDiffers: each way a shown pending
// action can differ from the log's is named in its own words (the
// pending round, its index, the action), not as a document that merely
// differs: a pending action the log has not recorded, none shown where
// the log has one, another index, another digest, transcript, action or
// actor. The honest document, pending or not, is the log's.
func TestCheckShownNamesHowThePendingDiffers(t *testing.T) {
	s := newServer(t)
	mine := s.seats[1].Follower().Game().Public
	require.NoError(t, player.CheckShown(mine, s.g.Public), "the honest document, the start pending")

	f := player.NewFollower(engine.DefaultRules())
	require.NoError(t, f.Follow(s.log[:len(s.log)-1]), "the log up to the pending record")
	err := player.CheckShown(f.Game().Public, s.g.Public)
	require.ErrorContains(t, err, "the server shows start by p1 pending at index 1, which the log has not recorded")

	for name, c := range map[string]struct {
		lie  func(pd **engine.Pending)
		want []string
	}{
		"nothing pending": {func(pd **engine.Pending) { *pd = nil },
			[]string{"the log has start by p1 pending at index 1; the server shows nothing pending"}},
		"another index": {func(pd **engine.Pending) { (*pd).Index = 2 },
			[]string{"the server asks for index 2; the log's pending action (start by p1) uses index 1"}},
		"another digest": {func(pd **engine.Pending) { (*pd).Digest[0] ^= 1 },
			[]string{"the server shows another pending action at index 1 (start by p1, digest ", "than the log's (start by p1, digest "}},
		"another transcript": {func(pd **engine.Pending) { (*pd).Transcript[31] ^= 1 },
			[]string{"the server shows another pending action at index 1 (start by p1, digest "}},
		"another action": {func(pd **engine.Pending) { (*pd).Action.Version++ },
			[]string{"the server shows another pending action at index 1 (start by p1, digest "}},
		"another actor": {func(pd **engine.Pending) { (*pd).Action.Actor = "p2" },
			[]string{"the server shows another pending action at index 1 (start by p2, digest ", "than the log's (start by p1, digest "}},
	} {
		g := s.g.Clone()
		c.lie(&g.Public.Trustless.Pending)
		err := player.CheckShown(mine, g.Public)
		require.Error(t, err, name)
		for _, w := range c.want {
			require.Contains(t, err.Error(), w, name)
		}
	}

	s.closeStart()
	require.Nil(t, s.g.Public.Trustless.Pending)
	require.NoError(t, player.CheckShown(s.seats[1].Follower().Game().Public, s.g.Public), "nothing pending on either side")
}

// TestCheckShownChecksEveryRevealItTakes: the reveals a document shows
// applied into the pending round, beyond the replica's, are each refused
// when they are not a seated player's for its own seat, not signed by
// its key, or a seat the replica (or the document) already counts; the
// replica then counts one version per reveal it takes. A replica may
// hold reveals of its own: they are compared, not taken again.
func TestCheckShownChecksEveryRevealItTakes(t *testing.T) {
	s := newServer(t)
	r0, err := s.seats[0].Reveal(&s.g.Public, 5)
	require.NoError(t, err)
	s.apply(r0)
	mine := s.seats[1].Follower().Game().Public // the log has no reveal yet
	require.NoError(t, player.CheckShown(mine, s.g.Public), "seat 0's reveal, shown applied")
	withR0 := s.g.Clone().Public // a replica that holds seat 0's reveal

	for name, c := range map[string]struct {
		mine engine.Public
		lie  func(p *engine.Public)
		want string
	}{
		"an unseated player": {mine, func(p *engine.Public) { p.Trustless.Pending.Reveals[0].UID = "p9" },
			"the server shows a reveal of p9 for seat 0 at index 1, which is not that seat's player"},
		"another seat": {mine, func(p *engine.Public) { p.Trustless.Pending.Reveals[0].Seat = 1 },
			"the server shows a reveal of p1 for seat 1 at index 1, which is not that seat's player"},
		"a flipped signature": {mine, func(p *engine.Public) {
			sig, _ := hex.DecodeString(p.Trustless.Pending.Reveals[0].Signature)
			sig[0] ^= 1
			p.Trustless.Pending.Reveals[0].Signature = hex.EncodeToString(sig)
		}, "the server shows a reveal of seat 0 (p1) for index 1 that its key did not sign over the pending action"},
		"a signature not in hex": {mine, func(p *engine.Public) { p.Trustless.Pending.Reveals[0].Signature = "zz" },
			"the server shows a reveal of seat 0 (p1) for index 1 that its key did not sign"},
		"twice in the document": {mine, func(p *engine.Public) {
			p.Trustless.Pending.Reveals = append(p.Trustless.Pending.Reveals, p.Trustless.Pending.Reveals[0])
			p.Version++
		}, "the server shows seat 0's reveal for index 1 twice"},
		"one the replica has": {withR0, func(p *engine.Public) {
			p.Trustless.Pending.Reveals = append(p.Trustless.Pending.Reveals, p.Trustless.Pending.Reveals[0])
			p.Version++
		}, "the server shows seat 0's reveal for index 1 twice"},
	} {
		g := s.g.Clone()
		c.lie(&g.Public)
		require.ErrorContains(t, player.CheckShown(c.mine, g.Public), c.want, name)
	}
}

// TestCheckShownCountsTheRevealsBeyondTheReplicas: of three seats, two
// have revealed into the pending start. A replica with none takes both
// (two versions); one that holds the first takes the second only (one
// version: the reveals shown less the replica's, not more). A document
// that shows as many reveals as the replica holds, but another seat's,
// is not the replica's.
func TestCheckShownCountsTheRevealsBeyondTheReplicas(t *testing.T) {
	s := newServerOf(t, 3)
	r0, err := s.seats[0].Reveal(&s.g.Public, 5)
	require.NoError(t, err)
	r1, err := s.seats[1].Reveal(&s.g.Public, 6)
	require.NoError(t, err)
	before := s.g.Clone()
	s.apply(r0)
	one := s.g.Clone()
	s.apply(r1)
	require.Len(t, s.g.Public.Trustless.Pending.Reveals, 2, "the round waits for the third seat")
	alt := &server{t: t, eng: s.eng, g: *before.Clone()}
	alt.apply(r1) // seat 1's reveal only

	mine := s.seats[2].Follower().Game().Public
	require.NoError(t, player.CheckShown(mine, s.g.Public), "two reveals beyond the replica's none")
	require.NoError(t, player.CheckShown(one.Public, s.g.Public), "one reveal beyond the replica's one")
	require.Equal(t, one.Public.Version+1, s.g.Public.Version)
	g := s.g.Clone()
	g.Public.Version++
	require.ErrorContains(t, player.CheckShown(one.Public, g.Public), "the game document's [version] differ", "a version too many")

	err = player.CheckShown(one.Public, alt.g.Public)
	require.ErrorContains(t, err, "the game document's [trustless] differ", "seat 1's reveal where the replica holds seat 0's")
	require.NoError(t, player.CheckShown(alt.g.Public, alt.g.Public), "positive control")
}

// TestCheckMarks: every reveal marker of the pending round must be its
// seat's player's, for its own seat, signed by its key over the pending
// action's digest and transcript; one signed over another action shows
// the seats different games. Markers of other rounds, and a game with
// nothing pending (or not trustless), are not checked.
func TestCheckMarks(t *testing.T) {
	s := newServer(t)
	mine := s.seats[0].Follower().Game().Public
	var marks []store.Mark
	var reveals []engine.Action
	for i, seat := range s.seats {
		a, err := seat.Reveal(&s.g.Public, int64(5+i))
		require.NoError(t, err)
		reveals = append(reveals, a)
		marks = append(marks, store.MarkOf(&a))
	}
	require.NoError(t, player.CheckMarks("ps", &mine, marks), "the honest markers")
	junk := store.Mark{UID: "p9", Seat: 7, Index: 2, Digest: "zz", Transcript: "zz", Signature: "zz"}
	require.NoError(t, player.CheckMarks("ps", &mine, append([]store.Mark{junk}, marks...)), "another round's marker is ignored")

	// A marker that seat 1's key signed over another digest or transcript.
	sec := s.seats[1].Secrets()
	key := ed25519.NewKeyFromSeed(sec.KeySeed[:])
	pd := mine.Trustless.Pending
	signedOver := func(m *store.Mark, d, tr engine.Hash32) {
		m.Digest, m.Transcript = d.String(), tr.String()
		m.Signature = hex.EncodeToString(ed25519.Sign(key, trustless.RevealMessage("ps", 1, (*[32]byte)(&d), (*[32]byte)(&tr))))
	}
	other := pd.Digest
	other[0] ^= 1
	const unsigned = "a reveal of seat 1 (p2) for index 1 that its key did not sign"
	for name, c := range map[string]struct {
		lie  func(m *store.Mark)
		want string
	}{
		"an unseated player":  {func(m *store.Mark) { m.UID = "p9" }, "a reveal marker of p9 for seat 1, which is not that seat's player"},
		"another seat":        {func(m *store.Mark) { m.Seat = 0 }, "a reveal marker of p2 for seat 0, which is not that seat's player"},
		"a digest not hex":    {func(m *store.Mark) { m.Digest = "zz" }, unsigned},
		"a transcript short":  {func(m *store.Mark) { m.Transcript = m.Transcript[2:] }, unsigned},
		"a signature not hex": {func(m *store.Mark) { m.Signature = "zz" + m.Signature[2:] }, unsigned},
		"a flipped signature": {func(m *store.Mark) {
			sig, _ := hex.DecodeString(m.Signature)
			sig[9] ^= 1
			m.Signature = hex.EncodeToString(sig)
		}, unsigned},
		"another digest, unsigned":   {func(m *store.Mark) { m.Digest = other.String() }, unsigned},
		"signed over another digest": {func(m *store.Mark) { signedOver(m, other, pd.Transcript) }, "the server shows the seats different games"},
		"signed over another transcript": {func(m *store.Mark) { signedOver(m, pd.Digest, other) },
			"seat 1 (p2) revealed index 1 for the action of digest " + pd.Digest.String() + " after transcript " + other.String()},
	} {
		m := marks[1]
		c.lie(&m)
		err := player.CheckMarks("ps", &mine, []store.Mark{marks[0], m})
		require.ErrorContains(t, err, c.want, name)
	}

	// Nothing pending (the round closed), or not a trustless game: no
	// marker is checked.
	for _, a := range reveals {
		s.apply(a)
	}
	require.NoError(t, s.seats[0].Follow(s.log))
	done := s.seats[0].Follower().Game().Public
	require.Nil(t, done.Trustless.Pending)
	junk.Index = 1
	require.NoError(t, player.CheckMarks("ps", &done, []store.Mark{junk}))
	require.NoError(t, player.CheckMarks("ps", &engine.Public{}, []store.Mark{junk}))
}
