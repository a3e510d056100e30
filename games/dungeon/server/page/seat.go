package page

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/player"
)

// seatSecrets is what the page keeps of its seat (in IndexedDB) and gives
// back after a reload: player.Secrets without the key's seed (the
// private key stays in WebCrypto), with the seat's public key.
type seatSecrets struct {
	player.Secrets
	PublicKey engine.Hash32 `json:"publicKey"`
}

// errNoSeat is SignBytes' refusal before the seat is taken; the page
// says the same of a call without an action.
var errNoSeat = errors.New("signBytes takes an action as JSON, once the seat is taken")

// TakeSeat makes this player's seat from its secrets (JSON: player.Secrets
// without the key's seed, with "publicKey"), following the game with the
// replay read so far (player.ExternalSeat); it returns the chain's head.
// Errors (they do not stick): not secrets, a seat in another game or a
// game that is not trustless, secrets the replay refuses.
func (g *Game) TakeSeat(secrets []byte) (string, error) {
	var s seatSecrets
	if err := json.Unmarshal(secrets, &s); err != nil {
		return "", fmt.Errorf("the seat's secrets: %v", err)
	}
	if g.f == nil || s.GameID != g.id {
		return "", fmt.Errorf("the seat is in game %q; this page follows %q, a trustless game: %v", s.GameID, g.id, g.f != nil)
	}
	seat, err := player.ExternalSeat(s.Secrets, s.PublicKey, g.f)
	if err != nil {
		return "", err
	}
	g.seat = seat
	return seat.Head().String(), nil
}

// SignBytes returns the bytes this seat signs for its action (JSON,
// engine.Action; rng/trustless.ActionMessage). Errors (they do not
// stick): no seat taken, not an action, one the seat cannot sign.
func (g *Game) SignBytes(action []byte) ([]byte, error) {
	if g.seat == nil {
		return nil, errNoSeat
	}
	var a engine.Action
	if err := json.Unmarshal(action, &a); err != nil {
		return nil, fmt.Errorf("not an action: %v", err)
	}
	return g.seat.SignMessage(&a)
}

// ActReveal returns the reveal to send with this seat's signed action
// (JSON) when the action draws (player.Seat.PrepareActReveal: the index
// and digest are recorded in the seat), None when it draws nothing. The
// problem in force is returned as is; other errors do not stick: no
// seat, a game not trustless or its log not caught up with its document,
// not an action, an action the replay refuses.
func (g *Game) ActReveal(action []byte) (game.StoredReveal, error) {
	if g.err != nil {
		return game.StoredReveal{}, g.err
	}
	if g.seat == nil || !g.caughtUp() {
		return game.StoredReveal{}, errors.New("actReveal needs this seat's checked trustless game, its log caught up")
	}
	var a engine.Action
	if err := json.Unmarshal(action, &a); err != nil {
		return game.StoredReveal{}, fmt.Errorf("not an action: %v", err)
	}
	rv, msg, draws, err := g.seat.PrepareActReveal(&a)
	switch {
	case err != nil:
		return game.StoredReveal{}, err
	case !draws:
		return game.StoredReveal{None: true}, nil
	}
	return revealOf(rv, msg), nil
}

// Reveal returns the reveal the checked game waits for from this seat
// (player.Seat.PrepareReveal: the action without its signature, the bytes
// to sign), None when it waits for none (no seat, not trustless, the log
// not caught up, the game over, nothing pending for this seat). An error
// is the problem in force: the one that stuck before, or what the server
// shows that the log does not make (it sticks).
func (g *Game) Reveal() (game.StoredReveal, error) {
	switch {
	case g.err != nil:
		return game.StoredReveal{}, g.err
	case g.seat == nil || !g.caughtUp() || g.state.Phase == engine.PhaseFinished:
		return game.StoredReveal{None: true}, nil
	}
	a, msg, err := g.seat.PrepareReveal(g.state, 0)
	if errors.Is(err, player.ErrNothingToReveal) {
		return game.StoredReveal{None: true}, nil
	}
	if err != nil {
		return game.StoredReveal{}, g.sticky(err)
	}
	return revealOf(a, msg), nil
}

func revealOf(a engine.Action, msg []byte) game.StoredReveal {
	b, _ := json.Marshal(a)
	return game.StoredReveal{Action: b, Message: msg, Index: int(a.Index), Digest: a.Digest}
}
