package dungeonclient_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonfn"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
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
	// stop ends the clients' play (playDouble sets it): a lie's hook
	// calls it when the clients, believing the lie, can only wait.
	stop context.CancelFunc
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
			v := &view{View: dungeonclient.View{State: d.g.Public, Events: slices.Clone(d.log)}}
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
			var q dungeonfn.CreateRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActCreate, Actor: req.UID, GameID: q.GameID, Mode: q.Mode}
		case "joinGame":
			var q dungeonfn.JoinRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActJoin, Actor: req.UID, Seat: q.Seat, Class: q.Class, ChainHead: q.ChainHead,
				PublicKey: q.PublicKey, Version: q.Version, Signature: q.Signature}
		case "startGame":
			var q dungeonfn.StartRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActStart, Actor: req.UID, Version: q.Version, Signature: q.Signature}
		case "act":
			var q dungeonfn.ActRequest
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
				return dungeonclient.Result{Version: d.g.Public.Version, Events: ev}, nil
			}
		case "reveal":
			var q dungeonfn.RevealRequest
			if err := callable.DecodeData(req.Data, &q); err != nil {
				return nil, err
			}
			a = engine.Action{Kind: engine.ActReveal, Actor: req.UID, Seat: q.Seat, Index: q.Index, Link: q.Link, Digest: q.Digest,
				Transcript: q.Transcript, Signature: q.Signature}
			if d.reveal != nil && d.reveal(d, req.UID, a) {
				return dungeonclient.Result{Version: d.g.Public.Version, Events: []engine.Event{}, Staged: true}, nil
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
		return dungeonclient.Result{Version: d.g.Public.Version, Events: ev}, nil
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
		return dungeonclient.Result{Version: d.g.Public.Version, Events: []engine.Event{}, Staged: true}, nil
	}
	for _, s := range d.staged {
		ev, err := d.apply(&d.g, s)
		if err != nil {
			return nil, err
		}
		d.log = append(d.log, ev...)
	}
	d.staged = nil
	return dungeonclient.Result{Version: d.g.Public.Version, Events: []engine.Event{}, Staged: true}, nil
}

func refusal(err error) error {
	var rej *engine.Error
	if errors.As(err, &rej) {
		st := dungeonfn.CodeStatus[rej.Code]
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
	dungeonclient.View
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
