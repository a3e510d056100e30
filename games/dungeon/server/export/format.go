// Package export is the fairboard-export/v1 format: everything a player
// needs to check a finished game on their own machine, and the checks.
//
// [Build] makes an export from a finished game, the actions applied to it
// in order and its public log; [Decode] reads one, strictly; [Verify]
// checks one: it opens the commitments, recomputes the seeds, replays every
// action through the engine under the export's own ruleset and compares
// every event with the log. The package depends only on the engine, the
// reducers, rng and session, so that it compiles to WebAssembly (web/verify)
// as well as into gamectl and the server.
//
// The format, field by field, is in docs/fairness.md ("The export").
package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// Format is the value of an export's "format" field. A change of the format
// that an old verifier would misread gets a new version.
const Format = "fairboard-export/v1"

// DungeonGame is Export.Game: the registry's name of the reference
// dungeon game, the one game this format exports.
const DungeonGame = "dungeon"

// MaxSize is the largest export Decode reads, in bytes: a whole game is
// well under 1 MiB.
const MaxSize = 16 << 20

// Export is one finished game, as a verifier needs it.
type Export struct {
	// Format is always [Format].
	Format string `json:"format"`
	// Game names the game on the game definition: always DungeonGame
	// (written since exports named their game; an export without it is
	// the dungeon's too). A game on the definition exports its game
	// record (match.Record, fairboard-game/v1) instead.
	Game string `json:"game,omitempty"`
	// GameID names the game.
	GameID string `json:"gameId"`
	// Mode is the game's rng mode: "seeded", "crypto", "fair" or
	// "trustless".
	Mode rng.Mode `json:"mode"`
	// Rules is the ruleset the game was played under, as engine.LoadRules
	// reads it; its SHA-256 (of its canonical JSON) is the rulesHash of the
	// log's GameCreated.
	Rules json.RawMessage `json:"rules"`
	// Players are the seats, in seat order.
	Players []Player `json:"players"`
	// Actions are every applied action, in order.
	Actions []Action `json:"actions"`
	// Log is the public log: every event, in seq order, as the engine
	// writes it (engine.Event's JSON).
	Log []json.RawMessage `json:"log"`
	// Trustless (trustless games) is the chains' heads, the keys, the
	// chain length and the deadline, and the round pending when the game
	// was exported, if any. Every link, signature and record is in the
	// actions and the log; a trustless game is exported at any point of
	// its play, not only at its end.
	Trustless *Trustless `json:"trustless,omitempty"`
	// Fairness is what the game revealed at its end, and every shuffle
	// (empty in a trustless game, which reveals nothing and shuffles
	// nothing).
	Fairness Fairness `json:"fairness"`
}

// Trustless is a trustless game's chains and keys, seat by seat.
type Trustless struct {
	ChainLength uint32 `json:"chainLength"`
	DeadlineMs  int64  `json:"deadlineMs"`
	// Seats are the seats' chain heads (x_0) and Ed25519 public keys, in
	// seat order, as their joins published them.
	Seats []TrustSeat `json:"seats"`
	// Pending, if set, is the action pending when the game was exported:
	// its record is the log's last ActionPending; the reveals it had
	// received (Withheld of them) are not in the export, since their links
	// stay secret until the round closes.
	Pending *PendingRound `json:"pending,omitempty"`
}

// TrustSeat is one seat of a trustless game.
type TrustSeat struct {
	UID       string        `json:"uid"`
	Seat      int           `json:"seat"`
	ChainHead engine.Hash32 `json:"chainHeadHex"`
	PublicKey engine.Hash32 `json:"publicKeyHex"`
}

// PendingRound is the round open when a trustless game was exported.
type PendingRound struct {
	Index    uint32        `json:"index"`
	Digest   engine.Hash32 `json:"digestHex"`
	Withheld int           `json:"revealsWithheld"`
}

// Player is one seat.
type Player struct {
	UID   string       `json:"uid"`
	Seat  int          `json:"seat"`
	Class engine.Class `json:"class"`
}

// Action is one applied action: the game version it was applied to (0 for
// create, then 1, 2, ...), its kind and actor, the time the server stamped
// (unix ms, informative) and its parameters, named as engine.Action names
// them. The server's secret inputs are not here: a fair game's server seed
// is in Fairness, a crypto game's salt key is never revealed (its salts
// are).
type Action struct {
	Version uint64            `json:"version"`
	Kind    engine.ActionKind `json:"kind"`
	Actor   string            `json:"actor"`
	At      int64             `json:"at,omitempty"`

	GameID        string       `json:"gameId,omitempty"`
	Mode          string       `json:"mode,omitempty"`
	Seed          string       `json:"seed,omitempty"`
	Audit         bool         `json:"audit,omitempty"`
	Seat          int          `json:"seat,omitempty"`
	Class         engine.Class `json:"class,omitempty"`
	KeepSmokeBomb bool         `json:"keepSmokeBomb,omitempty"`
	Entropy       string       `json:"entropy,omitempty"`
	Target        string       `json:"target,omitempty"`
	CardID        string       `json:"cardId,omitempty"`

	// Fair games with openings (create, join) and trustless games
	// (create, join, every signed action, reveal), named as engine.Action
	// names them.
	Openings          bool   `json:"openings,omitempty"`
	EntropyCommitment string `json:"entropyCommitment,omitempty"`
	ChainLength       int    `json:"chainLength,omitempty"`
	DeadlineMs        int64  `json:"deadlineMs,omitempty"`
	ChainHead         string `json:"chainHead,omitempty"`
	PublicKey         string `json:"publicKey,omitempty"`
	Signature         string `json:"signature,omitempty"`
	Index             uint32 `json:"index,omitempty"`
	Link              string `json:"link,omitempty"`
	Digest            string `json:"digest,omitempty"`
	Transcript        string `json:"transcript,omitempty"`
}

// exportAction is the export's form of an applied action, version i.
func exportAction(i int, a *engine.Action) Action {
	return Action{Version: uint64(i), Kind: a.Kind, Actor: a.Actor, At: a.At,
		GameID: a.GameID, Mode: a.Mode, Seed: a.Seed, Audit: a.Audit, Seat: a.Seat, Class: a.Class,
		KeepSmokeBomb: a.KeepSmokeBomb, Entropy: a.Entropy, Target: a.Target, CardID: a.CardID,
		Openings: a.Openings, EntropyCommitment: a.EntropyCommitment, ChainLength: a.ChainLength, DeadlineMs: a.DeadlineMs,
		ChainHead: a.ChainHead, PublicKey: a.PublicKey, Signature: a.Signature,
		Index: a.Index, Link: a.Link, Digest: a.Digest, Transcript: a.Transcript}
}

// engineAction is the engine's action of an export's action (the
// server's secret inputs, which are not in it, aside).
func (xa *Action) engineAction() engine.Action {
	return engine.Action{Kind: xa.Kind, Actor: xa.Actor, Version: xa.Version, At: xa.At,
		GameID: xa.GameID, Mode: xa.Mode, Seed: xa.Seed, Audit: xa.Audit, Seat: xa.Seat, Class: xa.Class,
		KeepSmokeBomb: xa.KeepSmokeBomb, Entropy: xa.Entropy, Target: xa.Target, CardID: xa.CardID,
		Openings: xa.Openings, EntropyCommitment: xa.EntropyCommitment, ChainLength: xa.ChainLength, DeadlineMs: xa.DeadlineMs,
		ChainHead: xa.ChainHead, PublicKey: xa.PublicKey, Signature: xa.Signature,
		Index: xa.Index, Link: xa.Link, Digest: xa.Digest, Transcript: xa.Transcript}
}

// Fairness is the revealed secrets of the game and its shuffles.
type Fairness struct {
	// CommitmentHex (fair) is the commitment published at create.
	CommitmentHex string `json:"commitmentHex,omitempty"`
	// ServerSeedHex (fair) is the server seed it commits to.
	ServerSeedHex string `json:"serverSeedHex,omitempty"`
	// ContributionsHex (fair) are the players' entropy in seat order, ""
	// for none.
	ContributionsHex []string `json:"contributionsHex,omitempty"`
	// GameSeedHex (fair) is the seed of the game's stream.
	GameSeedHex string `json:"gameSeedHex,omitempty"`
	// Seed (seeded) is the seed string.
	Seed string `json:"seed,omitempty"`
	// Shuffles are every shuffle of the game, in order (none for a game
	// abandoned in its lobby).
	Shuffles []Shuffle `json:"shuffles,omitempty"`
}

// Shuffle is the game's k-th shuffle: the deck, the rng seq of the shuffle,
// its tag, the salt and the order it made (top first), which open the
// commitment of the log's k-th DeckShuffled.
type Shuffle struct {
	K       int           `json:"k"`
	DeckID  string        `json:"deckId"`
	Seq     uint64        `json:"seq"`
	Tag     rng.Tag       `json:"tag"`
	SaltHex engine.Hash32 `json:"saltHex"`
	Order   []string      `json:"order"`
}

// FormatError says that the input is not a readable fairboard-export/v1
// (gamectl verify exits 2 for it).
type FormatError struct{ Msg string }

func (e *FormatError) Error() string { return "not a " + Format + " export: " + e.Msg }

func formatErr(format string, args ...any) error {
	return &FormatError{Msg: fmt.Sprintf(format, args...)}
}

// Decode reads an export strictly: one JSON object of at most [MaxSize]
// bytes, no unknown field, no trailing data, format [Format], a known mode,
// a ruleset, a log of JSON objects. Anything else is a *FormatError naming
// what is wrong. It checks the shape only; [Verify] checks the content.
func Decode(data []byte) (*Export, error) {
	if len(data) > MaxSize {
		return nil, formatErr("%d bytes, more than the %d an export may have", len(data), MaxSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var x Export
	err := dec.Decode(&x)
	if err != nil || x.Format != Format {
		// Say first whether it is an export of this format at all: a later
		// format's new fields are not "unknown fields" of this one.
		var probe struct {
			Format *string `json:"format"`
		}
		if perr := json.Unmarshal(data, &probe); perr != nil {
			return nil, formatErr("not a JSON object: %v", perr)
		}
		if probe.Format == nil {
			return nil, formatErr(`no "format" field`)
		}
		if *probe.Format != Format {
			return nil, formatErr("format %q; this verifier reads %q", *probe.Format, Format)
		}
		return nil, formatErr("%v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, formatErr("trailing data after the export")
	}
	if x.Game != "" && x.Game != DungeonGame {
		return nil, formatErr("an export of the game %q: this format is the dungeon's; another game exports its game record (fairboard-game/v1), which gamectl verify reads too", x.Game)
	}
	switch x.Mode {
	case rng.ModeSeeded, rng.ModeCrypto, rng.ModeFair:
		if x.Trustless != nil {
			return nil, formatErr(`a %s game has no "trustless" section`, x.Mode)
		}
	case rng.ModeTrustless:
		if x.Trustless == nil {
			return nil, formatErr(`a trustless game's export has a "trustless" section`)
		}
	default:
		return nil, formatErr("mode %q; want seeded, crypto, fair or trustless", x.Mode)
	}
	if len(x.Rules) == 0 || x.Rules[0] != '{' {
		return nil, formatErr(`"rules" is not a ruleset object`)
	}
	if len(x.Actions) == 0 {
		return nil, formatErr("no actions")
	}
	if len(x.Log) == 0 {
		return nil, formatErr("an empty log")
	}
	for i, l := range x.Log {
		if len(l) == 0 || l[0] != '{' {
			return nil, formatErr("log entry %d is not an object", i)
		}
	}
	return &x, nil
}

// Encode writes the export as JSON: one line per action, log event and
// shuffle, so that a diff of two exports reads well.
func (x *Export) Encode() ([]byte, error) {
	var b bytes.Buffer
	put := func(key string, v any, last bool) error {
		js, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, " %q: %s", key, js)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	putIf := func(key string, v any, ok bool) error {
		if !ok {
			return nil
		}
		return put(key, v, false)
	}
	list := func(key string, n int, item func(i int) ([]byte, error)) error {
		fmt.Fprintf(&b, " %q: [", key)
		for i := range n {
			js, err := item(i)
			if err != nil {
				return err
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n  ")
			b.Write(js)
		}
		b.WriteString("\n ],\n")
		return nil
	}
	b.WriteString("{\n")
	var rules bytes.Buffer
	if err := json.Compact(&rules, x.Rules); err != nil {
		return nil, fmt.Errorf("export: rules: %w", err)
	}
	errs := []error{
		put("format", x.Format, false),
		putIf("game", x.Game, x.Game != ""),
		put("gameId", x.GameID, false),
		put("mode", x.Mode, false),
		put("rules", json.RawMessage(rules.Bytes()), false),
		put("players", x.Players, false),
		putIf("trustless", x.Trustless, x.Trustless != nil),
		list("actions", len(x.Actions), func(i int) ([]byte, error) { return json.Marshal(x.Actions[i]) }),
		list("log", len(x.Log), func(i int) ([]byte, error) {
			var c bytes.Buffer
			err := json.Compact(&c, x.Log[i])
			return c.Bytes(), err
		}),
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	f := x.Fairness
	shuffles := f.Shuffles
	f.Shuffles = nil
	head, err := json.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	head = bytes.TrimSuffix(head, []byte("}"))
	if len(head) > 1 {
		head = append(head, ',')
	}
	b.WriteString(` "fairness": `)
	b.Write(head)
	b.WriteString(`"shuffles": [`)
	for i := range shuffles {
		js, err := json.Marshal(shuffles[i])
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		b.Write(js)
	}
	b.WriteString("\n ]}\n}\n")
	return b.Bytes(), nil
}
