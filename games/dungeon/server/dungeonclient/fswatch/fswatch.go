// Package fswatch is a dungeonclient.Watcher on the real store: Firestore
// listeners on a game's document and on its open round's reveal markers,
// as the player, with the player's Firebase ID token, under the security
// rules (firestore.rules: a seated player reads exactly these), and the
// log read as it grows. It is what a client uses where it can reach
// Firestore; dungeonclient.Poller is the fallback.
//
// Each snapshot of the game document is followed by one query of the log
// documents after the last one read (the commit that changed the game
// wrote them with it, so they are there); the markers' listener covers
// the open round only (its id range), and moves when the round does. So a
// client's listeners cost the database a few documents per action,
// however long the game.
//
// A listener can stay silent while the database changes (the emulator's
// do when many listen at once; a real one until it notices a lost
// connection), and a client that waits on it would miss its reveal
// deadline. So when nothing has come for [Stale], Next reads the game
// document and the open round's markers itself, once, and goes on
// waiting; what it reads goes through the same path as a snapshot.
package fswatch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/dungeonclient"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/games/dungeon/server/store/fsstore"
)

// Config says which database and game to listen to, as whom.
type Config struct {
	// ProjectID is the Firebase project.
	ProjectID string
	// Emulator is the Firestore emulator's host:port ("" for Google's
	// Firestore, over TLS).
	Emulator string
	// Token returns the player's Firebase ID token, sent with every call
	// ("Authorization: Bearer ..."), so the security rules apply to the
	// player.
	Token func(ctx context.Context) (string, error)
	// GameID is the game.
	GameID string
	// Stale is how long Next waits on the listeners before it reads the
	// documents itself (0: [Stale]).
	Stale time.Duration
	// Poll, if true, starts no listener: Next reads the documents after
	// every Stale (for a network that blocks gRPC streams; and for the
	// tests, a listener that never speaks).
	Poll bool
}

// tokenCreds sends the player's ID token with every call.
type tokenCreds struct {
	token  func(ctx context.Context) (string, error)
	secure bool
}

func (c tokenCreds) GetRequestMetadata(ctx context.Context, _ ...string) (map[string]string, error) {
	tok, err := c.token(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]string{"authorization": "Bearer " + tok}, nil
}

func (c tokenCreds) RequireTransportSecurity() bool { return c.secure }

// Stale is how long Next waits on the listeners, by default, before it
// reads the game document and the open round's markers itself.
const Stale = 3 * time.Second

// Watcher listens to one game. Next is for one goroutine; the listeners
// run on their own.
type Watcher struct {
	c      *firestore.Client
	game   *firestore.DocumentRef
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	changed chan struct{} // signalled when something arrives
	gen     uint64        // bumped at every change
	given   uint64        // gen of the last Update given
	state   *engine.Public
	events  []engine.Event        // the log read so far, in seq order
	round   uint32                // the round whose markers are listened to (0: none)
	stopRnd context.CancelFunc    // stops that listener
	marks   map[string]store.Mark // marker id → marker, of that round
	err     error
	stale   time.Duration
	poll    bool
}

// New starts listening: the game document (each snapshot followed by a
// read of the new log documents) and the open round's markers. Close
// stops it.
func New(ctx context.Context, cfg Config) (*Watcher, error) {
	addr, tc := "firestore.googleapis.com:443", credentials.NewTLS(&tls.Config{MinVersion: tls.VersionTLS12})
	secure := true
	if cfg.Emulator != "" {
		addr, tc, secure = cfg.Emulator, insecure.NewCredentials(), false
	}
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(tc),
		grpc.WithPerRPCCredentials(tokenCreds{token: cfg.Token, secure: secure}))
	if err != nil {
		return nil, fmt.Errorf("fswatch: dial: %w", err)
	}
	c, err := firestore.NewClient(ctx, cfg.ProjectID, option.WithGRPCConn(conn))
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("fswatch: %w", err)
	}
	lctx, cancel := context.WithCancel(context.Background())
	w := &Watcher{c: c, game: c.Collection("games").Doc(cfg.GameID), ctx: lctx, cancel: cancel,
		changed: make(chan struct{}, 1), marks: map[string]store.Mark{}, stale: cfg.Stale, poll: cfg.Poll}
	if w.stale <= 0 {
		w.stale = Stale
	}
	if !w.poll {
		w.listenGame()
	}
	return w, nil
}

// bump records a change (w.mu held).
func (w *Watcher) bump() {
	w.gen++
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// fail records the first error (w.mu held).
func (w *Watcher) fail(err error) {
	if w.err == nil && !errors.Is(err, context.Canceled) && w.ctx.Err() == nil {
		w.err = err
		w.bump()
	}
}

func (w *Watcher) listenGame() {
	it := w.game.Snapshots(w.ctx)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer it.Stop()
		for {
			snap, err := it.Next()
			if err != nil {
				w.mu.Lock()
				w.fail(fmt.Errorf("fswatch: the game document: %w", err))
				w.mu.Unlock()
				return
			}
			if !snap.Exists() {
				continue
			}
			if err := w.take(snap); err != nil {
				w.mu.Lock()
				w.fail(err)
				w.mu.Unlock()
				return
			}
		}
	}()
}

// take decodes a snapshot of the game document, reads the log up to it
// and makes it the state shown, unless a later version is shown already
// (the listener and a read of Next's can deliver out of order).
func (w *Watcher) take(snap *firestore.DocumentSnapshot) error {
	p, err := fsstore.DecodeGameDoc(snap.Data())
	if err != nil {
		return err
	}
	if err := w.readLog(p.LogSeq); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != nil && p.Version < w.state.Version {
		return nil
	}
	w.state = p
	if r, _ := store.OpenRound(p); r != w.round {
		if w.poll {
			w.round, w.marks = r, map[string]store.Mark{}
		} else {
			w.listenRound(r)
		}
	}
	w.bump()
	return nil
}

// reread reads the game document and the open round's markers, as the
// listeners would have delivered them (Next, after Stale of silence). A
// read that fails is not an error: the listeners, or the next reread,
// go on.
func (w *Watcher) reread(ctx context.Context) {
	snap, err := w.game.Get(ctx)
	if err != nil || !snap.Exists() {
		return
	}
	if w.take(snap) != nil {
		return // a snapshot the listener could not take either: it reports it
	}
	w.mu.Lock()
	r := w.round
	w.mu.Unlock()
	if r == 0 {
		return
	}
	docs, err := w.markers(r).Documents(ctx).GetAll()
	if err != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.round != r {
		return
	}
	for _, d := range docs {
		var m store.Mark
		if store.FromDoc(d.Data(), &m) != nil {
			return
		}
		if _, had := w.marks[d.Ref.ID]; !had {
			w.marks[d.Ref.ID] = m
			w.bump()
		}
	}
}

// markers is the query of round r's reveal markers.
func (w *Watcher) markers(r uint32) firestore.Query {
	return w.game.Collection("reveals").OrderBy(firestore.DocumentID, firestore.Asc).
		StartAt(fmt.Sprintf("%020d-", r)).EndBefore(fmt.Sprintf("%020d.", r))
}

// readLog reads the log documents after the last event read, up to seq
// upto (the game document's): the commit that made the document wrote
// them with it.
func (w *Watcher) readLog(upto uint64) error {
	w.mu.Lock()
	last := uint64(len(w.events))
	w.mu.Unlock()
	if last >= upto {
		return nil
	}
	snaps, err := w.game.Collection("log").OrderBy(firestore.DocumentID, firestore.Asc).
		StartAfter(fmt.Sprintf("%020d", last)).Documents(w.ctx).GetAll()
	if err != nil {
		return fmt.Errorf("fswatch: the log: %w", err)
	}
	var ev []engine.Event
	for _, s := range snaps {
		e, err := fsstore.DecodeLogDoc(s.Data(), last)
		if err != nil {
			return fmt.Errorf("fswatch: the log document %s: %w", s.Ref.ID, err)
		}
		ev = append(ev, e...)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range ev {
		if e.Seq == uint64(len(w.events))+1 {
			w.events = append(w.events, e)
		}
	}
	return nil
}

// listenRound moves the markers' listener to round r (0: none) (w.mu
// held).
func (w *Watcher) listenRound(r uint32) {
	if w.stopRnd != nil {
		w.stopRnd()
	}
	w.round, w.stopRnd, w.marks = r, nil, map[string]store.Mark{}
	if r == 0 {
		return
	}
	ctx, stop := context.WithCancel(w.ctx)
	w.stopRnd = stop
	it := w.markers(r).Snapshots(ctx)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer it.Stop()
		for {
			snap, err := it.Next()
			w.mu.Lock()
			if err != nil {
				if ctx.Err() == nil {
					w.fail(fmt.Errorf("fswatch: the markers of round %d: %w", r, err))
				}
				w.mu.Unlock()
				return
			}
			if w.round != r {
				w.mu.Unlock()
				return
			}
			for _, ch := range snap.Changes {
				id := ch.Doc.Ref.ID
				if ch.Kind == firestore.DocumentRemoved {
					delete(w.marks, id)
					continue
				}
				var m store.Mark
				if err := store.FromDoc(ch.Doc.Data(), &m); err != nil {
					w.fail(fmt.Errorf("fswatch: the marker %s: %w", id, err))
					w.mu.Unlock()
					return
				}
				w.marks[id] = m
			}
			w.bump()
			w.mu.Unlock()
		}
	}()
}

// Next implements dungeonclient.Watcher: it waits until something new
// has come since the last Update (and the game document has), then gives
// the game document, every event after seq after, and the open round's markers.
// After every Stale of silence it reads them itself (see the package
// doc).
func (w *Watcher) Next(ctx context.Context, after uint64) (*dungeonclient.Update, error) {
	stale := time.NewTimer(w.stale)
	defer stale.Stop()
	for {
		w.mu.Lock()
		if w.err != nil {
			err := w.err
			w.mu.Unlock()
			return nil, err
		}
		if w.gen != w.given && w.state != nil {
			w.given = w.gen
			st := *w.state
			up := &dungeonclient.Update{State: &st}
			if after < uint64(len(w.events)) {
				up.Events = slices.Clone(w.events[after:])
			}
			ids := make([]string, 0, len(w.marks))
			for id := range w.marks {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			for _, id := range ids {
				up.Marks = append(up.Marks, w.marks[id])
			}
			w.mu.Unlock()
			return up, nil
		}
		w.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-w.changed:
		case <-stale.C:
			w.reread(ctx)
			stale.Reset(w.stale)
		}
	}
}

// Close implements dungeonclient.Watcher: it stops the listeners and
// closes the connection.
func (w *Watcher) Close() error {
	w.cancel()
	w.wg.Wait()
	return w.c.Close()
}
