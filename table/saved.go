package table

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// SavedFormat is the format of a saved table (Table.Save).
const SavedFormat = "fairboard-table/v1"

// saved is a table as a store keeps it: everything, its secret parts
// included (the seed, the moves, the draws, every actor's stored
// results), never for a reader.
type saved struct {
	Format string   `json:"format"`
	Game   string   `json:"game"`
	Owner  string   `json:"owner"`
	Mode   rng.Mode `json:"mode"`
	Seed   string   `json:"seed,omitempty"`
	// ServerSeed and Entropy (one per seat) are a fair table's.
	ServerSeed string          `json:"serverSeed,omitempty"`
	Entropy    []string        `json:"entropy,omitempty"`
	Rules      json.RawMessage `json:"rules"`
	Seats      []SeatInfo      `json:"seats"`
	Phase      Phase           `json:"phase"`
	Version    uint64          `json:"version"`
	Log        []Event         `json:"log"`
	Outcome    *Outcome        `json:"outcome,omitempty"`
	Records    []savedRecord   `json:"records"`
	// Started is true once the game was set up; Moves and Draws are then
	// its moves and, for a crypto table, every value it drew, and
	// StateHash is game.HashJSON of its match.StateBytes.
	Started   bool        `json:"started"`
	Moves     []game.Move `json:"moves,omitempty"`
	Draws     []int64     `json:"draws,omitempty"`
	StateHash string      `json:"stateHash,omitempty"`
	// Trustless is a trustless table's protocol state (its pending
	// round's links included: the server's alone).
	Trustless *trust `json:"trustless,omitempty"`
	// Openings is a fair table's with openings (openings.go).
	Openings *openings `json:"openings,omitempty"`
	// Snapshot is the started game's state and stream position
	// (snapshot.go), from which Restore goes on without replaying Moves;
	// absent for a game that does not restore from its parts
	// (game.Restorer) and in tables saved before snapshots, which
	// Restore replays.
	Snapshot *savedSnapshot `json:"snapshot,omitempty"`
	// DeckKey is the salt key of the named decks' commitments (decks.go),
	// 64 hex digits; absent at a trustless table, in the lobby, and at a
	// table that started before commitments (which commits to nothing).
	DeckKey string `json:"deckKey,omitempty"`
	// DealDraws is true at a crypto table started since draws are dealt
	// from committed orders (decks.go): its draws replay so.
	DealDraws bool `json:"dealDraws,omitempty"`
	// Audit is an audited table's counts (audit.go); absent if audit is
	// off. The ring itself is not saved here.
	Audit *savedAudit `json:"audit,omitempty"`
	// The head's (HeadFormat, head.go), zero in SavedFormat: what its
	// sealed chunks hold.
	sealedPart
}

type savedRecord struct {
	Actor       string `json:"actor"`
	ActionID    string `json:"actionId"`
	Fingerprint string `json:"fingerprint"`
	Result      Result `json:"result"`
}

// Save returns the table as a store keeps it (format SavedFormat, JSON):
// its lobby, log, version and stored results, and its game as its moves
// (and a crypto table's draws), which Restore replays. It holds the
// secret parts: for the server only. The same table saves to the same
// bytes.
func (t *Table) Save() ([]byte, error) {
	if t.sealed.Chunks > 0 {
		return nil, errors.New("table: save: a table restored from its head alone saves as a head (SaveHead)")
	}
	s, err := t.toSaved()
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// toSaved is the table as Save keeps it, every stored result included.
func (t *Table) toSaved() (*saved, error) {
	s := &saved{Format: SavedFormat, Game: t.def.Name(), Owner: t.owner, Mode: t.mode, Seed: t.seed,
		ServerSeed: t.serverSeed, Entropy: t.entropy,
		Rules: t.rules.CanonicalJSON(), Seats: t.seats, Phase: t.phase, Version: t.version, Log: t.log, Outcome: t.out, Trustless: t.tl, Openings: t.op, Audit: t.savedAuditPart()}
	for k, r := range t.records {
		s.Records = append(s.Records, savedRecord{Actor: k.actor, ActionID: k.id, Fingerprint: r.fp, Result: r.res})
	}
	slices.SortFunc(s.Records, func(a, b savedRecord) int {
		return cmp.Or(cmp.Compare(a.Actor, b.Actor), cmp.Compare(a.ActionID, b.ActionID))
	})
	if t.m != nil {
		s.Started, s.Moves, s.StateHash = true, t.m.Moves(), game.HashJSON(t.StateBytes())
		if t.mode == rng.ModeCrypto {
			s.Draws = t.m.Draws()
		}
		snap, err := t.snapshot()
		if err != nil {
			return nil, err
		}
		s.Snapshot = snap
		s.DeckKey, s.DealDraws = t.savedDeckKey(), t.dealDraws
	}
	return s, nil
}

// Restore makes the table saved in data (Table.Save) again, under def:
// from its snapshot when it has one (snapshot.go: the state from its
// parts, the stream from its position, no move replayed), else
// replaying its game's moves (match.Resume: a seeded table from its seed,
// on the same stream; a crypto table from its draws, then on a new
// crypto stream; a trustless table with each round's randomness from its
// saved links); it goes on as the saved table would. Errors name what
// is wrong: data that does not decode strictly, another format or game,
// a ruleset def refuses, seats or a phase that do not fit, moves or
// draws that do not replay, or a final state other than the saved one.
func Restore(def game.Definition, data []byte) (*Table, error) {
	return restore(def, data, false)
}

// RestoreReplay is Restore by replay always, whatever the saved table
// holds: the check of its moves (verify and export replay so too). A
// table saved with a snapshot must replay to that snapshot exactly (its
// state's parts and its stream's position), and a trustless table's
// protocol state (its transcript, next round and seats' last links,
// from which a head restored alone goes on) must be its applied moves'
// (trustcheck.go), or it is an error.
func RestoreReplay(def game.Definition, data []byte) (*Table, error) {
	return restore(def, data, true)
}

func restore(def game.Definition, data []byte, replay bool) (*Table, error) {
	var s saved
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&s); err != nil {
		return nil, fmt.Errorf("table: restore: %w", err)
	}
	bad := func(format string, a ...any) (*Table, error) {
		return nil, fmt.Errorf("table: restore: "+format, a...)
	}
	switch {
	case s.Format != SavedFormat && s.Format != HeadFormat:
		return bad("format %q, not %q or %q", s.Format, SavedFormat, HeadFormat)
	case checkSealed(&s, replay) != nil:
		return bad("%v", checkSealed(&s, replay))
	case s.Game != def.Name():
		return bad("a table of %s, not %s", s.Game, def.Name())
	case s.Mode != rng.ModeSeeded && s.Mode != rng.ModeCrypto && s.Mode != rng.ModeFair && s.Mode != rng.ModeTrustless:
		return bad("mode %q", s.Mode)
	case (s.Mode == rng.ModeTrustless) != (s.Trustless != nil) || s.Trustless != nil && len(s.Trustless.Seats) != len(s.Seats):
		return bad("a %s table with a trustless protocol state that does not fit it", s.Mode)
	case checkFairCreate(CreateRequest{Mode: s.Mode, Seed: s.Seed, ServerSeed: s.ServerSeed}) != nil:
		return bad("%v", checkFairCreate(CreateRequest{Mode: s.Mode, Seed: s.Seed, ServerSeed: s.ServerSeed}))
	case (s.Mode == rng.ModeFair) != (s.Entropy != nil) || s.Entropy != nil && len(s.Entropy) != len(s.Seats):
		return bad("%d entropies for %d seats of a %s table", len(s.Entropy), len(s.Seats), s.Mode)
	case s.Openings != nil && (s.Mode != rng.ModeFair || len(s.Openings.Commitments) != len(s.Seats) || len(s.Openings.Opened) != len(s.Seats) || !ValidID(s.Openings.GameID)):
		return bad("openings that do not fit a %s table of %d seats", s.Mode, len(s.Seats))
	case len(s.Seats) < def.Seats().Min || len(s.Seats) > def.Seats().Max:
		return bad("%d seats", len(s.Seats))
	case s.Phase != PhaseLobby && s.Phase != PhasePlaying && s.Phase != PhaseFinished,
		s.Phase == PhaseLobby && s.Started, s.Phase == PhasePlaying && !s.Started, s.Snapshot != nil && !s.Started,
		(s.Phase == PhaseFinished) != (s.Outcome != nil):
		return bad("phase %q does not fit the game", s.Phase)
	case s.DealDraws && (s.Mode != rng.ModeCrypto || !s.Started):
		return bad("dealt draws at a %s table that has%s started", s.Mode, map[bool]string{true: "", false: " not"}[s.Started])
	}
	rules, err := def.DecodeRuleset(s.Rules)
	if err != nil {
		return bad("%w", err)
	}
	t := &Table{def: def, kinds: def.Kinds(), owner: s.Owner, mode: s.Mode, seed: s.Seed, serverSeed: s.ServerSeed, entropy: s.Entropy, rules: rules,
		seats: s.Seats, phase: s.Phase, version: s.Version, log: s.Log, out: s.Outcome, records: map[recordKey]record{}, tl: s.Trustless, op: s.Openings, sealed: s.sealedPart,
		dealDraws: s.DealDraws}
	for _, r := range s.Records {
		t.records[recordKey{r.Actor, r.ActionID}] = record{fp: r.Fingerprint, res: r.Result}
	}
	if err := t.restoreDecks(&s); err != nil {
		return bad("%w", err)
	}
	if s.Audit != nil {
		t.aud = newTableAudit(*s.Audit)
	}
	if !s.Started {
		return t, nil
	}
	m, err := t.restoreMatch(&s, !replay)
	if err != nil {
		return bad("%w", err)
	}
	t.auditBegin() // a replay's entries were drawn before
	if replay {
		if err := t.checkTrustState(m.Moves()); err != nil {
			return bad("the trustless protocol state: %w", err)
		}
	}
	t.m = m
	if game.HashJSON(t.StateBytes()) != s.StateHash {
		return nil, errors.New("table: restore: the restored game is not the saved one (its state hash differs)")
	}
	return t, nil
}
