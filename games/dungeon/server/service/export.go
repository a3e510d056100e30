package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/export"
	"github.com/fairboard/fairboard/games/dungeon/server/session"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/shuffles"
)

// ErrNotFinished: the game has not ended, so nothing it keeps secret
// (its shuffles, its export) may be given out yet.
var ErrNotFinished = errors.New("service: the game has not finished; its shuffles and its export are given out only once it has ended")

// ErrNotExportable: the game ended, but the server's list of its applied
// actions is incomplete (a game played before the server kept that list),
// so no export that verifies can be built.
var ErrNotExportable = errors.New("service: the server has no complete list of this game's actions, so it cannot be exported")

// finished reads the whole game for viewer: a member (seated or owner) of
// a game that has ended. A caller who is not a member gets
// store.ErrNotFound, exactly as for a game that does not exist, whatever
// the game's phase; a member of a game still in its lobby or in play gets
// ErrNotFinished.
func (s *Service) finished(ctx context.Context, viewer, gameID string) (*engine.Game, error) {
	return s.member(ctx, viewer, gameID, false)
}

// member is finished, and when anyTime is set a trustless game is given
// out at any point of its play (it keeps nothing secret but the links of
// an open round, which are staged apart and never in the export).
func (s *Service) member(ctx context.Context, viewer, gameID string, anyTime bool) (*engine.Game, error) {
	g, err := s.cfg.Store.State(ctx, gameID)
	if err != nil {
		return nil, err
	}
	session.Migrate(&g.Public)
	if !member(&g.Public, viewer) {
		return nil, notFound(gameID)
	}
	if g.Public.Phase != engine.PhaseFinished && !(anyTime && g.Public.RNG.Mode == rng.ModeTrustless) {
		return nil, ErrNotFinished
	}
	return g, nil
}

// Export returns the fairboard-export/v1 export of a finished game, or of
// a trustless game at any point of its play (docs/fairness.md, "The
// export"), for viewer, one of its seated players or its owner: its ruleset, seats, every applied action in order, its
// whole log, and what it revealed, with every shuffle's order and salt
// (crypto games included). Errors: ErrInvalid (a *FieldError),
// store.ErrNotFound (no such game, or one the viewer is not in: the same
// answer), ErrNotFinished, ErrNotExportable, an *engine.Error
// rules_mismatch (the game was played under another ruleset than the
// server's), store.ErrUnavailable.
func (s *Service) Export(ctx context.Context, viewer, gameID string) (*export.Export, error) {
	if err := checkQuery(gameID, ""); err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	g, err := s.member(cctx, viewer, gameID, true)
	if err != nil {
		return nil, err
	}
	rules := s.cfg.Engine.Rules()
	if rules.Hash() != g.Public.RulesHash {
		return nil, engine.Reject(engine.CodeRulesMismatch,
			fmt.Sprintf("the game was played under ruleset %s; this server runs %s", g.Public.RulesHash, rules.Hash()))
	}
	applied, err := s.cfg.Store.Applied(cctx, gameID)
	if err != nil {
		return nil, err
	}
	if uint64(len(applied)) != g.Public.Version {
		return nil, fmt.Errorf("%w: %d actions listed for a game at version %d", ErrNotExportable, len(applied), g.Public.Version)
	}
	actions := make([]engine.Action, len(applied))
	for i, a := range applied {
		if a.Version != uint64(i) {
			return nil, fmt.Errorf("%w: action %d is listed at version %d", ErrNotExportable, i, a.Version)
		}
		actions[i] = a.Action
	}
	log, err := s.cfg.Store.Log(cctx, gameID, 0, 0)
	if err != nil {
		return nil, err
	}
	x, err := export.Build(g, rules, actions, log)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotExportable, err)
	}
	return x, nil
}

// Shuffles is getShuffle's answer: the game's mode and its shuffles.
type Shuffles struct {
	GameID   string               `json:"gameId"`
	Mode     rng.Mode             `json:"mode"`
	Shuffles []export.ShuffleInfo `json:"shuffles"`
}

// Shuffles returns every shuffle of the deck deckID ("" for every deck) of
// a finished game, for viewer, one of its seated players or its owner
// (ADR-005's shuffle audit API). Nothing is given out before the game has
// ended, in any mode (a seeded game's seed is secret until its end too).
// Fair and seeded games answer with their algorithm and seed (verifiable);
// crypto games with their orders and salts only, which open the log's
// shuffle commitments but cannot be recomputed (verifiable false, no
// algorithm or seed): what their export gives the same players. Errors:
// as [Service.Export] (ErrInvalid names deckId for an unknown deck).
func (s *Service) Shuffles(ctx context.Context, viewer, gameID, deckID string) (*Shuffles, error) {
	if err := checkQuery(gameID, deckID); err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	g, err := s.finished(cctx, viewer, gameID)
	if err != nil {
		return nil, err
	}
	list, err := export.GameShuffles(g, deckID)
	if err != nil {
		return nil, err
	}
	return &Shuffles{GameID: gameID, Mode: g.Public.RNG.Mode, Shuffles: list}, nil
}

// VerifyShuffle recomputes the deck the algorithm makes for the seed and
// compares the claimed deck with it (rng/shuffles.Verify; ADR-005's
// verify-shuffle). It reads no game. Errors: ErrInvalid, a *FieldError
// naming algorithm (unknown), seed (too long, or not what the algorithm
// reads) or claimed_deck (empty, too many cards, a card too long, or a
// size the algorithm does not take).
func (s *Service) VerifyShuffle(algorithm, seed string, claimed []string) (*shuffles.Result, error) {
	if err := checkVerifyShuffle(algorithm, seed, claimed); err != nil {
		return nil, err
	}
	r, err := shuffles.Verify(algorithm, seed, claimed)
	switch {
	case err == nil:
		return r, nil
	case errors.Is(err, shuffles.ErrAlgorithm):
		return nil, &FieldError{"algorithm", "must be one of the registered algorithms"}
	case errors.Is(err, shuffles.ErrSeed):
		return nil, &FieldError{"seed", "is not a seed of " + algorithm + ": " + problem(err, shuffles.ErrSeed)}
	case errors.Is(err, shuffles.ErrDeck):
		return nil, &FieldError{"claimed_deck", "does not fit " + algorithm + ": " + problem(err, shuffles.ErrDeck)}
	}
	return nil, err
}

// maxProblem bounds the registry's explanation in a FieldError: some of
// its messages quote the caller's seed, which may be 4 KiB long.
const maxProblem = 160

// problem is err's message after the sentinel's ("shuffles: invalid
// input: seed: not hexadecimal: ..." → "not hexadecimal: ..."), cut to
// maxProblem bytes.
func problem(err, sentinel error) string {
	msg := strings.TrimPrefix(err.Error(), sentinel.Error()+": ")
	if len(msg) > maxProblem {
		cut := maxProblem
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = msg[:cut] + "…"
	}
	return msg
}
