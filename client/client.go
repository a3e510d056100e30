// Package client is a player's side of a trustless game played through
// the Cloud Functions (docs/fairness.md, "The trustless mode";
// docs/functions.md, "Trustless games"). It builds on package player: a
// [Client] joins with a fresh hash chain and Ed25519 key, keeps the seat's
// secrets in a file its caller names (written before any link leaves the
// process, with the index and digest it reveals, so that a crash can
// never make it reveal two links for one index, nor lose its chain), and
// watches the game through a [Watcher] (a Firestore listener on the real
// store, package client/fswatch; a [Poller] of getView where there is
// none). It replays and checks every event as it arrives (player.Follower:
// every signature, link, R_v and draw), requires the game document the
// server shows to be the state its own replay makes and every reveal
// marker to be signed by its seat over the action the log has pending,
// and reveals only what it has checked. When the server shows something
// the log does not make, it stops with a [*Lie] that says what diverged;
// when it aborts the game naming this seat as missing a round whose
// reveal it acknowledged, with a [*Dropped] that cites the
// acknowledgement.
//
// [Client.Play] plays a whole game with a bot policy: the bots play
// trustless games through the functions with it.
package client

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fairboard/fairboard/bot"
	"github.com/fairboard/fairboard/engine"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/player"
	"github.com/fairboard/fairboard/store"
)

// Config is what a Client needs: where the functions are, who the player
// is, which game, and where its secrets live.
type Config struct {
	// Functions calls the functions as the player (its Token gives the
	// player's ID token).
	Functions *Functions
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
	// client stops with a *Lie. Nil: acknowledgements are not signed (and
	// prove nothing to a third party).
	ServerKey ed25519.PublicKey
}

// Lie is what a client found the server showing that the public log,
// replayed and checked from nothing but public data, does not make: an
// event the replay does not make (another die, card or draw; an action no
// seat signed; a link that is not its chain's), a past event changed, a
// game document other than the replay's (another index asked for, a
// pending action replaced), a reveal marker not signed by its seat or
// signed over another action (the seats shown different games). The
// client stops revealing; the player should be told What.
type Lie struct {
	What string
}

func (l *Lie) Error() string { return "client: the server lies: " + l.What }

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
	err   error          // a *Lie, once found
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
		var ce *CallError
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
	c.err = &Lie{What: fmt.Sprintf(format, args...)}
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

// revealed reports whether the open round shows this seat's reveal: its
// marker, or its reveal applied into the game with its action.
func (c *Client) revealed(index uint32) bool {
	for _, m := range c.marks {
		if m.Index == index && m.UID == c.cfg.UID {
			return true
		}
	}
	if c.shown != nil && c.shown.Trustless != nil {
		if pd := c.shown.Trustless.Pending; pd != nil && pd.Index == index {
			for _, m := range pd.Reveals {
				if m.UID == c.cfg.UID {
					return true
				}
			}
		}
	}
	return false
}

// RevealPending reveals the seat's link for the round the checked game
// has pending, if it has not yet (or sends again the reveal its secrets
// file holds, which the server has not acknowledged): it returns whether
// it sent one. The secrets file is written, with the index, the digest
// and the reveal, before the link is sent. Call it when Consistent.
func (c *Client) RevealPending(ctx context.Context) (bool, error) {
	if c.err != nil {
		return false, c.err
	}
	if !c.Consistent() {
		return false, nil
	}
	g := c.Game()
	t := g.Public.Trustless
	if g.Public.Phase == engine.PhaseFinished || t == nil || t.Pending == nil {
		return false, nil
	}
	pd := t.Pending
	if r := c.file.Reveal; r != nil && r.Index == pd.Index {
		if c.sent == pd.Index || c.revealed(pd.Index) {
			return false, nil
		}
		if c.file.Secrets.Digest != pd.Digest {
			return false, c.lie("index %d was revealed for the action of digest %s; the log now has %s pending there", pd.Index, c.file.Secrets.Digest, pd.Digest)
		}
		return true, c.sendReveal(ctx, r)
	}
	a, err := c.seat.Reveal(c.shown, 0)
	if errors.Is(err, player.ErrNothingToReveal) {
		return false, nil
	}
	if err != nil {
		return false, c.lie("%v", err)
	}
	c.file.Secrets, c.file.Reveal = c.seat.Secrets(), &a
	if err := saveSecrets(c.cfg.SecretsFile, &c.file); err != nil {
		return false, err
	}
	return true, c.sendReveal(ctx, &a)
}

// sendReveal sends a (retrying what may succeed later, with the same
// action id). A round that moved on meanwhile (aborted, or the game
// over) is not an error: the next Sync shows it.
func (c *Client) sendReveal(ctx context.Context, a *engine.Action) error {
	id := "reveal-" + strconv.FormatUint(uint64(a.Index), 10)
	data := map[string]any{"gameId": c.cfg.GameID, "actionId": id,
		"seat": a.Seat, "index": a.Index, "link": a.Link, "digest": a.Digest, "transcript": a.Transcript, "signature": a.Signature}
	var res Result
	err := c.call(ctx, "reveal", data, &res)
	var ce *CallError
	code := ""
	if errors.As(err, &ce) {
		switch engine.Code(ce.Code) {
		case engine.CodeWrongIndex, engine.CodeDeadlinePassed, engine.CodeGameOver:
			return nil
		case engine.CodeAlreadyRevealed:
			err, code = nil, ce.Code // its action brought it (act's reveal), or an earlier send did
		}
	}
	if err == nil {
		c.sent = a.Index
		return c.acked(a, "reveal", id, &res, code)
	}
	return err
}

// call sends data to the function, again after a pause (doubling, at
// most 2 s) while the refusal is retryable: the same action id gets the
// first answer, so a call whose answer was lost is never applied twice.
func (c *Client) call(ctx context.Context, name string, data, res any) error {
	pause := c.retry()
	for {
		err := c.cfg.Functions.Call(ctx, name, data, res)
		var ce *CallError
		if !errors.As(err, &ce) || !ce.Retryable() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// Act signs the player's action a (kind and its fields; the actor, the
// version of the checked game and the signature are the client's) and
// sends it: startGame for a start, act for the rest. Its action id is
// the version it is made against, so a retry is the same action.
//
// An action that draws (the checked game, applying it, would hold it
// pending) goes with the seat's reveal for the index it will use
// (player.Seat.ActReveal; docs/fairness.md, "An action with its
// reveal"): the round then waits for the other seats only. The reveal
// and the action are written to the secrets file before they are sent,
// and once an action has gone with its reveal the client sends that
// action again at that version, never another (after a restart too): a
// refusal of it stops the client with an error that says so.
func (c *Client) Act(ctx context.Context, a engine.Action) (*Result, error) {
	if c.err != nil {
		return nil, c.err
	}
	a.Actor, a.Version = c.cfg.UID, c.Game().Public.Version
	var rv *engine.Action
	if f := c.file.Act; f != nil && f.Version == a.Version && c.file.Reveal != nil && a.Kind != engine.ActStart {
		a, rv = *f, c.file.Reveal // this version's action went with its reveal: the same again
	} else {
		if err := c.seat.Sign(&a); err != nil {
			return nil, err
		}
		if a.Kind != engine.ActStart {
			r, draws, err := c.seat.ActReveal(&a)
			if err != nil {
				return nil, err
			}
			if draws {
				sa := a
				c.file.Secrets, c.file.Reveal, c.file.Act = c.seat.Secrets(), &r, &sa
				if err := saveSecrets(c.cfg.SecretsFile, &c.file); err != nil {
					return nil, err
				}
				rv = &r
			}
		}
	}
	id := "v" + strconv.FormatUint(a.Version, 10)
	var res Result
	if a.Kind == engine.ActStart {
		return &res, c.call(ctx, "startGame", map[string]any{"gameId": c.cfg.GameID, "actionId": id, "version": a.Version, "signature": a.Signature}, &res)
	}
	data := map[string]any{"gameId": c.cfg.GameID, "actionId": id, "kind": a.Kind, "version": a.Version, "signature": a.Signature}
	if a.Target != "" {
		data["target"] = a.Target
	}
	if a.CardID != "" {
		data["cardId"] = a.CardID
	}
	if rv != nil {
		data["reveal"] = map[string]any{"seat": rv.Seat, "index": rv.Index, "link": rv.Link, "digest": rv.Digest,
			"transcript": rv.Transcript, "signature": rv.Signature}
	}
	err := c.call(ctx, "act", data, &res)
	var ce *CallError
	switch {
	case err == nil && rv != nil:
		c.sent = rv.Index
		if err := c.acked(rv, "act", id, &res, ""); err != nil {
			return &res, err
		}
	case rv != nil && errors.As(err, &ce) && !ce.Retryable() && engine.Code(ce.Code) != engine.CodeGameOver:
		// The link has left with this action: the index serves it or none.
		return &res, fmt.Errorf("client: %s at version %d went with this seat's link for index %d and was refused (%s: %s): that index can serve no other action, so the game cannot go on",
			a.Kind, a.Version, rv.Index, ce.Code, ce.Message)
	}
	return &res, err
}

// Play plays the game to its end with the policy: after each thing the
// server shows, checked, it reveals for a pending round, and acts when
// the checked game awaits this player. start, if not nil, is asked (by
// the owner's client) in the lobby whether to start now. It returns nil
// when the game has finished (won, abandoned or aborted), a *Lie when the
// server lied (a *Dropped when it aborted the game blaming this seat for a
// round whose reveal it had acknowledged), or the error that stopped it.
func (c *Client) Play(ctx context.Context, policy bot.Policy, start func(p *engine.Public) bool) error {
	for {
		// Nothing new for a while: look again at what the client owes
		// (a reveal whose answer said the round had moved on, and whose
		// marker the server does not show, is sent again).
		sctx, cancel := context.WithTimeout(ctx, resync)
		err := c.Sync(sctx)
		cancel()
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			c.sent = 0
		case err != nil:
			return err
		}
		if !c.Consistent() {
			continue
		}
		p := &c.Game().Public
		switch {
		case p.Phase == engine.PhaseFinished:
			return nil
		case p.Trustless != nil && p.Trustless.Pending != nil:
			if _, err := c.RevealPending(ctx); err != nil {
				return err
			}
		case p.Phase == engine.PhaseLobby:
			if p.Owner == c.cfg.UID && start != nil && start(p) {
				if err := c.tolerate(c.Act(ctx, engine.Action{Kind: engine.ActStart})); err != nil {
					return err
				}
			}
		case p.Awaiting == c.cfg.UID:
			if err := c.tolerate(c.Act(ctx, policy.Choose(p, c.rules, c.cfg.UID))); err != nil {
				return err
			}
		}
	}
}

// resync is how long Play waits for news before it looks again at what
// it owes the game.
const resync = 5 * time.Second

// tolerate passes the refusals of an action made against a game that
// moved on meanwhile (the next Sync shows where it is); any other error
// stops the play.
func (c *Client) tolerate(_ *Result, err error) error {
	var ce *CallError
	if errors.As(err, &ce) {
		switch engine.Code(ce.Code) {
		case engine.CodeStaleVersion, engine.CodePending, engine.CodeNotYourTurn, engine.CodeGameOver, engine.CodeWrongStep:
			return nil
		}
	}
	return err
}
