package client_test

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/player"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/session"
	"github.com/fairboard/fairboard/store"
)

// double is a test double of the functions: an honest server in process
// (the engine, session.StreamFor before every action, the round's reveals
// held apart until every seat has revealed, as the service stages them)
// whose answers a lie may rewrite for each reader. It serves what a
// client calls: createGame, joinGame, startGame, act, reveal, getView.
type double struct {
	t   *testing.T
	mu  sync.Mutex
	g   engine.Game
	log []engine.Event
	// staged are the reveals of the open round, in the order they came.
	staged []engine.Action
	now    int64

	// view, if not nil, rewrites the answer to uid's getView (its log is
	// the whole log: the double cuts it after afterSeq afterwards).
	view func(d *double, uid string, v *view)
	// reveal, if not nil, takes uid's reveal instead of the honest path
	// (true: handled; the answer is a staged result).
	reveal func(d *double, uid string, a engine.Action) bool
	// marks are extra markers to show (a lie that takes reveals itself).
	marks []store.Mark
	// actReveal, if not nil, sees each act that comes with its reveal,
	// and refuses it with the error it returns.
	actReveal func(a engine.Action, rv functions.ActReveal) error
}

func newDouble(t *testing.T) (*double, string) {
	d := &double{t: t, now: 1_760_000_000_000}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return d, srv.URL
}

// apply dispatches a on the honest game (d.mu held).
func (d *double) apply(g *engine.Game, a engine.Action) ([]engine.Event, error) {
	d.now++
	a.At = d.now
	var s *rng.Stream
	if a.Kind != engine.ActCreate {
		st, err := session.StreamFor(g, &a)
		if err != nil {
			return nil, err
		}
		s = st
	}
	return eng.Dispatch(g, &a, s, nil)
}

func (d *double) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	callable.Handler(functions.InsecureDevVerifier{}, func(ctx context.Context, req callable.Request) (any, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		name := strings.TrimPrefix(r.URL.Path, "/")
		var a engine.Action
		switch name {
		case "getView":
			var q functions.ViewRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			v := &view{View: client.View{State: d.g.Public, Events: slices.Clone(d.log)}}
			for _, s := range d.staged {
				v.Reveals = append(v.Reveals, store.MarkOf(&s))
			}
			v.Reveals = append(v.Reveals, d.marks...)
			v.State = *clonePublic(&d.g.Public)
			if d.view != nil {
				d.view(d, req.UID, v)
			}
			var after []engine.Event
			for _, e := range v.Events {
				if e.Seq > q.AfterSeq {
					after = append(after, e)
				}
			}
			if len(after) > 0 {
				after = append(v.Resend, after...)
			}
			v.Events = after
			if v.Events == nil {
				v.Events = []engine.Event{}
			}
			return v.View, nil
		case "createGame":
			var q functions.CreateRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActCreate, Actor: req.UID, GameID: q.GameID, Mode: q.Mode}
		case "joinGame":
			var q functions.JoinRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActJoin, Actor: req.UID, Seat: q.Seat, Class: q.Class, ChainHead: q.ChainHead,
				PublicKey: q.PublicKey, Version: q.Version, Signature: q.Signature}
		case "startGame":
			var q functions.StartRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActStart, Actor: req.UID, Version: q.Version, Signature: q.Signature}
		case "act":
			var q functions.ActRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: q.Kind, Actor: req.UID, Version: q.Version, Target: q.Target, CardID: q.CardID, Signature: q.Signature}
			if rv := q.Reveal; rv != nil {
				if d.actReveal != nil {
					if err := d.actReveal(a, *rv); err != nil {
						return nil, err
					}
				}
				// The action with its own reveal: the reveal staged after it,
				// as the others' are (the double shows it as a marker).
				ev, err := d.apply(&d.g, a)
				if err != nil {
					return nil, refusal(err)
				}
				d.log = append(d.log, ev...)
				if _, err := d.stage(engine.Action{Kind: engine.ActReveal, Actor: req.UID, Seat: rv.Seat, Index: rv.Index, Link: rv.Link,
					Digest: rv.Digest, Transcript: rv.Transcript, Signature: rv.Signature}); err != nil {
					return nil, err
				}
				return client.Result{Version: d.g.Public.Version, Events: ev}, nil
			}
		case "reveal":
			var q functions.RevealRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActReveal, Actor: req.UID, Seat: q.Seat, Index: q.Index, Link: q.Link, Digest: q.Digest,
				Transcript: q.Transcript, Signature: q.Signature}
			if d.reveal != nil && d.reveal(d, req.UID, a) {
				return client.Result{Version: d.g.Public.Version, Events: []engine.Event{}, Staged: true}, nil
			}
			return d.stage(a)
		default:
			return nil, callable.NotFound("no function %s", name)
		}
		ev, err := d.apply(&d.g, a)
		if err != nil {
			return nil, refusal(err)
		}
		d.log = append(d.log, ev...)
		return client.Result{Version: d.g.Public.Version, Events: ev}, nil
	}).ServeHTTP(w, r)
}

// stage holds an honest reveal until every seat has revealed, then
// applies them all in the order they came (d.mu held). Each is checked on
// a copy first, as the service does.
func (d *double) stage(a engine.Action) (any, error) {
	cl := d.g.Clone()
	for _, s := range d.staged {
		if _, err := d.apply(cl, s); err != nil {
			return nil, err
		}
	}
	d.now++
	a.At = d.now
	if _, err := d.apply(cl, a); err != nil {
		return nil, refusal(err)
	}
	d.staged = append(d.staged, a)
	if len(d.staged) < len(d.g.Public.Trustless.Seats) {
		return client.Result{Version: d.g.Public.Version, Events: []engine.Event{}, Staged: true}, nil
	}
	for _, s := range d.staged {
		ev, err := d.apply(&d.g, s)
		if err != nil {
			return nil, err
		}
		d.log = append(d.log, ev...)
	}
	d.staged = nil
	return client.Result{Version: d.g.Public.Version, Events: []engine.Event{}, Staged: true}, nil
}

func refusal(err error) error {
	var rej *engine.Error
	if errors.As(err, &rej) {
		st := functions.CodeStatus[rej.Code]
		return &callable.Error{Status: st, Message: rej.Msg, Details: map[string]string{"code": string(rej.Code)}}
	}
	return err
}

func clonePublic(p *engine.Public) *engine.Public {
	g := engine.Game{Public: *p}
	return &g.Clone().Public
}

// view is a getView answer a lie may rewrite: the whole log (the double
// keeps the events after the reader's seq), and events to send again
// before them (Resend).
type view struct {
	client.View
	Resend []engine.Event
}

// rewrite replaces, in v's log, the event of seq with f's change of it.
func rewrite(v *view, seq uint64, f func(e *engine.Event)) {
	for i := range v.Events {
		if v.Events[i].Seq == seq {
			e := v.Events[i]
			if e.Trust != nil {
				tr := *e.Trust
				e.Trust = &tr
			}
			f(&e)
			v.Events[i] = e
		}
	}
}

// first returns the seq of the first event of the log that matches, after
// seq from (0 if none).
func first(log []engine.Event, from uint64, match func(e *engine.Event) bool) uint64 {
	for i := range log {
		if log[i].Seq > from && match(&log[i]) {
			return log[i].Seq
		}
	}
	return 0
}

// TestHostileServerCaught: a server that lies, in each way of the issue,
// is caught by every honest client it lies to, which stops and names what
// diverged (a *client.Lie): it asks for a later index than the log's
// pending action uses; it applies an action with other randomness (a die
// the round's R_v does not make); it changes a past event; it applies an
// action no seat signed; it replaces a pending action by another in the
// game document; it shows two clients two different pending actions, both
// signed by their actor (who signed twice), and the round never
// completes: each client sees the other's reveal signed over another
// action, and says so. The honest double, with no lie, is played to its
// end by the same clients (the control).
func TestHostileServerCaught(t *testing.T) {
	type lie struct {
		name string
		// setup sets the lie up; it may return a hook that gets the
		// clients once they are seated, before they play.
		setup func(d *double) func(cs []*client.Client)
		want  string // in every client's Lie
	}
	lies := []lie{
		{"laterIndex", func(d *double) func([]*client.Client) {
			d.view = func(d *double, uid string, v *view) {
				if t := v.State.Trustless; t != nil && t.Pending != nil && t.Pending.Index >= 2 {
					t.Pending.Index++
				}
			}
			return nil
		}, "the server asks for index"},
		{"otherRandomness", func(d *double) func([]*client.Client) {
			var seq uint64
			d.view = func(d *double, uid string, v *view) {
				if r := first(v.Events, 0, func(e *engine.Event) bool { return e.Type == engine.EvRoundRevealed && e.Trust.Index >= 2 }); seq == 0 && r > 0 {
					seq = first(v.Events, r, func(e *engine.Event) bool { return e.Type == engine.EvDiceRolled })
				}
				rewrite(v, seq, func(e *engine.Event) { e.Value = e.Value%e.Sides + 1 })
			}
			return nil
		}, "the replay makes"},
		{"pastEventChanged", func(d *double) func([]*client.Client) {
			d.view = func(d *double, uid string, v *view) {
				if len(v.Events) > 40 {
					// Sent again with the next events, changed.
					e := v.Events[2]
					e.Class = engine.ClassScout
					v.Resend = []engine.Event{e}
				}
			}
			return nil
		}, "a past event changed"},
		{"unsignedAction", func(d *double) func([]*client.Client) {
			var seq uint64
			_, forger, _ := ed25519.GenerateKey(nil)
			d.view = func(d *double, uid string, v *view) {
				if r := first(v.Events, 0, func(e *engine.Event) bool { return e.Type == engine.EvRoundRevealed }); seq == 0 && r > 0 {
					seq = first(v.Events, r, func(e *engine.Event) bool { return e.Type == engine.EvActionAccepted })
				}
				rewrite(v, seq, func(e *engine.Event) {
					msg, _ := engine.ActionMessage(d.g.Public.GameID, e.Trust.Action)
					e.Trust.Signature = hex.EncodeToString(ed25519.Sign(forger, msg))
				})
			}
			return nil
		}, "bad_signature"},
		{"pendingReplaced", func(d *double) func([]*client.Client) {
			d.view = func(d *double, uid string, v *view) {
				if t := v.State.Trustless; t != nil && t.Pending != nil && t.Pending.Index >= 2 {
					t.Pending.Digest[0] ^= 1
					t.Pending.Action.Kind = engine.ActSleep
				}
			}
			return nil
		}, "another pending action"},
		{"splitPending", splitPending, "the server shows the seats different games"},
	}
	for _, l := range lies {
		t.Run(l.name, func(t *testing.T) {
			d, url := newDouble(t)
			_, errs := playDouble(t, url, 3, l.setup(d))
			for i, err := range errs {
				var lie *client.Lie
				require.True(t, errors.As(err, &lie), "%s's client: %v, want a lie", bot.UID(i), err)
				require.Contains(t, lie.What, l.want, "%s's client", bot.UID(i))
				t.Logf("%s: %s", bot.UID(i), lie.What)
			}
		})
	}
	t.Run("honest", func(t *testing.T) {
		d, url := newDouble(t)
		_, errs := playDouble(t, url, 3, nil)
		for i, err := range errs {
			require.NoError(t, err, "%s's client", bot.UID(i))
		}
		require.Equal(t, engine.PhaseFinished, d.g.Public.Phase)
	})
}

// splitPending shows p2 a start by p1 other than the one p1's client sent
// (p1 signed both: its client's start, and one with keepSmokeBomb set,
// which the engine takes and which draws just the same), and takes every
// reveal itself, never closing the round. It shows the reveals as markers
// once every seat has revealed: shown as they came, the marker of a seat
// that revealed first would stop the other side's clients before they
// revealed (a marker over another digest is a lie they name at once), and
// the first seat could never tell more than that the round waits, which
// is what a slow seat looks like too (under load, the order varies).
func splitPending(d *double) func([]*client.Client) {
	var y engine.Action
	var alt *engine.Game
	var altLog []engine.Event
	var held []store.Mark
	d.view = func(d *double, uid string, v *view) {
		pd := d.g.Public.Trustless
		if alt == nil && pd != nil && pd.Pending != nil && pd.Pending.Index == 1 {
			// The game before the start (the log without the start's one
			// event, ActionPending), and the other start applied to it.
			n := len(d.log) - 1
			f := player.NewFollower(engine.DefaultRules())
			if err := f.Follow(d.log[:n]); err != nil {
				d.t.Error(err)
				return
			}
			g := f.Game().Clone()
			a := y
			a.At = pd.Pending.Action.At
			ev, err := eng.Dispatch(g, &a, mustStream(d.t, g, &a), nil)
			if err != nil {
				d.t.Error(err)
				return
			}
			alt, altLog = g, append(slices.Clone(d.log[:n]), ev...)
		}
		if alt != nil && uid == "p2" {
			v.State, v.Events = *clonePublic(&alt.Public), slices.Clone(altLog)
		}
	}
	d.reveal = func(d *double, uid string, a engine.Action) bool {
		held = append(held, store.MarkOf(&a))
		if len(held) == len(d.g.Public.Players) {
			d.marks = held
		}
		return true
	}
	return func(cs []*client.Client) {
		// p1's second signature, over a start at the version its
		// client's start is made against (after create and 3 joins).
		y = engine.Action{Kind: engine.ActStart, Actor: "p1", Version: 4, KeepSmokeBomb: true}
		if err := cs[0].Seat().Sign(&y); err != nil {
			d.t.Fatal(err)
		}
	}
}

func mustStream(t *testing.T, g *engine.Game, a *engine.Action) *rng.Stream {
	s, err := session.StreamFor(g, a)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// playDouble seats n polling clients on the double and plays until every
// client has stopped (the game's end, a lie, or 60 s); seen, if not nil,
// gets the clients once they are seated. It returns each client's error.
func playDouble(t *testing.T, url string, n int, seen func([]*client.Client)) ([]*client.Client, []error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	require.NoError(t, devFunctions(url, "p1").Call(ctx, "createGame", map[string]any{"gameId": "tl-double", "mode": "trustless"}, nil))
	ss := seats(n)
	dir := t.TempDir()
	cs := make([]*client.Client, n)
	for i := range n {
		uid := bot.UID(i)
		c, err := client.Join(ctx, client.Config{Functions: devFunctions(url, uid), UID: uid, GameID: "tl-double",
			SecretsFile: filepath.Join(dir, uid+".json"), Retry: 10 * time.Millisecond, PollEvery: 5 * time.Millisecond}, i, ss[i].Class, false)
		require.NoError(t, err)
		cs[i] = c
	}
	if seen != nil {
		seen(cs)
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Play(ctx, ss[i].Policy, func(p *engine.Public) bool { return len(p.Players) == n })
		}()
	}
	wg.Wait()
	return cs, errs
}
