// Package fswatch is a client.Watcher on the real store: Firestore
// listeners on a game's document, its log and its reveal markers, as the
// player, with the player's Firebase ID token, under the security rules
// (firestore.rules: a seated player reads exactly these). It is what a
// client uses where it can reach Firestore; client.Poller is the
// fallback.
package fswatch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"slices"
	"sync"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/store"
	"github.com/fairboard/fairboard/store/fsstore"
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

// Watcher listens to one game. Safe for one client's use (Next from one
// goroutine; the listeners run on their own).
type Watcher struct {
	c      *firestore.Client
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	changed chan struct{} // signalled when something arrives
	gen     uint64        // bumped at every change
	given   uint64        // gen of the last Update given
	state   *engine.Public
	logs    map[string][]engine.Event // log document id → its events
	marks   map[string]store.Mark     // marker id → marker
	err     error
}

// New starts the listeners: the game document, the log (ordered by id)
// and the reveal markers, each a Firestore snapshot listener as the
// player. Close stops them.
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
	w := &Watcher{c: c, cancel: cancel, changed: make(chan struct{}, 1),
		logs: map[string][]engine.Event{}, marks: map[string]store.Mark{}}
	game := c.Collection("games").Doc(cfg.GameID)
	w.listenDoc(lctx, game)
	w.listenQuery(lctx, game.Collection("log").OrderBy(firestore.DocumentID, firestore.Asc), "log", func(id string, d map[string]any) error {
		ev, err := fsstore.DecodeLogDoc(d, 0)
		if err == nil {
			w.logs[id] = ev
		}
		return err
	}, func(id string) { delete(w.logs, id) })
	w.listenQuery(lctx, game.Collection("reveals").OrderBy(firestore.DocumentID, firestore.Asc), "reveals", func(id string, d map[string]any) error {
		var m store.Mark
		err := store.FromDoc(d, &m)
		if err == nil {
			w.marks[id] = m
		}
		return err
	}, func(id string) { delete(w.marks, id) })
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

// fail records the listeners' first error (w.mu held).
func (w *Watcher) fail(err error) {
	if w.err == nil && !errors.Is(err, context.Canceled) {
		w.err = err
		w.bump()
	}
}

func (w *Watcher) listenDoc(ctx context.Context, ref *firestore.DocumentRef) {
	it := ref.Snapshots(ctx)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer it.Stop()
		for {
			snap, err := it.Next()
			w.mu.Lock()
			switch {
			case err != nil:
				w.fail(fmt.Errorf("fswatch: the game document: %w", err))
				w.mu.Unlock()
				return
			case snap.Exists():
				p, derr := fsstore.DecodeGameDoc(snap.Data())
				if derr != nil {
					w.fail(derr)
					w.mu.Unlock()
					return
				}
				w.state = p
				w.bump()
			}
			w.mu.Unlock()
		}
	}()
}

func (w *Watcher) listenQuery(ctx context.Context, q firestore.Query, what string, put func(id string, d map[string]any) error, drop func(id string)) {
	it := q.Snapshots(ctx)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer it.Stop()
		for {
			snap, err := it.Next()
			w.mu.Lock()
			if err != nil {
				w.fail(fmt.Errorf("fswatch: the %s: %w", what, err))
				w.mu.Unlock()
				return
			}
			for _, ch := range snap.Changes {
				id := ch.Doc.Ref.ID
				if ch.Kind == firestore.DocumentRemoved {
					drop(id)
					continue
				}
				if err := put(id, ch.Doc.Data()); err != nil {
					w.fail(fmt.Errorf("fswatch: the %s document %s: %w", what, id, err))
					w.mu.Unlock()
					return
				}
			}
			w.bump()
			w.mu.Unlock()
		}
	}()
}

// Next implements client.Watcher: it waits until a listener has brought
// something new since the last Update (and the game document has come),
// then gives the game document, every event after seq after, and the
// markers.
func (w *Watcher) Next(ctx context.Context, after uint64) (*client.Update, error) {
	for {
		w.mu.Lock()
		if w.err != nil {
			err := w.err
			w.mu.Unlock()
			return nil, err
		}
		if w.gen != w.given && w.state != nil {
			w.given = w.gen
			up := w.update(after)
			w.mu.Unlock()
			return up, nil
		}
		w.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-w.changed:
		}
	}
}

// update builds an Update (w.mu held).
func (w *Watcher) update(after uint64) *client.Update {
	st := *w.state
	up := &client.Update{State: &st}
	ids := make([]string, 0, len(w.logs))
	for id := range w.logs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		for _, e := range w.logs[id] {
			if e.Seq > after {
				up.Events = append(up.Events, e)
			}
		}
	}
	mids := make([]string, 0, len(w.marks))
	for id := range w.marks {
		mids = append(mids, id)
	}
	slices.Sort(mids)
	for _, id := range mids {
		up.Marks = append(up.Marks, w.marks[id])
	}
	return up
}

// Close implements client.Watcher: it stops the listeners and closes the
// connection.
func (w *Watcher) Close() error {
	w.cancel()
	w.wg.Wait()
	return w.c.Close()
}
