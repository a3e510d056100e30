package client

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/fairboard/fairboard/game"
)

// A table game (docs/functions.md, "Table games": every registered game
// but the dungeon, Pig, Kuhn poker and Leduc hold'em) is played through
// the same functions as the dungeon with other data: createGame naming
// the game, joinGame, startGame, act and getView on the table. A [Table]
// is one player's side of it: each call carries an action id made of its
// kind and the version it is sent against (actionID), kept while the
// call is sent again, so that a call sent again after a lost answer, by
// this Table or by the player's next one after a restart, is applied once
// (the server answers the stored result, Replayed; the same id with
// other content is action_id_reused); its View shows the player's seat its own private
// part (TableView.Private) and nothing of another seat's, which the
// server never sends.

// TableDungeon is the dungeon's name, which a Table refuses: the dungeon
// keeps its own path (games/dungeon/server/dungeonclient.Join).
const TableDungeon = "dungeon"

// maxTableTries bounds the sends of one table call (the first and its
// retries with the same action id).
const maxTableTries = 6

// Table is one player's side of one table game. Not safe for concurrent
// use.
type Table struct {
	f    *Functions
	game string
	id   string
	// Retry is the first pause before a retryable call is sent again
	// (doubling, at most 2 s; 0: 100 ms).
	Retry time.Duration
	// ServerKey, if set, is the server's published Ed25519 key for
	// acknowledgements (FAIRBOARD_ACK_KEY's public half): at a trustless
	// table every acknowledgement of the player's reveal or deal message
	// must come with its signature by that key (Send; tableack.go).
	ServerKey ed25519.PublicKey
	// Def, if set, is the table's game: at a dealing table (Kuhn poker,
	// Leduc hold'em) View then checks a hand ended naming a seat a cheat
	// in the deal's passes against its evidence (tablecheat.go), which
	// needs the game's deck; nil: that check is not made. TrustTable
	// gives its Def to each of its Tables without one.
	Def  game.Definition
	last *TableAck // the last acknowledgement (LastAck)
	lie  *Lie      // the lie Send caught, which ends the Table's sends
}

// NewTable returns the player's side (f calls the functions as the
// player) of the table gameID of the game called game. Errors: a game
// name that is empty or the dungeon's, a game id that is not 1-128
// characters of [A-Za-z0-9_-], no Functions.
func NewTable(f *Functions, game, gameID string) (*Table, error) {
	switch {
	case f == nil || f.Token == nil:
		return nil, errors.New("client: a table needs the player's Functions, with its Token")
	case game == "" || game == TableDungeon:
		return nil, fmt.Errorf("client: %q is no table game (the dungeon plays through dungeonclient.Join)", game)
	case !validID(gameID):
		return nil, fmt.Errorf("client: game id %q: want 1-128 characters of [A-Za-z0-9_-]", gameID)
	}
	return &Table{f: f, game: game, id: gameID}, nil
}

func validID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// GameID returns the table's game id.
func (t *Table) GameID() string { return t.id }

// actionID is the action id of a call of kind against version: the
// player sends one action of a kind per version (any other at the same
// version would be stale after it), so the id names it, and the same
// call sent again is a retry.
func actionID(kind string, version uint64) string {
	return kind + "-" + strconv.FormatUint(version, 10)
}

// call sends one action (data without its action id) under id, and
// again under the same id while the answer is retryable
// (CallError.Retryable: no answer, ABORTED, UNAVAILABLE, ...), up to
// maxTableTries sends or ctx's end.
func (t *Table) call(ctx context.Context, name, id string, data map[string]any) (*TableResult, error) {
	data["game"], data["gameId"], data["actionId"] = t.game, t.id, id
	pause := t.Retry
	if pause <= 0 {
		pause = 100 * time.Millisecond
	}
	for try := 1; ; try++ {
		var res TableResult
		err := t.f.Call(ctx, name, data, &res)
		if err == nil {
			return &res, nil
		}
		var ce *CallError
		if !errors.As(err, &ce) || !ce.Retryable() || try == maxTableTries {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// TableCreate is a table's create (createGame): Mode "crypto" (""),
// "fair", "seeded" (with Seed, where the deployment allows it) or
// "trustless" (a game whose every part is public); Seats 0 for the
// game's default; Rules the game's ruleset JSON (nil: its default);
// Visibility and Spectators as the lobby's.
type TableCreate struct {
	Mode       string
	Seed       string
	Seats      int
	Rules      json.RawMessage
	Visibility string
	Spectators bool
}

// Create creates the table, owned by the player. Errors: the functions'
// refusal (*CallError: already_created, bad_setup, bad_ruleset,
// unknown_game, ...).
func (t *Table) Create(ctx context.Context, c TableCreate) (*TableResult, error) {
	d := map[string]any{}
	if c.Mode != "" {
		d["mode"] = c.Mode
	}
	if c.Seed != "" {
		d["seed"] = c.Seed
	}
	if c.Seats != 0 {
		d["seats"] = c.Seats
	}
	if c.Rules != nil {
		d["rules"] = c.Rules
	}
	if c.Visibility != "" {
		d["visibility"] = c.Visibility
	}
	if c.Spectators {
		d["spectators"] = true
	}
	return t.call(ctx, "createGame", "create", d)
}

// Join takes seat (0 to the table's seats - 1) with options (nil: the
// game's defaults) against the version it reads (getView), and against
// the new version if another action came first (stale_version). Errors:
// the functions' refusal (seat_taken, already_joined, already_started,
// bad_option, ...).
func (t *Table) Join(ctx context.Context, seat int, options map[string]string) (*TableResult, error) {
	return t.versioned(ctx, func(v uint64) (*TableResult, error) {
		d := map[string]any{"version": v, "seat": seat}
		if options != nil {
			d["options"] = options
		}
		return t.call(ctx, "joinGame", actionID("join", v), d)
	})
}

// Start starts the table (the owner's, every seat taken), against the
// version it reads, again on stale_version. Errors: the functions'
// refusal (not_owner, too_few_players, ...).
func (t *Table) Start(ctx context.Context) (*TableResult, error) {
	return t.versioned(ctx, func(v uint64) (*TableResult, error) {
		return t.call(ctx, "startGame", actionID("start", v), map[string]any{"version": v})
	})
}

// versioned sends send against the table's version, read again and sent
// again (another version: another action id) on stale_version, at most
// maxTableTries times.
func (t *Table) versioned(ctx context.Context, send func(v uint64) (*TableResult, error)) (*TableResult, error) {
	for try := 1; ; try++ {
		v, err := t.View(ctx, 0)
		if err != nil {
			return nil, err
		}
		res, err := send(v.Version)
		var ce *CallError
		if err == nil || !errors.As(err, &ce) || ce.Code != "stale_version" || try == maxTableTries {
			return res, err
		}
	}
}

// Move sends the game's move (its JSON, {"kind": ...}, as View.Legal
// lists it) against version, the version of the view the move was
// chosen from: a move is never sent again against another version
// (stale_version means the view is out of date: read it again and
// choose again). Errors: a move that is not a JSON object, and the
// functions' refusal (not_your_turn, invalid_action, game_over, ...).
func (t *Table) Move(ctx context.Context, version uint64, move json.RawMessage) (*TableResult, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(move, &obj); err != nil {
		return nil, fmt.Errorf("client: a move is the game's JSON object {\"kind\": ...}: %w", err)
	}
	return t.call(ctx, "act", actionID("move", version), map[string]any{"version": version, "move": move})
}

// Act sends another of act's kinds: "leave", "removeSeat" (with seat,
// the owner's), "abandon" (the owner's) or "abort" (a trustless table
// past its round's deadline; version is not read), against version.
func (t *Table) Act(ctx context.Context, kind string, version uint64, seat *int) (*TableResult, error) {
	switch kind {
	case "leave", "removeSeat", "abandon", "abort":
	default:
		return nil, fmt.Errorf("client: act kind %q: want leave, removeSeat, abandon or abort (a move: Move)", kind)
	}
	d := map[string]any{"kind": kind, "version": version}
	if seat != nil {
		d["seat"] = *seat
	}
	return t.call(ctx, "act", actionID(kind, version), d)
}

// View reads the table as the player may (getView): the public part, its
// seat's view of the game, its own private part, its legal moves and the
// log's events after afterSeq. At a trustless table it checks every
// reveal marker of the pending round against the round the view shows
// (tablemarks.go): one that is not its seat's signature over it is a
// *Lie whose Err is the evidence (a *trustseat.SplitView with both
// digests, a *trustseat.ForgedMarker, or for a marker that states no
// digest a *trustseat.MarksLie, either), and the Table then sends
// nothing more; it compares the view
// with the last acknowledgement the Table holds (LastAck; tableblame.go):
// a table ended naming the player as missing what the server
// acknowledged taking is a *TableDropped, and the Table then sends
// nothing more; at a dealing table whose hand ended naming a seat a
// cheat in the deal's passes, it checks the evidence (Def; tablecheat.go):
// a pass that proves nothing is a *TableFalseCheat, and the Table then
// sends nothing more. Errors: the functions' refusal (not_created for a
// table the player may not read), a protocol that does not decode, a
// *TableDropped, a *TableFalseCheat or another end that does not check
// (a *Lie).
func (t *Table) View(ctx context.Context, afterSeq uint64) (*TableView, error) {
	return t.ViewAfter(ctx, afterSeq, 0)
}

// view is View and ViewAfter's call of getView with d.
func (t *Table) view(ctx context.Context, d map[string]any) (*TableView, error) {
	var v TableView
	if err := t.f.Call(ctx, "getView", d, &v); err != nil {
		return nil, err
	}
	if err := t.checkBlame(&v); err != nil {
		return nil, err
	}
	return &v, nil
}
