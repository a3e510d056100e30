//go:build js && wasm

package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

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

// takeSeat makes this player's seat from its secrets, following the game
// with the replay read so far; it returns the chain's head.
func (g *game) takeSeat(text string) (string, error) {
	var s seatSecrets
	if err := json.Unmarshal([]byte(text), &s); err != nil {
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

// actReveal answers the reveal to send with this seat's signed action
// (its JSON): {ok, action, message, index, digest} when the action draws
// (player.Seat.PrepareActReveal: the index and digest are recorded in the
// seat), {ok, none: true} when it draws nothing, {ok: false, error} when
// it cannot be made (not sticky: the page's own request).
func (g *game) actReveal(text string) js.Value {
	if g.err != nil {
		return answer(g.err, nil)
	}
	if g.seat == nil || !g.trustless() || g.f.Seq() != g.state.LogSeq {
		return answer(errors.New("actReveal needs this seat's checked trustless game, its log caught up"), nil)
	}
	var a engine.Action
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		return answer(fmt.Errorf("not an action: %v", err), nil)
	}
	rv, msg, draws, err := g.seat.PrepareActReveal(&a)
	switch {
	case err != nil:
		return answer(err, nil)
	case !draws:
		return answer(nil, map[string]any{"none": true})
	}
	b, _ := json.Marshal(rv)
	return answer(nil, map[string]any{"action": string(b), "message": hex.EncodeToString(msg), "index": int(rv.Index), "digest": rv.Digest})
}

// reveal answers the reveal the checked game waits for from this seat:
// {ok, action, message, index, digest} (the action without its
// signature, message the bytes to sign, hex), {ok, none: true} when it
// waits for none, or {ok: false, error} when the server shows what the
// log does not make (sticky).
func (g *game) reveal() js.Value {
	switch {
	case g.err != nil:
		return answer(g.err, nil)
	case g.seat == nil || !g.trustless() || g.f.Seq() != g.state.LogSeq || g.state.Phase == engine.PhaseFinished:
		return answer(nil, map[string]any{"none": true})
	}
	a, msg, err := g.seat.PrepareReveal(g.state, 0)
	if errors.Is(err, player.ErrNothingToReveal) {
		return answer(nil, map[string]any{"none": true})
	}
	if err != nil {
		return answer(g.sticky(err), nil)
	}
	b, _ := json.Marshal(a)
	return answer(nil, map[string]any{"action": string(b), "message": hex.EncodeToString(msg), "index": int(a.Index), "digest": a.Digest})
}
