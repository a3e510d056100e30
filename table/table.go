package table

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/fairboard/fairboard/table/trustdeal"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
)

// Phase is where a table is: its lobby, its game in play, or finished.
type Phase string

// The phases, in the only order a table goes through them (a lobby may
// also be abandoned straight to finished).
const (
	PhaseLobby    Phase = "lobby"
	PhasePlaying  Phase = "playing"
	PhaseFinished Phase = "finished"
)

// ServerActor is the actor of what the server does on no player's behalf
// (the abandon of a table left unfinished). It is the only actor outside
// the uid format ('@' begins no uid), and may only abandon.
const ServerActor = "@server"

// NoSeat is View.Seat for a reader who holds no seat.
const NoSeat = -1

// MaxIDLen bounds action ids and actors: 1 to 128 characters of
// [A-Za-z0-9_-].
const MaxIDLen = 128

// MaxSeedLen bounds a seeded table's seed: 1 to 256 bytes of UTF-8.
const MaxSeedLen = 256

// CreateRequest makes a table.
type CreateRequest struct {
	// Actor is the owner's uid; ActionID the create's action id (a retry
	// through Memory.Create with the same request gets the same result).
	Actor, ActionID string
	// At is the server's time of the create (unix ms), which the stores
	// keep as the table's last action's (the idle sweep's clock:
	// idle.go); 0 for unknown. Not part of a retry's identity.
	At int64
	// Mode is rng.ModeSeeded (with Seed: replayable by whoever knows the
	// seed, for tests and simulations, never for real games; the seed is
	// shown to nobody before the game is over, when the table's Record
	// carries it) or rng.ModeCrypto (no Seed).
	//
	// rng.ModeFair takes ServerSeed instead: the server's seed, 64
	// lower-case hex digits drawn by the server (fair.NewServerSeed),
	// never a client's. The table publishes its commitment from the
	// create on; the game seed is made at start from it and the seats'
	// entropy (Action.Entropy at join), and all is revealed at the end
	// (View.Fairness, Record).
	//
	// rng.ModeTrustless takes no seed (docs/fairness.md, "Trustless
	// tables"): GameID (the table's game id, which every signature and
	// link is bound to; the stores fill it), ChainLength (1 to 2^20 links
	// per seat's chain, 0 for 65,536; at least the game's
	// game.RandomBound) and DeadlineMs (how long a reveal round may take,
	// 1,000 to 86,400,000, 0 for 60,000). Only a game that declares every
	// part public (game.AllPublic) plays one.
	Mode        rng.Mode
	Seed        string
	ServerSeed  string
	GameID      string
	ChainLength uint32
	DeadlineMs  uint64
	// Openings (rng.ModeFair only; openings.go) makes each seat commit
	// to its contribution at join (Action.EntropyCommitment) and open it
	// (KindOpen) once every seat is taken; it takes GameID (the stores
	// fill it) and DeadlineMs (the time the seats have to open from the
	// first opening, 1,000 to 86,400,000, 0 for 60,000).
	Openings bool
	// Seats is the table's seat count, in def.Seats().Min..Max; 0 is
	// def.Seats().Default.
	Seats int
	// Rules is the ruleset's JSON, decoded strictly by def.DecodeRuleset;
	// nil is def.DefaultRuleset().
	Rules json.RawMessage
	// Audit makes the table keep the ring of its game's RNG audit
	// entries (audit.go), for the server only.
	Audit bool
}

// SeatInfo is one seat as everyone sees it: its uid ("" while free) and
// its option values in the order of def.Seats().Options (none: the game's
// defaults).
type SeatInfo struct {
	UID     string
	Options []string
}

// Event is one entry of a table's log, numbered from 1 over the whole log
// (a reader who may not read an addressed event reads its trace at its
// seq instead: TypeAddressed). Game is true for the game's own events
// (Type among def.EventTypes, Vals in the order of its fields), false for
// the table's: TableCreated {Vals[0]: seats}, Joined {Vals[0]: seat; UID,
// Options}, Left {seat; UID}, SeatRemoved {seat; UID}, Started, Abandoned
// {UID: who; Options: the server's reason, ReasonIdle, if it gave one},
// DeckCommitted {Vals: k, cards; Options: deck id, tag, commitment:
// decks.go}, and the trace Addressed {Vals[0]: the seat}. To is game.All
// or the one seat that may read the event.
type Event struct {
	Seq     int
	To      int
	Game    bool
	Type    string
	Vals    [game.MaxVals]int64
	UID     string
	Options []string
}

// Outcome is how a finished table ended: abandoned (the game's
// AbortPayoffs once it had started; none in the lobby) or played to its
// end (the game's winners and payoffs).
type Outcome struct {
	Abandoned bool
	Winners   []int
	Payoffs   []float64
	// Reason and Missing are a trustless game's that ended before its
	// end: "deadline" (Missing: the seats that did not reveal the pending
	// round in time), "chainExhausted" or "abandoned"; and any table's
	// the server ended for want of an action, ReasonIdle (idle.go).
	Reason  string `json:",omitempty"`
	Missing []int  `json:",omitempty"`
}

// Table is one game of a definition, from its lobby to its end, owned by
// its creator's uid. Not safe for concurrent use (Memory is).
//
// Its public part is its phase, seats, version, the public log, the
// ruleset and the game's public part; each seat's view adds that seat's
// addressed events, the game's view of the seat and its legal moves; its
// secret part (the game's state, the stream, the seed) leaves it through
// nothing but StateBytes, for the server, and a stored result goes to its
// own actor only.
type Table struct {
	def   game.Definition
	kinds []game.KindSpec
	owner string
	mode  rng.Mode
	seed  string
	// serverSeed and entropy (one per seat) are a fair table's secret
	// until its end.
	serverSeed string
	entropy    []string
	rules      game.Ruleset
	seats      []SeatInfo
	phase      Phase
	version    uint64
	log        []Event
	m          *match.Match
	out        *Outcome
	records    map[recordKey]record
	// tl is a trustless table's protocol state; nil in other modes.
	tl *trust
	// dl is a dealing trustless table's deal (trustdealing.go); nil
	// otherwise.
	dl *trustdeal.Server
	// op is a fair table's openings (openings.go); nil without.
	op *openings
	// deckKey is the salt key of the named decks' commitments (decks.go),
	// secret until the end; nil at a trustless table, in the lobby, and
	// at a table that started before commitments. decks is the number of
	// commitments published.
	deckKey *[32]byte
	decks   int
	// dealDraws: the game's one-card-at-a-time draws are dealt from
	// orders shuffled, hence committed, at each deck's first draw
	// (match.Config.DealDraws): every crypto table started since; false
	// for the tables of other modes and those started before.
	dealDraws bool
	// sealed is what a table restored from a head (head.go) left in its
	// sealed chunks; fresh the keys of the results stored since it was
	// made or restored, apart those of results a store keeps apart
	// (AddResult, or fresh): neither goes into a head.
	sealed sealedPart
	fresh  []recordKey
	apart  map[recordKey]bool
	// aud is an audited table's recorder (audit.go); nil if audit is off.
	aud *tableAudit
}

type recordKey struct{ actor, id string }

type record struct {
	fp  string
	res Result
}

// Result is what an applied action answers its actor: its action id, the
// table's version after it, and the action's events the actor may read.
// Replayed is true when it is the stored result of an earlier request
// with the same action id and content (a retry: nothing was applied).
type Result struct {
	ActionID string
	Version  uint64
	Events   []Event
	Replayed bool
}

// Create makes a table in its lobby at version 1, its log the one event
// TableCreated. Its refusals, in this order: bad_actor (an actor not of
// the uid format), bad_action_id, bad_setup (a mode other than seeded and
// crypto, a seeded table without a seed or with one that is not 1-256
// bytes of UTF-8, a crypto table with a seed, a seat count outside
// def.Seats().Min..Max), bad_ruleset (def.DecodeRuleset's refusal), then
// a trustless table's bad_setup (a game not all public, with the reason:
// mental-poker deals; a seed; no game id; a chain or deadline out of
// range). The
// stream is made at start.
func Create(def game.Definition, req CreateRequest) (*Table, *Result, error) {
	if !ValidID(req.Actor) {
		return nil, nil, reject(CodeBadActor, "an actor is 1-128 characters of [A-Za-z0-9_-]")
	}
	if !ValidID(req.ActionID) {
		return nil, nil, reject(CodeBadActionID, "an action id is 1-128 characters of [A-Za-z0-9_-]")
	}
	switch req.Mode {
	case rng.ModeSeeded:
		if req.Seed == "" || len(req.Seed) > MaxSeedLen || !utf8.ValidString(req.Seed) {
			return nil, nil, reject(CodeBadSetup, "a seeded table needs a seed of 1-256 bytes of UTF-8")
		}
	case rng.ModeCrypto:
		if req.Seed != "" {
			return nil, nil, reject(CodeBadSetup, "a crypto table takes no seed")
		}
	case rng.ModeFair, rng.ModeTrustless:
	default:
		return nil, nil, reject(CodeBadSetup, fmt.Sprintf("mode %q: a table is seeded, fair, crypto or trustless", req.Mode))
	}
	if err := checkFairCreate(req); err != nil {
		return nil, nil, err
	}
	asked := req // the request as sent: a retry's fingerprint is its
	if err := checkOpeningsCreate(&req); err != nil {
		return nil, nil, err
	}
	sp := def.Seats()
	n := req.Seats
	if n == 0 {
		n = sp.Default
	}
	if n < sp.Min || n > sp.Max {
		return nil, nil, reject(CodeBadSetup, fmt.Sprintf("%s takes %d to %d seats, not %d", def.Name(), sp.Min, sp.Max, n))
	}
	rules := def.DefaultRuleset()
	if req.Rules != nil {
		r, err := def.DecodeRuleset(req.Rules)
		if err != nil {
			return nil, nil, fromGame(err)
		}
		rules = r
	}
	if err := checkTrustlessCreate(def, &req, rules); err != nil {
		return nil, nil, err
	}
	t := &Table{def: def, kinds: def.Kinds(), owner: req.Actor, mode: req.Mode, seed: req.Seed, rules: rules,
		seats: make([]SeatInfo, n), phase: PhaseLobby, version: 1, records: map[recordKey]record{}}
	if req.Mode == rng.ModeFair {
		t.serverSeed, t.entropy = req.ServerSeed, make([]string, n)
	}
	if req.Audit {
		t.aud = newTableAudit(savedAudit{})
	}
	if req.Openings {
		t.op = &openings{GameID: req.GameID, DeadlineMs: req.DeadlineMs, Commitments: make([]string, n), Opened: make([]bool, n)}
	}
	if req.Mode == rng.ModeTrustless {
		t.tl = &trust{GameID: req.GameID, ChainLength: req.ChainLength, DeadlineMs: req.DeadlineMs, Seats: make([]trustSeat, n), Moves: []trustMove{}}
	}
	t.log = []Event{{Seq: 1, To: game.All, Type: "TableCreated", Vals: [game.MaxVals]int64{int64(n)}, UID: req.Actor}}
	res := Result{ActionID: req.ActionID, Version: 1, Events: slices.Clone(t.log)}
	t.records[recordKey{req.Actor, req.ActionID}] = record{fp: createFingerprint(def, asked), res: res}
	t.fresh = append(t.fresh, recordKey{req.Actor, req.ActionID})
	return t, &res, nil
}

// Retry answers a create request again: the stored result (Replayed) if
// req is the request that created t, action_id_reused if its actor used
// its action id for other content, already_created otherwise.
func (t *Table) Retry(def game.Definition, req CreateRequest) (*Result, error) {
	rec, ok := t.records[recordKey{req.Actor, req.ActionID}]
	switch {
	case !ok:
		return nil, reject(CodeAlreadyCreated, "the game exists")
	case rec.fp != createFingerprint(def, req):
		return nil, reject(CodeActionIDReused, "this action id was used for another action")
	}
	res := rec.res.clone()
	res.Replayed = true
	return &res, nil
}

func createFingerprint(def game.Definition, req CreateRequest) string {
	return fingerprint(struct {
		Kind, Game, Actor, ID, Mode, Seed string
		Seats                             int
		Rules                             string
		ChainLength                       uint32 `json:",omitempty"`
		DeadlineMs                        uint64 `json:",omitempty"`
		Openings                          bool   `json:",omitempty"`
		Audit                             bool   `json:",omitempty"`
	}{"create", def.Name(), req.Actor, req.ActionID, string(req.Mode), req.Seed, req.Seats, string(req.Rules), req.ChainLength, req.DeadlineMs, req.Openings, req.Audit})
}

func fingerprint(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("table: fingerprint: " + err.Error()) // strings, ints and string maps only
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (r Result) clone() Result {
	r.Events = cloneEvents(r.Events)
	return r
}

func cloneEvents(ev []Event) []Event {
	out := make([]Event, len(ev))
	for i, e := range ev {
		e.Options = slices.Clone(e.Options)
		out[i] = e
	}
	return out
}

// ValidID reports whether s is a valid game, actor or action id: 1 to
// MaxIDLen characters of [A-Za-z0-9_-]. The stores and the functions
// check ids with it.
func ValidID(s string) bool {
	if len(s) == 0 || len(s) > MaxIDLen {
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

// Phase returns the table's phase.
func (t *Table) Phase() Phase { return t.phase }

// Version returns the table's version: 1 after create, one more after
// each applied action (a refused action or a retry changes nothing).
func (t *Table) Version() uint64 { return t.version }

// Owner returns the owner's uid.
func (t *Table) Owner() string { return t.owner }

// Def returns the table's game definition.
func (t *Table) Def() game.Definition { return t.def }

// StateBytes returns match.StateBytes of the game's state (its public,
// private and secret parts: for the server only), nil before the start.
func (t *Table) StateBytes() []byte {
	if t.m == nil {
		return nil
	}
	return match.StateBytes(t.m.State())
}

func (t *Table) seatOf(uid string) int {
	for i, s := range t.seats {
		if s.UID != "" && s.UID == uid {
			return i
		}
	}
	return NoSeat
}
