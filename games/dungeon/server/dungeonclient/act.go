// The seat's moves: its reveals, its actions through the functions, and
// a whole game played with a bot policy.

package dungeonclient

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fairboard/fairboard/client"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
)

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
	var ce *client.CallError
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
		var ce *client.CallError
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
	var ce *client.CallError
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

// Policy chooses this player's next action when the game awaits it, from
// the public state and the ruleset; the dungeon's bots
// (games/dungeon/policy's Cautious and Aggressive, the search bot of its
// tools) are Policies; the client imports no game.
type Policy interface {
	Choose(p *engine.Public, r *engine.Ruleset, uid string) engine.Action
}

// Play plays the game to its end with the policy: after each thing the
// server shows, checked, it reveals for a pending round, and acts when
// the checked game awaits this player. start, if not nil, is asked (by
// the owner's client) in the lobby whether to start now. It returns nil
// when the game has finished (won, abandoned or aborted), a *client.Lie
// when the server lied (a *Dropped when it aborted the game blaming this
// seat for a round whose reveal it had acknowledged), or the error that
// stopped it.
func (c *Client) Play(ctx context.Context, policy Policy, start func(p *engine.Public) bool) error {
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
	var ce *client.CallError
	if errors.As(err, &ce) {
		switch engine.Code(ce.Code) {
		case engine.CodeStaleVersion, engine.CodePending, engine.CodeNotYourTurn, engine.CodeGameOver, engine.CodeWrongStep:
			return nil
		}
	}
	return err
}
