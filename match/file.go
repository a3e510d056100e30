package match

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// RecordFormat names the format of a game record.
const RecordFormat = "fairboard-game/v1"

// Record is one whole game of a definition, written so that anyone can
// replay it (gamectl play --game NAME --record FILE; gamectl replay FILE):
// how it was set up, its moves in their canonical bytes (what a signature
// covers, game.AppendMoveCanonical), a crypto game's draws, and what the
// replay must give again: the log (game.AppendEventJSON lines), the rng
// audit entries and the SHA-256 of the final state's bytes (StateBytes).
type Record struct {
	Format string   `json:"format"`
	Game   string   `json:"game"`
	Mode   rng.Mode `json:"mode"`
	// Seed is a seeded game's seed; empty in crypto mode.
	Seed string `json:"seed,omitempty"`
	// Seats is the number of seats; SeatOptions each seat's options (none
	// for a game without seat options).
	Seats       int        `json:"seats"`
	SeatOptions [][]string `json:"seatOptions,omitempty"`
	// Rules is the ruleset's canonical JSON.
	Rules json.RawMessage `json:"rules"`
	Moves []string        `json:"moves"`
	// Draws are a crypto game's drawn values (Match.Draws); none in a
	// seeded one, whose seed gives them.
	Draws []int64 `json:"draws,omitempty"`
	// Fairness is a fair game's protocol (its Seed is the game seed it
	// makes); none in other modes.
	Fairness *RecordFairness `json:"fairness,omitempty"`
	// Trustless is a trustless game's protocol: the seats' chains and
	// keys, each move's signature and round; none in other modes.
	Trustless *RecordTrustless `json:"trustless,omitempty"`
	// Decks are a seeded, fair or crypto table's named-deck shuffles
	// (deckcommit.go): the salt key, and each shuffle's order, salt and
	// the commitment the table published when it shuffled. Absent from
	// a record without any (a game that shuffles no named deck, a
	// table that started before commitments, gamectl play's records):
	// such a record's bytes are as before.
	Decks *RecordDecks `json:"decks,omitempty"`
	// DealDraws says a crypto game dealt each deck it drew one card at a
	// time from an order shuffled at the deck's first draw
	// (Config.DealDraws): its draws are replayed so. Absent (false) in
	// records written before, whose draws were a UniformInt each, and
	// in every other mode.
	DealDraws   bool              `json:"dealDraws,omitempty"`
	Log         []json.RawMessage `json:"log"`
	Audit       []json.RawMessage `json:"audit"`
	StateSHA256 string            `json:"stateSha256"`
}

// NewRecord returns the record of m, a match made with audit (every entry
// its Auditor received, in order; none if it had none).
func NewRecord(m *Match, audit []rng.Entry) (*Record, error) {
	if m.cfg.Lean {
		return nil, errors.New("a lean match keeps no record")
	}
	r := &Record{Format: RecordFormat, Game: m.def.Name(), Mode: m.cfg.Mode, Seed: m.cfg.Seed, Seats: len(m.cfg.Seats),
		Rules: m.rules.CanonicalJSON(), Moves: []string{}, Log: []json.RawMessage{}, Audit: []json.RawMessage{}, DealDraws: m.cfg.DealDraws}
	for _, s := range m.cfg.Seats {
		if len(s.Options) > 0 {
			r.SeatOptions = make([][]string, len(m.cfg.Seats))
			for i, s := range m.cfg.Seats {
				r.SeatOptions[i] = append([]string{}, s.Options...)
			}
			break
		}
	}
	for _, mv := range m.moves {
		r.Moves = append(r.Moves, string(game.AppendMoveCanonical(nil, m.kinds, mv)))
	}
	if m.cfg.Mode == rng.ModeCrypto {
		r.Draws = m.Draws()
	}
	for _, line := range bytes.Split(bytes.TrimSpace(m.LogJSON()), []byte("\n")) {
		if len(line) > 0 {
			r.Log = append(r.Log, json.RawMessage(line))
		}
	}
	for _, e := range audit {
		b, err := e.MarshalJSON()
		if err != nil {
			return nil, err
		}
		r.Audit = append(r.Audit, b)
	}
	r.StateSHA256 = stateHash(m.st)
	return r, nil
}

func stateHash(st game.State) string {
	h := sha256.Sum256(StateBytes(st))
	return hex.EncodeToString(h[:])
}

// IsRecord reports whether data looks like a game record (its "format" is
// RecordFormat), so that a reader of several kinds of file can tell.
func IsRecord(data []byte) bool {
	var probe struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Format == RecordFormat
}

// ReadRecord decodes a record strictly: unknown fields, trailing data, a
// format other than RecordFormat, a missing game, mode or final hash, or
// a mode other than seeded (with a seed) and crypto (with none) are
// errors naming the problem.
func ReadRecord(data []byte) (*Record, error) {
	var r Record
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(&r); err != nil {
		return nil, fmt.Errorf("not a game record: %v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("not a game record: trailing data after it")
	}
	switch {
	case r.Format != RecordFormat:
		return nil, fmt.Errorf("format %q; want %q", r.Format, RecordFormat)
	case r.Game == "":
		return nil, errors.New("the record names no game")
	case r.Mode == rng.ModeSeeded && r.Seed == "":
		return nil, errors.New("a seeded record without a seed")
	case r.Mode == rng.ModeCrypto && r.Seed != "":
		return nil, errors.New("a crypto record with a seed")
	case r.Mode != rng.ModeSeeded && r.Mode != rng.ModeCrypto && r.Mode != rng.ModeFair && r.Mode != rng.ModeTrustless:
		return nil, fmt.Errorf("mode %q: records are of seeded, fair, crypto and trustless games", r.Mode)
	case (r.Mode == rng.ModeTrustless) != (r.Trustless != nil):
		return nil, fmt.Errorf("a %s record with%s a trustless game's protocol", r.Mode, map[bool]string{true: "out", false: ""}[r.Mode == rng.ModeTrustless])
	case r.Mode == rng.ModeTrustless && (r.Seed != "" || len(r.Draws) > 0):
		return nil, errors.New("a trustless record with a seed or draws: its rounds give its randomness")
	case r.Mode == rng.ModeSeeded && len(r.Draws) > 0:
		return nil, errors.New("a seeded record with draws: its seed gives them")
	case r.DealDraws && r.Mode != rng.ModeCrypto:
		return nil, fmt.Errorf("a %s record with dealDraws: only a crypto game deals its draws so", r.Mode)
	case len(r.StateSHA256) != 64:
		return nil, errors.New("stateSha256 must be 64 hex digits")
	case r.SeatOptions != nil && len(r.SeatOptions) != r.Seats:
		return nil, fmt.Errorf("%d seat options for %d seats", len(r.SeatOptions), r.Seats)
	case r.Seats < 1 || r.Seats > 1000:
		return nil, fmt.Errorf("seats %d: want 1 to 1000", r.Seats)
	}
	if err := checkFairForm(&r); err != nil {
		return nil, err
	}
	if err := checkDeckForm(&r); err != nil {
		return nil, err
	}
	return &r, nil
}

// CheckRecord replays r under def, as anyone can: its ruleset decoded by
// def, its moves (each in canonical bytes) applied from its seed (a fair
// game's game seed) or, in crypto mode, its draws. It returns an error
// for a record that cannot be replayed at all (another game, a bad
// ruleset or move, a move refused, draws out of range or left over, a
// fair record's fields malformed), and otherwise the first divergence
// from what the record says (nil if none), checked in order: a fair
// game's server seed against its commitment and the game seed it makes
// with the contributions, then what the replay gives: the log, the audit
// entries (a seeded or fair game's: a crypto game's stream cannot be
// audited again from its draws, so its entries are only decoded), the
// final state's hash, then a table's named-deck shuffles (Decks: the
// salt key a seeded or fair record's seed makes, each shuffle the
// replay's, each salt salt_k of the key, each commitment opened by its
// salt and order). A trustless record's protocol comes first (every
// join's and move's signature, every link against the seat's previous
// one, every reveal's signature, the indices, the abort against the
// reveals: docs/fairness.md, "Trustless tables"), its rounds' randomness
// then replays its moves.
func CheckRecord(def game.Definition, r *Record) (divergence error, err error) {
	if r.Game != def.Name() {
		return nil, fmt.Errorf("a record of %q, not %q", r.Game, def.Name())
	}
	if err := checkFairForm(r); err != nil {
		return nil, err
	}
	if err := checkDeckForm(r); err != nil {
		return nil, err
	}
	if r.Fairness != nil {
		if d, err := checkFairness(r); d != nil || err != nil {
			return d, err
		}
	}
	rules, err := def.DecodeRuleset(r.Rules)
	if err != nil {
		return nil, fmt.Errorf("rules: %w", err)
	}
	kinds := def.Kinds()
	moves := make([]game.Move, len(r.Moves))
	for i, s := range r.Moves {
		if moves[i], err = decodeCanonicalMove(kinds, s); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	seats := make([]game.Seat, r.Seats)
	for i := range seats {
		if r.SeatOptions != nil {
			seats[i].Options = r.SeatOptions[i]
		}
	}
	var audit []rng.Entry
	cfg := Config{Mode: r.Mode, Seed: r.Seed, Seats: seats, Rules: rules, DealDraws: r.DealDraws,
		Auditor: rng.AuditorFunc(func(e rng.Entry) { audit = append(audit, e) })}
	var m *Match
	if r.Mode == rng.ModeTrustless {
		if r.Trustless == nil {
			return nil, errors.New("a trustless record without its protocol")
		}
		keys, d, err := checkTrustless(def, r, rules, moves)
		if d != nil || err != nil {
			return d, err
		}
		if dl := r.Trustless.Deal; dl != nil {
			if err := checkDealBinding(r.Trustless, moves); err != nil {
				return nil, err
			}
			if _, err := VerifyDeal(def, rules, dl); err != nil {
				return nil, fmt.Errorf("trustless deal: %w", err)
			}
			if m, err = ReplayDeal(def, cfg, moves, dl); err != nil {
				return nil, err
			}
		} else if m, err = ReplayTrustless(def, cfg, moves, keys); err != nil {
			return nil, err
		}
		if d := checkPendingDraws(m, kinds, r.Trustless); d != nil {
			return d, nil
		}
	} else if m, err = Replay(def, cfg, moves, r.Draws); err != nil {
		return nil, err
	}
	got, err := NewRecord(m, audit)
	if err != nil {
		return nil, err
	}
	if d := firstDiff("log entry", "log entries", r.Log, got.Log, canonicalJSON); d != nil {
		return d, nil
	}
	if r.Mode == rng.ModeCrypto {
		// A replay from draws has no stream to audit: the entries are
		// the server's word; each must still be a well-formed entry.
		for i, a := range r.Audit {
			if _, err := canonicalEntry(a); err != nil {
				return nil, fmt.Errorf("audit entry %d: %v", i+1, err)
			}
		}
	} else if d := firstDiff("audit entry", "audit entries", r.Audit, got.Audit, canonicalEntry); d != nil {
		return d, nil
	}
	if !strings.EqualFold(r.StateSHA256, got.StateSHA256) {
		return fmt.Errorf("the final state: its hash is %s, not the record's %s", got.StateSHA256, r.StateSHA256), nil
	}
	return checkDecks(r, m)
}

// decodeCanonicalMove decodes {"seat":S,"kind":...} and requires it to be
// the move's canonical bytes.
func decodeCanonicalMove(kinds []game.KindSpec, s string) (game.Move, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &fields); err != nil {
		return game.Move{}, fmt.Errorf("not a JSON object: %v", err)
	}
	var seat int
	if err := json.Unmarshal(fields["seat"], &seat); err != nil || fields["seat"] == nil {
		return game.Move{}, errors.New(`a move needs a whole-number "seat"`)
	}
	delete(fields, "seat")
	rest, _ := json.Marshal(fields)
	m, err := game.DecodeMove(kinds, seat, rest)
	if err != nil {
		return game.Move{}, err
	}
	if c := string(game.AppendMoveCanonical(nil, kinds, m)); c != s {
		return game.Move{}, fmt.Errorf("%s is not in canonical form (%s)", s, c)
	}
	return m, nil
}

// firstDiff compares want and got entry by entry after canon and names
// the first difference.
func firstDiff(what, whats string, want, got []json.RawMessage, canon func([]byte) ([]byte, error)) error {
	for i := range min(len(want), len(got)) {
		w, err := canon(want[i])
		if err != nil {
			return fmt.Errorf("%s %d of the record: %v", what, i+1, err)
		}
		if g, _ := canon(got[i]); !bytes.Equal(w, g) {
			return fmt.Errorf("%s %d: the record has %s, the replay gives %s", what, i+1, want[i], got[i])
		}
	}
	if len(want) != len(got) {
		return fmt.Errorf("the number of %s: the record has %d, the replay gives %d", whats, len(want), len(got))
	}
	return nil
}

// canonicalJSON re-encodes one JSON value with its object keys sorted and
// its numbers exactly as written (json.Number).
func canonicalJSON(b []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func canonicalEntry(b []byte) ([]byte, error) {
	var e rng.Entry
	if err := e.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return e.MarshalJSON()
}
