package player_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
)

// forge returns a copy of log with the event at i edited by edit (its
// trustless record copied first, so the server's log is left as it is)
// and the seqs numbered again from 1. edit may return the events to put
// in its place: none drops it, two inserts one.
func forge(log []engine.Event, i int, edit func(e *engine.Event) []engine.Event) []engine.Event {
	var out []engine.Event
	for k := range log {
		e := log[k]
		if k != i {
			out = append(out, e)
			continue
		}
		if e.Trust != nil {
			tr := *e.Trust
			tr.Reveals = append([]engine.RevealRecord(nil), tr.Reveals...)
			e.Trust = &tr
		}
		out = append(out, edit(&e)...)
	}
	for k := range out {
		out[k].Seq = uint64(k + 1)
	}
	return out
}

// nth is the index in log of the n-th (from 0) event of type typ.
func nth(t *testing.T, log []engine.Event, typ engine.EventType, n int) int {
	t.Helper()
	for k := range log {
		if log[k].Type == typ {
			if n == 0 {
				return k
			}
			n--
		}
	}
	t.Fatalf("no %s number %d in the log", typ, n)
	return -1
}

// diverges feeds a new follower the log, and requires it to stop at event
// seq with a divergence that says want.
func diverges(t *testing.T, name string, log []engine.Event, seq uint64, want string) {
	t.Helper()
	f := player.NewFollower(engine.DefaultRules())
	err := f.Follow(log)
	var d *player.Divergence
	require.True(t, errors.As(err, &d), "%s: %v", name, err)
	require.Contains(t, d.What, want, name)
	require.Equal(t, seq, d.Seq, "%s: %s", name, d.What)
	require.Equal(t, err, f.Err())
}

// follows feeds a new follower the log (edit, if not nil, is applied to
// its replica after the first `at` events) and requires it to make the
// game the server shows.
func follows(t *testing.T, s *server, at int, edit func(p *engine.Public)) {
	t.Helper()
	f := player.NewFollower(engine.DefaultRules())
	require.NoError(t, f.Follow(s.log[:at]))
	if edit != nil {
		edit(&f.Game().Public)
	}
	require.NoError(t, f.Follow(s.log))
	require.Equal(t, s.log[len(s.log)-1].Seq, f.Seq())
	require.NoError(t, player.CheckShown(f.Game().Public, s.g.Public), "the replica is the server's game")
}

// extra is a stray event to put before log[i]: a copy of the first
// PlayerJoined, which no action makes there.
func extra(t *testing.T, log []engine.Event) func(e *engine.Event) []engine.Event {
	stray := log[nth(t, log, engine.EvPlayerJoined, 0)]
	return func(e *engine.Event) []engine.Event { return []engine.Event{stray, *e} }
}

// TestFollowerRefusesAMalformedLog: a log whose records and events are
// not what the replay makes is refused at the event that is wrong, in
// words that name it: an action record without its action, an event of
// an action forged, missing or added (the count of an action's events),
// events no action made before a pending action or a round, a round
// without its reveals or with no action pending. The honest log is
// followed to the server's game.
func TestFollowerRefusesAMalformedLog(t *testing.T) {
	s := newServer(t)
	s.closeStart()
	log := s.log
	follows(t, s, 0, nil)

	join := nth(t, log, engine.EvActionAccepted, 2) // p2's join: PlayerJoined, ActionAccepted
	require.Equal(t, engine.EvPlayerJoined, log[join-1].Type)
	seq := log[join].Seq
	pend := nth(t, log, engine.EvActionPending, 0)
	round := nth(t, log, engine.EvRoundRevealed, 0)

	diverges(t, "an ActionAccepted without its action", forge(log, join, func(e *engine.Event) []engine.Event {
		e.Trust.Action = nil
		return []engine.Event{*e}
	}), seq, "an ActionAccepted without its action")
	diverges(t, "an ActionAccepted without its record", forge(log, join, func(e *engine.Event) []engine.Event {
		e.Trust = nil
		return []engine.Event{*e}
	}), seq, "an ActionAccepted without its action")
	diverges(t, "a PlayerJoined forged", forge(log, join-1, func(e *engine.Event) []engine.Event {
		e.Class = engine.ClassScout
		return []engine.Event{*e}
	}), seq-1, `"class":"scout"`)
	diverges(t, "an ActionAccepted forged after its events", forge(log, join, func(e *engine.Event) []engine.Event {
		e.Trust.Transcript[0] ^= 1
		return []engine.Event{*e}
	}), seq, "the log shows {")
	diverges(t, "a PlayerJoined missing", forge(log, join-1, func(*engine.Event) []engine.Event { return nil }),
		seq-1, "join by p2 made 2 events; the log shows 1")
	diverges(t, "a PlayerJoined added", forge(log, join-1, extra(t, log)),
		seq+1, "join by p2 made 2 events; the log shows 3")

	diverges(t, "an ActionPending without its action", forge(log, pend, func(e *engine.Event) []engine.Event {
		e.Trust.Action = nil
		return []engine.Event{*e}
	}), log[pend].Seq, "an ActionPending without its action")
	diverges(t, "an event before the pending action", forge(log, pend, extra(t, log)),
		log[pend].Seq, "events no action made, before a pending action")

	diverges(t, "a RoundRevealed without its reveals", forge(log, round, func(e *engine.Event) []engine.Event {
		e.Trust.Reveals = nil
		return []engine.Event{*e}
	}), log[round].Seq, "a RoundRevealed without its reveals")
	diverges(t, "a RoundRevealed without its record", forge(log, round, func(e *engine.Event) []engine.Event {
		e.Trust = nil
		return []engine.Event{*e}
	}), log[round].Seq, "a RoundRevealed without its reveals")
	diverges(t, "an event before the round", forge(log, round, extra(t, log)),
		log[round].Seq, "events no action made, before a round")
	diverges(t, "a round with no action pending", forge(log, pend, func(*engine.Event) []engine.Event { return nil }),
		log[pend].Seq, "the links of round 1, but no action is pending (a missing pending record)")
}

// aborted is a server whose pending start, revealed by seat 0 only, is
// aborted by abort (a server's action, or the owner's signed abandon).
func aborted(t *testing.T, abort func(s *server) engine.Action) *server {
	s := newServer(t)
	r0, err := s.seats[0].Reveal(&s.g.Public, 5)
	require.NoError(t, err)
	s.apply(r0)
	ev := s.apply(abort(s))
	require.Equal(t, engine.EvGameAborted, ev[0].Type)
	require.Len(t, ev[0].Trust.Reveals, 1, "seat 0's reveal is published with the abort")
	require.Equal(t, engine.PhaseFinished, s.g.Public.Phase)
	return s
}

// TestFollowerReplaysAborts: an abort at the deadline and the owner's
// abandon during a round are replayed with the reveals that came before
// them, to the server's game; each is refused without what it needs (its
// record, an action pending, the abandon itself), with a reveal its
// seat's key did not sign, after events no action made, or for an
// unknown reason.
func TestFollowerReplaysAborts(t *testing.T) {
	for reason, abort := range map[string]func(s *server) engine.Action{
		engine.AbortDeadline: func(s *server) engine.Action {
			return engine.Action{Kind: engine.ActAbort, Actor: "server", At: s.g.Public.Trustless.Pending.Deadline + 1}
		},
		engine.AbortAbandoned: func(s *server) engine.Action { return s.signed(0, engine.ActAbandon) },
	} {
		s := aborted(t, abort)
		log := s.log
		ab := nth(t, log, engine.EvGameAborted, 0)
		require.Equal(t, reason, log[ab].Trust.Reason)
		follows(t, s, 0, nil)
		seq := log[ab].Seq
		edit := func(f func(rec *engine.TrustRecord)) []engine.Event {
			return forge(log, ab, func(e *engine.Event) []engine.Event { f(e.Trust); return []engine.Event{*e} })
		}

		diverges(t, reason+": no record", forge(log, ab, func(e *engine.Event) []engine.Event {
			e.Trust = nil
			return []engine.Event{*e}
		}), seq, "a GameAborted without its record")
		diverges(t, reason+": an event before it", forge(log, ab, extra(t, log)), seq, "events no action made, before an abort")
		diverges(t, reason+": an unknown reason", edit(func(rec *engine.TrustRecord) { rec.Reason = "bored" }),
			seq, "an abort for an unknown reason bored")
		diverges(t, reason+": a reveal unsigned", edit(func(rec *engine.TrustRecord) {
			sig, _ := hex.DecodeString(rec.Reveals[0].Signature)
			sig[0] ^= 1
			rec.Reveals[0].Signature = hex.EncodeToString(sig)
		}), seq, "reveal by p1 is refused by the rules")
		noPending := forge(log, nth(t, log, engine.EvActionPending, 0), func(*engine.Event) []engine.Event { return nil })
		if reason == engine.AbortDeadline {
			diverges(t, reason+": nothing pending", noPending, seq-1, "an abort at the deadline with no action pending")
			continue
		}
		diverges(t, reason+": nothing pending", noPending, seq-1, "the owner's abort with no action pending")
		diverges(t, reason+": no abandon", edit(func(rec *engine.TrustRecord) { rec.Action = nil }),
			seq, "the owner's abort without its abandon")
	}
}

// TestFollowerReplaysAChainExhausted: a move that needs an index past
// the chains (both the server's game and the replica edited to chains of
// one link, which the start uses) is replayed as the abort it makes; the
// abort without the move is refused.
func TestFollowerReplaysAChainExhausted(t *testing.T) {
	s := newServer(t)
	edited := len(s.log)
	one := func(p *engine.Public) { p.Trustless.ChainLength = 1 }
	one(&s.g.Public)
	for _, seat := range s.seats {
		one(&seat.Follower().Game().Public)
	}
	s.closeStart()
	s.toMove()
	ev := s.apply(s.signed(s.awaited(), engine.ActMove))
	require.Equal(t, engine.EvGameAborted, ev[0].Type)
	require.Equal(t, engine.AbortChainExhausted, ev[0].Trust.Reason)
	follows(t, s, edited, one)

	ab := nth(t, s.log, engine.EvGameAborted, 0)
	f := player.NewFollower(engine.DefaultRules())
	require.NoError(t, f.Follow(s.log[:edited]))
	one(&f.Game().Public)
	err := f.Follow(forge(s.log, ab, func(e *engine.Event) []engine.Event {
		e.Trust.Action = nil
		return []engine.Event{*e}
	}))
	var d *player.Divergence
	require.ErrorAs(t, err, &d)
	require.Equal(t, s.log[ab].Seq, d.Seq)
	require.Contains(t, d.What, "a chainExhausted abort without the action that needed a link")
}
