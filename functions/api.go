// Package functions is the game's HTTP API as Cloud Functions (2nd gen) on
// the Functions Framework for Go, speaking Firebase's callable protocol so
// a client's httpsCallable works unchanged: createGame, joinGame,
// startGame, act, reveal (a trustless game's reveal rounds), getView, and
// for checking a game: exportGame, getShuffle and verifyShuffle; the
// players' names (setName, getName), the lobby's open games
// (listOpenGames) and rematches (rematch); beside them, the scheduled
// sweep (sweep.go) that settles games past their deadlines. Each verifies
// the caller's Firebase ID token (the uid comes from the token, never
// from the body), decodes the body's data strictly, runs the action
// through its game's path (one Firestore transaction) and maps the
// outcome to a callable status (see docs/functions.md for the table).
//
// Every game of the registry plays through them, and the package imports
// none: the dungeon on its own path ([Dungeon], dungeon.go, which the game
// implements over its service and store in
// games/dungeon/server/dungeonfn), any other game as a table of a
// tablestore.Store ([API.WithTables], tables.go): createGame names the
// game, and joinGame, startGame, act and getView go to the table path
// when their gameId is a table.
//
// [API] holds the handlers; deploy registers them with the
// Functions Framework, wired from the environment; cmd/gamectl serve runs
// them locally. Both build the dungeon's path with games/registry/server.
package functions

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"

	"github.com/fairboard/fairboard/functions/callable"
	"github.com/fairboard/fairboard/lobby"
	"github.com/fairboard/fairboard/names"
	"github.com/fairboard/fairboard/tablestore"
)

// Names lists the functions, as deployed (entry points are the same
// names with a capital: CreateGame, ...).
var Names = []string{"createGame", "joinGame", "startGame", "act", "reveal", "getView", "exportGame", "getShuffle", "verifyShuffle", "setName", "getName", "listOpenGames", "rematch"}

// SweepName is the scheduled sweep's function: plain HTTP (not the
// callable protocol), called by Cloud Scheduler with an OIDC token that
// the API's SweepAuthorizer checks ([API.Sweep]).
const SweepName = "sweep"

// API serves the functions over the dungeon's path and one token
// verifier.
type API struct {
	dungeon Dungeon
	verify  callable.TokenVerifier
	log     *slog.Logger
	sweep   SweepAuthorizer
	tables  tablestore.Store // nil: the dungeon only (WithTables)
	// oneIDSpace: the two stores refuse each other's ids (OneIDSpace).
	oneIDSpace bool
	names      names.Store      // the players' names (WithNames; in memory by default)
	lobby      lobby.Store      // the games' listings (WithLobby; in memory by default)
	now        func() time.Time // the table path's clock (WithClock; nil: time.Now)
	// ackKey signs the table path's acknowledgements (WithAckKey; nil:
	// unsigned).
	ackKey ed25519.PrivateKey
	// idle is how long a table may go without an action before the sweep
	// ends it (WithTableIdle; sweepidle.go).
	idle idleLimits
}

// New returns the API over the dungeon's path d (games/registry/server
// builds it) with the token verifier (deploy.AdminVerifier, or
// InsecureDevVerifier for local development). log may be nil
// (slog.Default()). It panics if d or v is nil: a server must choose its
// verifier, never fall back to one.
func New(d Dungeon, v callable.TokenVerifier, log *slog.Logger) *API {
	if d == nil || v == nil {
		panic("functions.New: the dungeon's path and a token verifier are required")
	}
	if log == nil {
		log = slog.Default()
	}
	return &API{dungeon: d, verify: v, log: log, names: names.NewMemory(), lobby: lobby.NewMemory()}
}

// WithSweep sets who may call the sweep ([API.Sweep]); without one it
// refuses every call. It returns a.
func (a *API) WithSweep(auth SweepAuthorizer) *API {
	a.sweep = auth
	return a
}

// Handler returns the handler of the named function, or nil.
func (a *API) Handler(name string) http.HandlerFunc {
	switch name {
	case "createGame":
		return a.CreateGame
	case "joinGame":
		return a.JoinGame
	case "startGame":
		return a.StartGame
	case "act":
		return a.Act
	case "reveal":
		return a.Reveal
	case SweepName:
		return a.Sweep
	case "getView":
		return a.GetView
	case "exportGame":
		return a.ExportGame
	case "getShuffle":
		return a.GetShuffle
	case "verifyShuffle":
		return a.VerifyShuffle
	case "setName":
		return a.SetName
	case "getName":
		return a.GetName
	case "listOpenGames":
		return a.ListOpenGames
	case "rematch":
		return a.Rematch
	}
	return nil
}

// Mux serves every function at /NAME (the emulator-style path a client's
// httpsCallableFromURL can target).
func (a *API) Mux() *http.ServeMux {
	m := http.NewServeMux()
	for _, n := range append(Names, SweepName) {
		m.HandleFunc("/"+n, a.Handler(n))
	}
	return m
}

// CreateGame creates a game owned by the caller: for the dungeon (game
// absent or "dungeon") its own create (Dungeon.Create; data and result:
// docs/functions.md); for another game [TableCreateRequest], result
// [TableResult] (the table path, [API.WithTables]); an unknown game is
// INVALID_ARGUMENT naming the known ones.
func (a *API) CreateGame(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "createGame", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		if name, ok := peek(data, "game"); ok && name != DungeonGame {
			return a.createTable(ctx, uid, name, data)
		}
		res, l, err := a.dungeon.Create(ctx, uid, data, func(l Listed) error {
			if !a.oneIDSpace {
				if name, err := a.tableOf(ctx, data); name != "" || err != nil {
					if err == nil {
						err = errAlreadyCreated
					}
					return err
				}
			}
			return checkVisibility(l.Visibility)
		})
		if err != nil {
			return nil, err
		}
		return res, a.list(ctx, uid, l.GameID, DungeonGame, l.Mode, l.Visibility, l.Spectators, l.Seats)
	})
}

// JoinGame seats the caller: the dungeon's join (Dungeon.Join; a table:
// [TableJoinRequest], [TableResult]). The caller's name (setName, or its
// default) is copied into the game once it is seated.
func (a *API) JoinGame(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "joinGame", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		return a.route(ctx, uid, data, func() (any, error) {
			res, gameID, err := a.dungeon.Join(ctx, uid, data, func(gameID string, seat int) error {
				return a.reserved(ctx, gameID, uid, seat)
			})
			if err != nil {
				return nil, err
			}
			a.relist(ctx, gameID)
			return res, a.seatName(ctx, gameID, uid)
		}, a.joinTable)
	})
}

// StartGame starts the caller's game (owner only): the dungeon's start
// (Dungeon.Start; a table: [TableStartRequest], [TableResult]).
func (a *API) StartGame(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "startGame", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		return a.route(ctx, uid, data, func() (any, error) {
			res, gameID, err := a.dungeon.Start(ctx, uid, data)
			if err == nil {
				a.relist(ctx, gameID)
			}
			return res, err
		}, a.startTable)
	})
}

// Act applies one in-game action by the caller, in a trustless game with
// its own reveal if it brings one: the dungeon's (Dungeon.Act; a table:
// [TableActRequest], [TableResult]).
func (a *API) Act(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "act", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		return a.route(ctx, uid, data, func() (any, error) {
			res, gameID, relist, err := a.dungeon.Act(ctx, uid, data)
			if err == nil && relist {
				a.relist(ctx, gameID)
			}
			return res, err
		}, a.actTable)
	})
}

// Reveal stages the caller's chain link for the pending index of a
// trustless game: the dungeon's (Dungeon.Reveal: its result says staged;
// the round's events come with the commit that closes it, once every
// seat has revealed: read them in the log). A trustless table's (routed
// as the other functions: [TableRevealRequest]) answers [TableResult]:
// the reveal is applied to the table at once, and the last seat's closes
// the round in the same commit.
func (a *API) Reveal(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "reveal", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		return a.route(ctx, uid, data, func() (any, error) {
			return a.dungeon.Reveal(ctx, uid, data)
		}, a.revealTable)
	})
}

// GetView returns the game's public state and its log after a seq: data
// [ViewRequest], result the dungeon's view (GameView.Answer; a table:
// [TableView]), with the names copied into the game. Seated players (as
// the security rules let them read it) and the owner may view their
// game; while the game is in its lobby any signed-in user may, to see
// the free seats; once it has started, a spectator of a game open to
// spectators may (spectating true; its listing read after the game
// document). Others get NOT_FOUND, as for a game that does not exist,
// after the game document and the listing are read and before the log
// is.
func (a *API) GetView(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "getView", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		return a.route(ctx, uid, data, func() (any, error) {
			var q ViewRequest
			if err := decodeData(data, &q); err != nil {
				return nil, err
			}
			v, err := a.dungeon.View(ctx, uid, q.GameID, q.AfterSeq)
			spectating := false
			if a.isNotFound(err) || err == nil && !v.Member(uid) {
				// Not one of its members: a spectator's, if the game is
				// open to them (the view is the same for everyone); in
				// its lobby anyone reads it, and a spectator is told so.
				l, lerr := a.spectate(ctx, q.GameID, DungeonGame)
				if lerr != nil {
					return nil, lerr
				}
				if l != nil {
					if err != nil {
						v, err = a.dungeon.View(ctx, l.Owner, q.GameID, q.AfterSeq)
					}
					spectating = true
				}
			}
			if err != nil {
				return nil, err
			}
			if q.CheckedMoves > 0 { // a dungeon game's (a table's id went on to the table's path)
				return nil, fieldErr("checkedMoves", "is for a trustless table only")
			}
			ns, err := a.gameNames(ctx, q.GameID)
			if err != nil {
				return nil, err
			}
			return v.Answer(ns, spectating), nil
		}, a.viewTable)
	})
}

// ExportGame returns the fairboard-export/v1 export of a finished game to
// one of its seated players or its owner: data [ExportRequest], result
// the export (docs/fairness.md); a table's is its game record
// (match.Record, fairboard-game/v1). A game not finished is
// FAILED_PRECONDITION (details.code "not_finished"). A spectator of a
// finished game open to spectators gets its export too; anyone else gets
// NOT_FOUND, as for a game that does not exist.
func (a *API) ExportGame(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "exportGame", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		return a.route(ctx, uid, data, func() (any, error) {
			var q ExportRequest
			if err := decodeData(data, &q); err != nil {
				return nil, err
			}
			x, err := a.dungeon.Export(ctx, uid, q.GameID, false)
			if a.isNotFound(err) {
				l, lerr := a.spectate(ctx, q.GameID, DungeonGame)
				if lerr != nil {
					return nil, lerr
				}
				if l != nil { // a spectator: the export is the same for every member
					return a.dungeon.Export(ctx, l.Owner, q.GameID, true)
				}
			}
			return x, err
		}, a.exportTable)
	})
}

// GetShuffle returns every shuffle of a finished game's deck(s) to one of
// its seated players or its owner, and to a spectator of a finished game
// open to spectators (to verify it, as its export): data
// [ShuffleRequest], result the dungeon's shuffles (Dungeon.Shuffles),
// [TableShuffles] for a table game (its named decks' shuffles, from its
// record; routed as exportGame). Refusals as [API.ExportGame]: anyone
// else gets NOT_FOUND; an unknown deck is INVALID_ARGUMENT
// (invalid_deckId).
func (a *API) GetShuffle(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "getShuffle", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		return a.route(ctx, uid, data, func() (any, error) {
			var q ShuffleRequest
			if err := decodeData(data, &q); err != nil {
				return nil, err
			}
			s, err := a.dungeon.Shuffles(ctx, uid, q.GameID, q.DeckID)
			if a.isNotFound(err) {
				l, lerr := a.spectate(ctx, q.GameID, DungeonGame)
				if lerr != nil {
					return nil, lerr
				}
				if l != nil { // a spectator: the shuffles are the same for every member
					return a.dungeon.Shuffles(ctx, l.Owner, q.GameID, q.DeckID)
				}
			}
			return s, err
		}, a.shuffleTable)
	})
}

// VerifyShuffle recomputes a shuffle for any signed-in caller: data
// [VerifyShuffleRequest], result {valid, actual_deck, matches}. Bad input
// is INVALID_ARGUMENT naming the field.
func (a *API) VerifyShuffle(w http.ResponseWriter, r *http.Request) {
	a.serve(w, r, "verifyShuffle", func(ctx context.Context, uid string, data json.RawMessage) (any, error) {
		var q VerifyShuffleRequest
		if err := decodeData(data, &q); err != nil {
			return nil, err
		}
		return a.dungeon.VerifyShuffle(q.Algorithm, q.Seed, q.ClaimedDeck)
	})
}
