package client_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/trustless"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
	"github.com/fairboard/fairboard/tablestore"
)

// The split view at a trustless table (docs/fairness.md, "Attacks on the
// trustless mode"): the server shows the victim, p1, another pending
// move than p0, the actor, at the first round from index 2 on that p0's
// roll opens. Pig's only move that draws is a roll, whose canonical
// bytes differ only by their version: the other move is p0's roll at
// another version, signed by p0.

// splitMode is what the server shows p1 in place of the pending round.
type splitMode string

const (
	splitTwice  splitMode = "twice"  // p0's roll at the next version, which p0 signed too (tricked or colluding)
	splitOld    splitMode = "old"    // p0's last applied roll, its signature from the record: p0 signed nothing more
	splitHidden splitMode = "hidden" // as twice, and the markers never shown
	splitSame   splitMode = "same"   // the control: the pending round as it is
)

// splitStore is the real table store but for the split: p1 is shown the
// other pending round (not in splitSame), with no marker until its reveal
// of it has come; that reveal is held, answered as applied (the functions
// then acknowledge it, signed) and never applied (in splitSame it goes
// through). Once held, every view shows its marker with the others'
// (not in splitHidden), stating the digest and transcript p1 signed over
// as a table's marker does; with legacy, every marker is shown without
// them, as a server from before markers stated them showed it.
type splitStore struct {
	tablestore.Store
	mode   splitMode
	legacy bool
	def    game.Definition
	mu     sync.Mutex
	key    ed25519.PrivateKey // p0's, for splitTwice
	// target is the split round's index (0: not yet), alt what p1 is
	// shown in its place, held p1's reveal of it.
	target uint32
	alt    *table.PendingRound
	held   *table.Action
	err    error // a failure of the store's own work
}

func (s *splitStore) View(ctx context.Context, gameID, uid string) (*table.View, game.Definition, error) {
	v, def, err := s.Store.View(ctx, gameID, uid)
	if err != nil || v.Trustless == nil || v.Trustless.Pending == nil {
		return v, def, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	tv := *v.Trustless
	p := *tv.Pending
	if s.target == 0 && p.Index >= 2 && strings.HasPrefix(p.Move, `{"seat":0,`) {
		s.target = p.Index
		if s.mode != splitSame {
			s.alt, s.err = s.other(v, &tv, &p)
		}
	}
	if p.Index != s.target {
		return v, def, nil
	}
	if uid == "p1" && s.alt != nil {
		p.Version, p.Signature, p.Digest, p.Transcript = s.alt.Version, s.alt.Signature, s.alt.Digest, s.alt.Transcript
	}
	switch {
	case uid == "p1" && (s.held == nil || s.mode == splitHidden):
		p.Reveals = nil // nothing that would stop p1 before it reveals (or ever)
	case s.held != nil && s.mode != splitHidden:
		r := s.held.Reveal
		p.Reveals = append(slices.Clone(p.Reveals), table.RevealMarker{Seat: r.Seat, UID: s.held.Actor, At: s.held.At,
			Index: r.Index, Digest: r.Digest, Transcript: r.Transcript, Signature: r.Signature})
	}
	if s.legacy {
		p.Reveals = slices.Clone(p.Reveals)
		for i := range p.Reveals {
			p.Reveals[i].Index, p.Reveals[i].Digest, p.Reveals[i].Transcript = 0, "", ""
		}
	}
	tv.Pending = &p
	out := *v
	out.Trustless = &tv
	return &out, def, nil
}

// other is the pending round p0's other roll makes, after the applied
// moves of tv.
func (s *splitStore) other(v *table.View, tv *table.TrustlessView, p *table.PendingRound) (*table.PendingRound, error) {
	r := &match.Record{Game: s.def.Name(), Mode: rng.ModeTrustless, Seats: len(tv.Seats), Rules: v.Rules, Trustless: &tv.RecordTrustless}
	for _, m := range tv.Moves {
		r.Moves = append(r.Moves, m.Move)
	}
	f, err := match.FollowTrustless(s.def, r)
	if err != nil {
		return nil, err
	}
	alt := *p
	switch s.mode {
	case splitOld:
		i := slices.IndexFunc(tv.Moves, func(m match.TrustlessMove) bool { return m.Move == p.Move })
		if i < 0 {
			return nil, errors.New("p0 never rolled before")
		}
		alt.Version, alt.Signature = tv.Moves[i].Version, tv.Moves[i].Signature
	default:
		alt.Version = p.Version + 1
		canon := match.TableAction("move", "p0", alt.Version, []byte(p.Move), nil, nil)
		alt.Signature = hex.EncodeToString(ed25519.Sign(s.key, trustless.ActionMessage(tv.GameID, canon)))
	}
	sig, _ := hex.DecodeString(alt.Signature)
	digest := trustless.ActionDigest(tv.GameID, match.TableAction("move", "p0", alt.Version, []byte(p.Move), nil, nil))
	tr := trustless.TranscriptAction(&f.Transcript, &digest, sig)
	alt.Digest, alt.Transcript = hex.EncodeToString(digest[:]), hex.EncodeToString(tr[:])
	return &alt, nil
}

func (s *splitStore) Do(ctx context.Context, gameID string, a table.Action) (*table.Result, error) {
	s.mu.Lock()
	hold := s.mode != splitSame && s.target != 0 && s.held == nil && a.Actor == "p1" && a.Kind == table.KindReveal &&
		a.Reveal != nil && a.Reveal.Index == s.target
	if hold {
		s.held = &a
	}
	s.mu.Unlock()
	if !hold {
		return s.Store.Do(ctx, gameID, a)
	}
	v, _, err := s.Store.View(ctx, gameID, a.Actor)
	if err != nil {
		return nil, err
	}
	return &table.Result{ActionID: a.ActionID, Version: v.Version}, nil
}

// done reports whether the split has played out: p1's reveal held (the
// round closed, in splitSame).
func (s *splitStore) done(v *table.View) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mode == splitSame {
		return s.target != 0 && (v.Trustless.Pending == nil || v.Trustless.Pending.Index != s.target)
	}
	return s.held != nil
}

// TestTableSplitView: at the first round from index 2 on that p0's roll
// opens, the server shows p1 another pending roll of p0's, signed by p0:
// one p0 signed too at the next version (splitTwice), or p0's last applied
// roll with its signature from the record (splitOld: p0 signed nothing
// more). p1's seat refuses the old roll (made at a version before p0's
// last applied move's: a signature used again); it finds the roll p0
// signed twice where its replay leads and reveals it; the server
// acknowledges the reveal, signed, and holds it. Once the
// markers are shown, both Tables name the split (a *client.Lie: the other
// seat's marker is a valid signature over another move than the round
// each is shown) and send nothing more; the round never closes. The Lie
// carries the evidence, a *trustseat.SplitView: the other seat's marker
// over the other digest (p1's over the roll p0 signed twice, p0's over
// the real one) and the reader's own marker over the round it is shown,
// which a third party checks again from the two markers alone
// (trustseat.CheckSplit) and finds the same two digests. With markers
// that state no digest (legacy: a server from before they did) the Lie
// names the split as before, without that evidence. The controls: the same server
// showing p1 the round as it is (splitSame) closes the round, and neither
// Table objects; with the markers' check switched off (checks.MarkDigest)
// neither Table names the split, each taking a round that never closes;
// with the seat's version check switched off (checks.MoveVersion) p1
// reveals the old roll and the markers name the split, and with both off
// it is taken.
// A server that never shows the markers (splitHidden) can only end the
// round at its deadline naming p1 missing: p1's Table stops with the drop
// (*client.TableDropped), whose signed acknowledgement is of a reveal
// over another digest than the record's pending move: what p1 shows.
func TestTableSplitView(t *testing.T) {
	_, key, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)
	for _, c := range []struct {
		name   string
		mode   splitMode
		off    []checks.Check
		legacy bool
	}{{"twice", splitTwice, nil, false}, {"old signature", splitOld, nil, false}, {"same", splitSame, nil, false},
		{"twice with markers stating no digest", splitTwice, nil, true},
		{"same with markers stating no digest", splitSame, nil, true},
		{"twice without MarkDigest", splitTwice, []checks.Check{checks.MarkDigest}, false},
		{"old without MoveVersion", splitOld, []checks.Check{checks.MoveVersion}, false},
		{"old without MoveVersion and MarkDigest", splitOld, []checks.Check{checks.MoveVersion, checks.MarkDigest}, false},
		{"hidden", splitHidden, nil, false}} {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range c.off {
				checks.Off(t, k)
			}
			markOff := slices.Contains(c.off, checks.MarkDigest)
			ss := &splitStore{mode: c.mode, legacy: c.legacy, def: defOf("pig")}
			run := newTrustRun(t, ss.def, "sv-"+string(c.mode), 2, key,
				func(m tablestore.Store) tablestore.Store { ss.Store = m; return ss }, nil)
			ss.mu.Lock()
			ss.key = keyOf(t, run.order[0])
			ss.mu.Unlock()
			err := run.playWith(rollOnce, ss.done) // p0 rolls again at a round from index 2 on, whatever the dice
			if c.mode == splitOld && !slices.Contains(c.off, checks.MoveVersion) {
				// p1's seat refuses to reveal a roll made at a version
				// before p0's last applied move's.
				require.ErrorContains(t, err, "a signature used again")
				require.NotZero(t, ss.target)
				require.Nil(t, ss.held, "p1 revealed nothing")
				require.Equal(t, ss.target, run.truth(t).Trustless.Pending.Index, "the round waits")
				t.Log(err)
				return
			}
			if (c.mode == splitTwice || c.mode == splitOld) && !markOff {
				// The play's next view, p0's, shows p1's marker.
				var lie *client.Lie
				require.ErrorAs(t, err, &lie, "p0's Table, reading the public view, names the split")
				err = nil
			}
			require.NoError(t, err, "every seat revealed what it was shown")
			require.NoError(t, ss.err)
			require.NotZero(t, ss.target)
			ctx := context.Background()
			real := run.truth(t).Trustless
			if c.mode == splitSame {
				require.Nil(t, ss.held)
				require.True(t, slices.ContainsFunc(real.Moves, func(m match.TrustlessMove) bool { return m.Index == ss.target }), "the round closed")
				for _, uid := range []string{"p0", "p1"} {
					_, err := run.tt.Tables[uid].View(ctx, 0)
					require.NoError(t, err, "%s's Table", uid)
				}
				return
			}
			require.NotNil(t, ss.held, "p1 revealed the other roll")
			require.Equal(t, ss.alt.Digest, ss.held.Reveal.Digest)
			require.NotEqual(t, real.Pending.Digest, ss.alt.Digest, "two rolls")
			require.Equal(t, ss.target, real.Pending.Index, "the round never closed")
			ack := run.tt.Tables["p1"].LastAck()
			require.Equal(t, ss.alt.Digest, ack.Action.Reveal.Digest, "p1 holds the signed acknowledgement of its reveal of the other roll")
			require.True(t, client.VerifyTableAck(run.pub, ack))
			switch {
			case c.mode == splitHidden:
				splitHiddenEnd(t, run, ss)
			case markOff:
				for _, uid := range []string{"p0", "p1"} {
					v, err := run.tt.Tables[uid].View(ctx, 0)
					require.NoError(t, err, "with MarkDigest off, %s's Table takes the split", uid)
					require.Len(t, mustTrust(t, v).Pending.Reveals, 2, "both markers shown")
				}
			default:
				for _, uid := range []string{"p0", "p1"} {
					_, err := run.tt.Tables[uid].View(ctx, 0)
					var lie *client.Lie
					require.ErrorAs(t, err, &lie, "%s's Table", uid)
					require.Contains(t, lie.What, "the server shows the seats different games")
					other := map[string]string{"p0": "seat 1 (p1)", "p1": "seat 0 (p0)"}[uid]
					require.Contains(t, lie.What, other+" revealed round", "%s names the other seat's marker", uid)
					t.Logf("%s: %s", uid, lie.What)
					splitEvidence(t, run, ss, run.truth(t), uid, err, c.legacy)
					_, err = run.tt.Tables[uid].Send(ctx, table.Action{Actor: uid, ActionID: "x", Kind: table.KindAbort})
					require.ErrorAs(t, err, &lie, "%s's Table sends nothing more", uid)
				}
			}
		})
	}
}

// splitEvidence checks the evidence err, uid's Table's lie at the split,
// carries: with markers stating their digest, a *trustseat.SplitView
// whose shown round is uid's (the real pending roll for p0, the other
// for p1), whose marker is the other seat's over the other roll, and
// whose witness is uid's own marker over its round; CheckSplit, given
// the two markers and the seats alone, finds the same split, and
// CheckMarkRecord, given the table's record (its pending round as the
// record of an aborted table holds it), finds p1's marker over another
// move than the record's and p0's over the record's (the control); p1's
// marker with its digest altered after signing is a forgery there. With
// legacy markers there is no such evidence.
func splitEvidence(t *testing.T, run *trustRun, ss *splitStore, truth *table.View, uid string, err error, legacy bool) {
	t.Helper()
	real := truth.Trustless
	var sv *trustseat.SplitView
	if legacy {
		require.False(t, errors.As(err, &sv), "a marker that states no digest proves no split")
		var ml *trustseat.MarksLie
		require.ErrorAs(t, err, &ml)
		require.Contains(t, ml.What, "(or forged the reveal)")
		return
	}
	require.ErrorAs(t, err, &sv, "%s's lie carries the split's evidence", uid)
	mine, theirs := real.Pending.Digest, ss.alt.Digest
	if uid == "p1" {
		mine, theirs = theirs, mine
	}
	require.Equal(t, ss.target, sv.Index)
	require.Equal(t, mine, sv.Digest, "the round %s is shown", uid)
	require.Equal(t, theirs, sv.Marker.Digest, "the other seat's marker states the other roll")
	require.NotNil(t, sv.Witness, "%s's own marker", uid)
	require.Equal(t, uid, sv.Witness.UID)
	require.Equal(t, mine, sv.Witness.Digest)
	require.Contains(t, err.Error(), mine)
	require.Contains(t, err.Error(), theirs)
	third, err := trustseat.CheckSplit(run.id, real.Seats, *sv.Witness, sv.Marker)
	require.NoError(t, err)
	require.NotNil(t, third, "a third party finds the split in the two markers")
	require.Equal(t, []string{mine, theirs}, []string{third.Witness.Digest, third.Marker.Digest})

	rt := real.RecordTrustless
	p := real.Pending
	rt.Pending = &match.TrustlessMove{Move: p.Move, Version: p.Version, Signature: p.Signature, Index: p.Index}
	rec := &match.Record{Game: ss.def.Name(), Mode: rng.ModeTrustless, Seats: len(rt.Seats), Rules: truth.Rules, Trustless: &rt}
	for _, m := range rt.Moves {
		rec.Moves = append(rec.Moves, m.Move)
	}
	markers := map[string]table.RevealMarker{sv.Witness.UID: *sv.Witness, sv.Marker.UID: sv.Marker}
	got, err := trustseat.CheckMarkRecord(ss.def, rec, markers["p0"])
	require.NoError(t, err)
	require.Nil(t, got, "p0's marker is over the record's move")
	got, err = trustseat.CheckMarkRecord(ss.def, rec, markers["p1"])
	require.NoError(t, err)
	require.NotNil(t, got, "p1's marker is over another move than the record's")
	require.True(t, got.Record)
	require.Equal(t, []string{real.Pending.Digest, ss.alt.Digest}, []string{got.Digest, got.Marker.Digest})
	require.Equal(t, real.Pending.Transcript, got.Transcript)
	altered := markers["p1"]
	altered.Digest = real.Pending.Digest
	_, err = trustseat.CheckMarkRecord(ss.def, rec, altered)
	var fm *trustseat.ForgedMarker
	require.ErrorAs(t, err, &fm, "a digest altered after signing is a forgery, not a split")
}

// splitHiddenEnd ends the run's split round past its deadline: the server
// names p1 missing, p0's Table takes the end, p1's stops with the drop,
// its acknowledgement of a reveal over another digest than the pending
// move the record shows at that index.
func splitHiddenEnd(t *testing.T, run *trustRun, ss *splitStore) {
	t.Helper()
	ctx := context.Background()
	for _, uid := range []string{"p0", "p1"} {
		_, err := run.tt.Tables[uid].View(ctx, 0)
		require.NoError(t, err, "no marker shown against %s's round", uid)
	}
	run.clock.Add(int64(table.MaxDeadlineMs) + 1)
	_, err := run.tt.Tables["p0"].Act(ctx, "abort", 0, nil)
	require.NoError(t, err)
	v, err := run.tt.Tables["p0"].View(ctx, 0)
	require.NoError(t, err, "p0 takes the end")
	require.Equal(t, []int{1}, v.Outcome.Missing)
	_, err = run.tt.Tables["p1"].View(ctx, 0)
	d := droppedOf(t, err)
	require.Equal(t, ss.target, d.Index)
	p := mustTrust(t, v).RecordTrustless.Pending
	require.NotNil(t, p)
	canon := match.TableAction("move", "p0", p.Version, []byte(p.Move), nil, nil)
	digest := trustless.ActionDigest(run.id, canon)
	require.NotEqual(t, hex.EncodeToString(digest[:]), d.Ack.Action.Reveal.Digest,
		"the acknowledged reveal is over another move than the record's pending one")
	require.Equal(t, ss.alt.Digest, d.Ack.Action.Reveal.Digest)
	require.True(t, client.VerifyTableAck(run.pub, &d.Ack))
	t.Log(d.Error())
}

// mustTrust is v's trustless protocol.
func mustTrust(t *testing.T, v *client.TableView) *table.TrustlessView {
	t.Helper()
	tv, err := v.TrustView(defOf("pig"))
	require.NoError(t, err)
	require.NotNil(t, tv.Trustless)
	return tv.Trustless
}
