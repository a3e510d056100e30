package functions

import (
	"context"
	"encoding/json"

	"github.com/fairboard/fairboard/functions/callable"
)

// Dungeon is the dungeon's own path of the functions (docs/functions.md,
// "The dungeon's path"): its stored games, requests and refusals, which
// live in the game (games/dungeon/server/dungeonfn implements it over the
// dungeon's service; games/registry/server builds it for the programs).
// The API keeps what every game shares (the callable protocol, the
// routing, the lobby's listings, the names, the spectators and the
// rematches' ids and listings) and asks the dungeon for the rest, in
// terms of no dungeon type: the request's data as it came, answers to
// encode as they are.
//
// Its methods return the dungeon's errors as they are: the API maps them
// to the client's answer through Classify (and answers its own
// *callable.Error unchanged).
type Dungeon interface {
	// Create decodes createGame's data (a create of the dungeon), calls
	// admit with what the lobby would list of the game before anything
	// is written (its error is the answer), then creates the game for
	// uid. It returns the create's answer and what admit saw.
	Create(ctx context.Context, uid string, data json.RawMessage, admit func(Listed) error) (any, Listed, error)
	// Join decodes joinGame's data and seats uid, after admit (given the
	// game id and the seat asked for) has let it.
	Join(ctx context.Context, uid string, data json.RawMessage, admit func(gameID string, seat int) error) (res any, gameID string, err error)
	// Start decodes startGame's data and starts the game (uid its owner).
	Start(ctx context.Context, uid string, data json.RawMessage) (res any, gameID string, err error)
	// Act decodes act's data and applies uid's in-game action (with its
	// own reveal if it brings one). relist is true when the action may
	// have changed the game's seats or phase (an abandon).
	Act(ctx context.Context, uid string, data json.RawMessage) (res any, gameID string, relist bool, err error)
	// Reveal decodes reveal's data and stages uid's chain link.
	Reveal(ctx context.Context, uid string, data json.RawMessage) (any, error)
	// View reads the game gameID for uid: its public state and its log
	// after afterSeq.
	View(ctx context.Context, uid, gameID string, afterSeq uint64) (GameView, error)
	// Game reads what the API keeps in step with a game (the listing's
	// seats and phase, the names' games, a rematch) for uid, without its
	// log.
	Game(ctx context.Context, uid, gameID string) (*Game, error)
	// Export is the game's export for uid; finished: only once the game
	// has ended (a spectator's, read as the game's owner).
	Export(ctx context.Context, uid, gameID string, finished bool) (any, error)
	// Shuffles is the finished game's shuffles of deckID (every deck
	// when "") for uid.
	Shuffles(ctx context.Context, uid, gameID, deckID string) (any, error)
	// VerifyShuffle recomputes a shuffle (verifyShuffle; no game read).
	VerifyShuffle(algorithm, seed string, claimed []string) (any, error)
	// Rematch creates the rematch newID of the finished game g (read by
	// Game) for g's owner, and answers the player at seat k of g with
	// its seat in the rematch and what it played with.
	Rematch(ctx context.Context, g *Game, k int, newID string) (*RematchResult, error)
	// Holds reports whether the dungeon's store holds gameID (a table's
	// create refuses an id it holds, when the stores are two).
	Holds(ctx context.Context, gameID string) (bool, error)
	// Sweep settles the dungeon's games whose time has come (the
	// scheduled sweep's first half).
	Sweep(ctx context.Context) (*SweepResult, error)
	// AllowSeeded and ForceAudit are the deployment's settings, which
	// the table path follows too: seeded games allowed, the audit ring
	// on for every new game.
	AllowSeeded() bool
	ForceAudit() bool
	// Classify maps an error of the dungeon's methods to the client's
	// answer. public is false for errors the client must not see (they
	// are logged and answered INTERNAL "internal error"); a nil answer
	// is an error that is not the dungeon's (the API's own mapping
	// follows).
	Classify(err error) (ce *callable.Error, public bool)
}

// Listed is what the lobby lists of a dungeon game at its create: its
// id, its mode ("crypto" when the create named none), the create's
// visibility and spectators, and its seats.
type Listed struct {
	GameID     string
	Mode       string
	Visibility string
	Spectators bool
	Seats      int
}

// GameView is a dungeon game's view (Dungeon.View).
type GameView interface {
	// Member reports whether uid is in the game: its owner or one of
	// its players.
	Member(uid string) bool
	// Answer is getView's answer: the view with the names copied into
	// the game (by uid) and whether the caller reads it as a spectator.
	Answer(names map[string]string, spectating bool) any
}

// Game is what the API reads of a dungeon game (Dungeon.Game): its
// owner, mode, phase (a lobby.Phase*: "lobby", "playing" or "finished"),
// its players' uids in seat order, its seat count, and the dungeon's own
// reading of it (for its Rematch).
type Game struct {
	Owner   string
	Mode    string
	Phase   string
	Players []string
	Seats   int
	State   any
}

// SweepResult says what the dungeon's sweep did (Dungeon.Sweep): how
// many games were due, the games closed, aborted and abandoned, and those
// that could not be settled, with why (they stay due).
type SweepResult struct {
	Due       int               `json:"due"`
	Closed    []string          `json:"closed"`
	Aborted   []string          `json:"aborted"`
	Abandoned []string          `json:"abandoned"`
	Failed    map[string]string `json:"failed,omitempty"`
}
