// Package dungeonfn is the dungeon's own path of the game's functions
// (functions.Dungeon, docs/functions.md "The dungeon's path"): its
// requests of createGame, joinGame, startGame, act and reveal (decoded
// strictly here), its reads for getView, exportGame, getShuffle and
// verifyShuffle, its rematches and its sweep, all over the dungeon's
// service (games/dungeon/server/service: one Firestore transaction per
// action), and the callable status of every refusal of the engine, the
// service and the store ([CodeStatus], [Path.Classify]).
//
// Package functions serves it beside every other game's tables, and keeps
// what the games share (the protocol, the routing, the lobby, the names,
// the spectators); games/registry/server builds it for the programs
// (gamectl serve, the deployment), so that no machinery imports the game.
package dungeonfn

import (
	"context"
	"encoding/json"
	"errors"
	"math"

	"github.com/fairboard/fairboard/functions"
	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/service"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/rng"
)

// Path is the dungeon's path of the functions over one service.
type Path struct {
	svc *service.Service
}

var _ functions.Dungeon = (*Path)(nil)

// New returns the dungeon's path over svc. It panics if svc is nil.
func New(svc *service.Service) *Path {
	if svc == nil {
		panic("dungeonfn.New: a service is required")
	}
	return &Path{svc: svc}
}

// Service returns the path's service.
func (p *Path) Service() *service.Service { return p.svc }

// Create implements functions.Dungeon: data [CreateRequest], result
// [service.Result]. The mode is "crypto" when the data names none; the
// seats listed are the rules' most players.
func (p *Path) Create(ctx context.Context, uid string, data json.RawMessage, admit func(functions.Listed) error) (any, functions.Listed, error) {
	var q CreateRequest
	if err := callable.DecodeData(data, &q); err != nil {
		return nil, functions.Listed{}, err
	}
	mode := q.Mode
	if mode == "" {
		mode = string(rng.ModeCrypto)
	}
	l := functions.Listed{GameID: q.GameID, Mode: mode, Visibility: q.Visibility, Spectators: q.Spectators,
		Seats: p.svc.Rules().MaxPlayers}
	if err := admit(l); err != nil {
		return nil, l, err
	}
	res, err := p.svc.Do(ctx, q.GameID, engine.Action{Kind: engine.ActCreate, Actor: uid, ID: q.ActionID,
		GameID: q.GameID, Mode: mode, Seed: q.Seed, Audit: q.Audit, ChainLength: q.ChainLength,
		DeadlineMs: q.DeadlineMs, Openings: q.Openings})
	if err != nil {
		return nil, l, err
	}
	return res, l, nil
}

// Join implements functions.Dungeon: data [JoinRequest], result
// [service.Result].
func (p *Path) Join(ctx context.Context, uid string, data json.RawMessage, admit func(gameID string, seat int) error) (any, string, error) {
	var q JoinRequest
	if err := callable.DecodeData(data, &q); err != nil {
		return nil, "", err
	}
	if err := admit(q.GameID, q.Seat); err != nil {
		return nil, q.GameID, err
	}
	res, err := p.svc.Do(ctx, q.GameID, engine.Action{Kind: engine.ActJoin, Actor: uid, ID: q.ActionID,
		Seat: q.Seat, Class: q.Class, KeepSmokeBomb: q.KeepSmokeBomb, Entropy: q.Entropy,
		EntropyCommitment: q.EntropyCommitment, ChainHead: q.ChainHead, PublicKey: q.PublicKey,
		Version: q.Version, Signature: q.Signature})
	if err != nil {
		return nil, q.GameID, err
	}
	return res, q.GameID, nil
}

// Start implements functions.Dungeon: data [StartRequest], result
// [service.Result].
func (p *Path) Start(ctx context.Context, uid string, data json.RawMessage) (any, string, error) {
	var q StartRequest
	if err := callable.DecodeData(data, &q); err != nil {
		return nil, "", err
	}
	res, err := p.svc.Do(ctx, q.GameID, engine.Action{Kind: engine.ActStart, Actor: uid, ID: q.ActionID,
		Version: q.Version, Signature: q.Signature})
	return res, q.GameID, err
}

// Act implements functions.Dungeon: data [ActRequest] (its kind one of
// the in-game kinds and its actionId given, else INVALID_ARGUMENT),
// result [service.Result]; an abandon asks for the game's relisting.
func (p *Path) Act(ctx context.Context, uid string, data json.RawMessage) (any, string, bool, error) {
	var q ActRequest
	if err := callable.DecodeData(data, &q); err != nil {
		return nil, "", false, err
	}
	if !inGame[q.Kind] {
		return nil, q.GameID, false, callable.InvalidArgument("%s", "data.kind must be one of "+inGameKinds)
	}
	if q.ActionID == "" {
		return nil, q.GameID, false, callable.InvalidArgument("actionId is required")
	}
	if q.Reveal != nil {
		res, err := p.svc.DoRevealing(ctx, q.GameID, q.action(uid), revealAction(q.Reveal, uid))
		return res, q.GameID, false, err
	}
	res, err := p.svc.Do(ctx, q.GameID, q.action(uid))
	return res, q.GameID, q.Kind == engine.ActAbandon, err
}

// Reveal implements functions.Dungeon: data [RevealRequest] (its
// actionId given, else INVALID_ARGUMENT), result [service.Result] with
// staged true.
func (p *Path) Reveal(ctx context.Context, uid string, data json.RawMessage) (any, error) {
	var q RevealRequest
	if err := callable.DecodeData(data, &q); err != nil {
		return nil, err
	}
	if q.ActionID == "" {
		return nil, callable.InvalidArgument("actionId is required")
	}
	return p.svc.Reveal(ctx, q.GameID, q.action(uid))
}

// Export implements functions.Dungeon: the game's export
// (fairboard-export/v1); finished, of a game that has ended only
// (service.ErrNotFinished otherwise, after one read of the game).
func (p *Path) Export(ctx context.Context, uid, gameID string, finished bool) (any, error) {
	if finished {
		v, err := p.svc.View(ctx, uid, gameID, math.MaxInt64)
		if err != nil {
			return nil, err
		}
		if v.Public.Phase != engine.PhaseFinished {
			return nil, service.ErrNotFinished
		}
	}
	return p.svc.Export(ctx, uid, gameID)
}

// Shuffles implements functions.Dungeon: [service.Shuffles].
func (p *Path) Shuffles(ctx context.Context, uid, gameID, deckID string) (any, error) {
	return p.svc.Shuffles(ctx, uid, gameID, deckID)
}

// VerifyShuffle implements functions.Dungeon: {valid, actual_deck,
// matches} (service.Service.VerifyShuffle).
func (p *Path) VerifyShuffle(algorithm, seed string, claimed []string) (any, error) {
	return p.svc.VerifyShuffle(algorithm, seed, claimed)
}

// Holds implements functions.Dungeon (service.Service.Holds).
func (p *Path) Holds(ctx context.Context, gameID string) (bool, error) {
	return p.svc.Holds(ctx, gameID)
}

// AllowSeeded implements functions.Dungeon: the service's setting.
func (p *Path) AllowSeeded() bool { return p.svc.AllowSeeded() }

// ForceAudit implements functions.Dungeon: the service's setting.
func (p *Path) ForceAudit() bool { return p.svc.ForceAudit() }

// Sweep implements functions.Dungeon (service.Service.Sweep).
func (p *Path) Sweep(ctx context.Context) (*functions.SweepResult, error) {
	res, err := p.svc.Sweep(ctx)
	if res == nil {
		return nil, err
	}
	return &functions.SweepResult{Due: res.Due, Closed: res.Closed, Aborted: res.Aborted, Abandoned: res.Abandoned,
		Failed: res.Failed}, err
}

// Game implements functions.Dungeon: one read of the game document
// (service.Service.View with no log), its State the game's public state
// (*engine.Public).
func (p *Path) Game(ctx context.Context, uid, gameID string) (*functions.Game, error) {
	v, err := p.svc.View(ctx, uid, gameID, math.MaxInt64)
	if err != nil {
		return nil, err
	}
	pub := v.Public
	g := &functions.Game{Owner: pub.Owner, Mode: string(pub.RNG.Mode), Phase: lobby.PhasePlaying,
		Players: []string{}, Seats: p.svc.Rules().MaxPlayers, State: pub}
	for _, pl := range pub.Players {
		g.Players = append(g.Players, pl.UID)
	}
	switch pub.Phase {
	case engine.PhaseNone, engine.PhaseLobby:
		g.Phase = lobby.PhaseLobby
	case engine.PhaseFinished:
		g.Phase = lobby.PhaseFinished
	}
	return g, nil
}

// errNotRead: Rematch was given a game that Game did not read.
var errNotRead = errors.New("dungeonfn: Rematch of a game not read by Path.Game")

// Rematch implements functions.Dungeon: the create of the rematch newID
// (action id functions.RematchActionID) by g's owner, of g's mode and
// audit (a seeded game seeded with newID, a trustless game with g's
// chain length and deadline, a fair game with openings with g's
// deadline); the answer gives player k of g its seat rotated by one, its
// class and its smoke-bomb preference.
func (p *Path) Rematch(ctx context.Context, g *functions.Game, k int, newID string) (*functions.RematchResult, error) {
	pub, ok := g.State.(*engine.Public)
	if !ok || k < 0 || k >= len(pub.Players) {
		return nil, errNotRead
	}
	act := engine.Action{Kind: engine.ActCreate, Actor: pub.Owner, ID: functions.RematchActionID, GameID: newID,
		Mode: string(pub.RNG.Mode), Audit: pub.RNG.AuditEnabled}
	switch pub.RNG.Mode {
	case rng.ModeSeeded:
		act.Seed = newID
	case rng.ModeTrustless:
		act.ChainLength, act.DeadlineMs = int(pub.Trustless.ChainLength), pub.Trustless.DeadlineMs
	case rng.ModeFair:
		if f := pub.Fairness; f != nil && f.Openings {
			act.Openings, act.DeadlineMs = true, f.DeadlineMs
		}
	}
	if _, err := p.svc.Do(ctx, newID, act); err != nil {
		return nil, err
	}
	me := pub.Players[k]
	return &functions.RematchResult{GameID: newID, Game: functions.DungeonGame, Mode: string(pub.RNG.Mode),
		Seat: (k + 1) % len(pub.Players), Class: string(me.Class), KeepSmokeBomb: me.KeepSmokeBomb}, nil
}
