// Package dungeonclient is a player's side of a trustless game of the
// dungeon played through the Cloud Functions (docs/fairness.md, "The
// trustless mode"; docs/functions.md, "Trustless games"). It builds on
// package player and calls the functions through package client's
// Functions: a [Client] joins with a fresh hash chain and Ed25519 key,
// keeps the seat's secrets in a file its caller names (written before any
// link leaves the process, with the index and digest it reveals, so that
// a crash can never make it reveal two links for one index, nor lose its
// chain), and watches the game through a [Watcher] (a Firestore listener
// on the real store, package dungeonclient/fswatch; a [Poller] of getView
// where there is none). It replays and checks every event as it arrives
// (player.Follower: every signature, link, R_v and draw), requires the
// game document the server shows to be the state its own replay makes and
// every reveal marker to be signed by its seat over the action the log
// has pending, and reveals only what it has checked. When the server
// shows something the log does not make, it stops with a [*client.Lie]
// that says what diverged; when it aborts the game naming this seat as
// missing a round whose reveal it acknowledged, with a [*Dropped] that
// cites the acknowledgement.
//
// [Client.Play] plays a whole game with a bot policy: the bots play
// trustless games through the functions with it. A table game's player
// is package client's Table.
package dungeonclient

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/internal/checks"
)

// Config is what a Client needs: where the functions are, who the player
// is, which game, and where its secrets live.
type Config struct {
	// Functions calls the functions as the player (its Token gives the
	// player's ID token).
	Functions *client.Functions
	// UID is the player's uid (the one its ID token carries).
	UID string
	// GameID is the game.
	GameID string
	// SecretsFile is the file that keeps the seat's secrets (created with
	// mode 0600, replaced atomically). Losing it loses the seat: the
	// chain's links cannot be made again.
	SecretsFile string
	// Rules is the ruleset the game is played under (nil: the default).
	Rules *engine.Ruleset
	// Watch makes the client's Watcher once it is seated (nil: a Poller
	// of getView every PollEvery).
	Watch     func(ctx context.Context) (Watcher, error)
	PollEvery time.Duration
	// Retry is the first pause before a retryable call is sent again
	// (doubling, at most 2 s; 0: 100 ms).
	Retry time.Duration
	// ServerKey, if set, is the server's published Ed25519 key for
	// acknowledgements: every reveal the server answers with success must
	// come with its signature by that key (service.Config.AckKey), or the
	// client stops with a *client.Lie. Nil: acknowledgements are not
	// signed (and prove nothing to a third party).
	ServerKey ed25519.PublicKey
}

// Client is one seat of a trustless game. Not safe for concurrent use.
type Client struct {
	cfg   Config
	rules *engine.Ruleset
	seat  *player.Seat
	file  secretsFile
	w     Watcher

	shown *engine.Public // the game document as last shown
	marks []store.Mark   // the open round's markers as last shown
	seen  [][]byte       // every event read, as JSON (index seq-1)
	sent  uint32         // the last index whose reveal the server acknowledged
	err   error          // a *client.Lie, once found
}

func (c *Client) retry() time.Duration {
	if c.cfg.Retry > 0 {
		return c.cfg.Retry
	}
	return 100 * time.Millisecond
}

func newClient(cfg Config) *Client {
	if cfg.Rules == nil {
		cfg.Rules = engine.DefaultRules()
	}
	return &Client{cfg: cfg, rules: cfg.Rules}
}

// Join seats the player at seat with class in the game (in its lobby):
// it reads the game (getView), makes a fresh chain of the game's length
// and a fresh key (crypto/rand, rng/trustless), writes them to the
// secrets file, and only then sends the signed join (chainHead, publicKey,
// signature) against the version it read, again against the new version
// if another join came first. Then it follows the game.
func Join(ctx context.Context, cfg Config, seat int, class engine.Class, keepSmokeBomb bool) (*Client, error) {
	c := newClient(cfg)
	var v View
	if err := cfg.Functions.Call(ctx, "getView", map[string]any{"gameId": cfg.GameID}, &v); err != nil {
		return nil, err
	}
	t := v.State.Trustless
	if t == nil {
		return nil, fmt.Errorf("client: game %s is not a trustless game", cfg.GameID)
	}
	s, err := player.NewSeat(c.rules, cfg.GameID, cfg.UID, seat, t.ChainLength)
	if err != nil {
		return nil, err
	}
	c.seat, c.file.Secrets = s, s.Secrets()
	if err := saveSecrets(cfg.SecretsFile, &c.file); err != nil {
		return nil, err
	}
	version := v.State.Version
	for tries := 0; ; tries++ {
		a, err := s.Join(class, keepSmokeBomb, version)
		if err != nil {
			return nil, err
		}
		data := map[string]any{"gameId": cfg.GameID, "actionId": "join-" + strconv.FormatUint(version, 10), "seat": seat,
			"class": class, "chainHead": a.ChainHead, "publicKey": a.PublicKey, "version": a.Version, "signature": a.Signature}
		if keepSmokeBomb {
			data["keepSmokeBomb"] = true
		}
		err = c.call(ctx, "joinGame", data, nil)
		var ce *client.CallError
		if errors.As(err, &ce) && ce.Code == string(engine.CodeStaleVersion) && tries < 20 {
			if err := cfg.Functions.Call(ctx, "getView", map[string]any{"gameId": cfg.GameID}, &v); err != nil {
				return nil, err
			}
			version = v.State.Version
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	return c, c.watch(ctx)
}

// Resume is the client of a seat after a restart: its secrets from the
// file, and the game followed again from its first event (everything is
// checked again). A reveal the file holds that the server has not shown
// is sent again (the same link, for the same action: it is what the file
// is for).
func Resume(ctx context.Context, cfg Config) (*Client, error) {
	c := newClient(cfg)
	f, err := loadSecrets(cfg.SecretsFile)
	if err != nil {
		return nil, err
	}
	if f.Secrets.GameID != cfg.GameID || f.Secrets.UID != cfg.UID {
		return nil, fmt.Errorf("client: the secrets file is %s's seat in game %s, not %s's in %s", f.Secrets.UID, f.Secrets.GameID, cfg.UID, cfg.GameID)
	}
	if c.seat, err = player.RestoreSeat(c.rules, f.Secrets); err != nil {
		return nil, err
	}
	c.file = *f
	return c, c.watch(ctx)
}

func (c *Client) watch(ctx context.Context) error {
	if c.cfg.Watch == nil {
		c.w = &Poller{F: c.cfg.Functions, GameID: c.cfg.GameID, Every: c.cfg.PollEvery}
		return nil
	}
	w, err := c.cfg.Watch(ctx)
	c.w = w
	return err
}

// Close stops the client's watcher.
func (c *Client) Close() error {
	if c.w == nil {
		return nil
	}
	return c.w.Close()
}

// Seat returns the client's seat (its chain, key and replica).
func (c *Client) Seat() *player.Seat { return c.seat }

// Game returns the client's replica of the game: what the public log,
// replayed and checked, makes. Act on it, never on what the server shows.
func (c *Client) Game() *engine.Game { return c.seat.Follower().Game() }

// Err returns the lie that stopped the client, if any.
func (c *Client) Err() error { return c.err }

// Consistent reports whether the client has read the log up to the game
// document it was last shown (and so checked that document).
func (c *Client) Consistent() bool {
	return c.shown != nil && c.seat.Follower().Seq() == c.shown.LogSeq
}

// Sync waits for the next thing the server shows of the game (or ctx's
// end) and checks it: every new event replayed, every event shown again
// unchanged, and, once the log has caught up with the game document, the
// document against the replay and the open round's markers against their
// seats' keys and the pending action. A lie is returned (and kept: every
// later call returns it).
func (c *Client) Sync(ctx context.Context) error {
	if c.err != nil {
		return c.err
	}
	up, err := c.w.Next(ctx, c.seat.Follower().Seq())
	if err != nil {
		return err
	}
	return c.ingest(up)
}

func (c *Client) lie(format string, args ...any) error {
	c.err = &client.Lie{What: fmt.Sprintf(format, args...)}
	return c.err
}

// ingest checks one update.
func (c *Client) ingest(up *Update) error {
	var fresh []engine.Event
	for i := range up.Events {
		e := &up.Events[i]
		b := e.AppendJSON(nil)
		switch {
		case e.Seq == 0:
			return c.lie("an event without a seq: %s", b)
		case e.Seq <= uint64(len(c.seen)):
			if old := c.seen[e.Seq-1]; !bytes.Equal(old, b) && checks.On(checks.PastEvent) {
				return c.lie("event %d was %s; the server now shows %s (a past event changed)", e.Seq, old, b)
			}
		case e.Seq == uint64(len(c.seen))+1:
			c.seen = append(c.seen, b)
			fresh = append(fresh, *e)
		default:
			return c.lie("the log skips from seq %d to %d", len(c.seen), e.Seq)
		}
	}
	if err := c.seat.Follow(fresh); err != nil {
		var d *player.Divergence
		if errors.As(err, &d) {
			return c.lie("%s", d.Error())
		}
		return c.lie("%v", err)
	}
	if err := c.checkBlame(fresh); err != nil {
		return err
	}
	if up.State != nil {
		c.shown = up.State
	}
	c.marks = up.Marks
	if !c.Consistent() {
		return nil
	}
	if err := c.checkShown(); err != nil {
		return err
	}
	return c.checkMarks()
}

// checkShown requires the game document to be the replay's
// (player.CheckShown).
func (c *Client) checkShown() error {
	if err := player.CheckShown(c.Game().Public, *c.shown); err != nil {
		return c.lie("%s", err)
	}
	return nil
}

// checkMarks requires every marker of the round the log has pending to be
// its seat's signature over the pending action's digest and transcript
// (player.CheckMarks).
func (c *Client) checkMarks() error {
	if err := player.CheckMarks(c.cfg.GameID, &c.Game().Public, c.marks); err != nil {
		return c.lie("%s", err)
	}
	return nil
}
