package service

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/games/dungeon/server/store"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
	"github.com/fairboard/fairboard/rng/shuffles"
)

// The longest value of each string field of a request, checked (with the
// rest of [stringFields]) before the store is touched. Lengths are in
// bytes of UTF-8, except the uids (actor, target), which are in
// characters as Firebase counts them.
const (
	// MaxIDLen bounds gameId and actionId (1-128 of [A-Za-z0-9_-]).
	MaxIDLen = store.MaxIDLen
	// MaxUIDLen bounds a uid: the caller's (from the ID token) and an
	// offerDuel target. Firebase uids are 1-128 characters.
	MaxUIDLen = 128
	// MaxCardIDLen bounds cardId, far above the default ruleset's
	// longest id (about 20 bytes, "chance-earthquake-2"; a test checks
	// that every card id of the default ruleset fits).
	MaxCardIDLen = 64
	// MaxSeedLen bounds a seeded game's seed.
	MaxSeedLen = 256
	// MaxEnumLen bounds kind, mode and class (each then has to be one of
	// its known values).
	MaxEnumLen = 32
	// MaxEntropyLen bounds a join's entropy (a fair game's seed
	// contribution): fair.MaxEntropy bytes as hex digits.
	MaxEntropyLen = 2 * fair.MaxEntropy
	// MaxShuffleSeedLen bounds verifyShuffle's seed. The longest a
	// registered algorithm needs is Tenhou's seed text (its prefix and
	// 3,328 characters of base64, then "@K").
	MaxShuffleSeedLen = 4096
	// MaxHashLen bounds a 32-byte value as hex: a trustless join's
	// chainHead and publicKey, a reveal's link, digest and transcript, a
	// fair join's entropyCommitment (each exactly 64 hex digits).
	MaxHashLen = 64
	// MaxSignatureLen bounds an Ed25519 signature as hex (exactly 128).
	MaxSignatureLen = 128
	// MaxClaimedDeck bounds the cards of verifyShuffle's claimed_deck:
	// far above the decks the algorithms are used with (52 cards, Tenhou's
	// 136 tiles, the hash chain's 300-card vectors), and a few
	// milliseconds of work.
	MaxClaimedDeck = 4096
)

// FieldError is a request field that is missing, too long or malformed.
// It wraps ErrInvalid. Field is the field's JSON name, the same in the
// callable data and in engine.Action; Problem never quotes the value.
type FieldError struct {
	Field, Problem string
}

func (e *FieldError) Error() string { return "service: invalid request: " + e.Field + " " + e.Problem }

// Unwrap makes errors.Is(err, ErrInvalid) true.
func (e *FieldError) Unwrap() error { return ErrInvalid }

// stringField is one string field of a request: how to read it, its
// maximum, whether it may be empty, and its format beyond that.
type stringField struct {
	name     string
	max      int // in bytes, or in characters if chars
	chars    bool
	required bool
	get      func(gameID string, a *engine.Action) string
	format   func(v string, a *engine.Action) string // "" if fine, else the problem
}

// stringFields is the one table of the request's string fields: every
// string an action can carry is listed here, with its maximum, and
// checked by [checkAction] before the store is touched. A new field of
// engine.Action that a client can set gets a row.
var stringFields = []stringField{
	gameIDField,
	{name: "actionId", max: MaxIDLen, get: func(_ string, a *engine.Action) string { return a.ID }, format: idFormat},
	{name: "actor", max: MaxUIDLen, chars: true, required: true, get: func(_ string, a *engine.Action) string { return a.Actor }, format: actorFormat},
	{name: "kind", max: MaxEnumLen, required: true, get: func(_ string, a *engine.Action) string { return string(a.Kind) }, format: kindFormat},
	{name: "mode", max: MaxEnumLen, get: func(_ string, a *engine.Action) string { return a.Mode }, format: modeFormat},
	{name: "seed", max: MaxSeedLen, get: func(_ string, a *engine.Action) string { return a.Seed }, format: seedFormat},
	{name: "class", max: MaxEnumLen, get: func(_ string, a *engine.Action) string { return string(a.Class) }, format: classFormat},
	{name: "target", max: MaxUIDLen, chars: true, get: func(_ string, a *engine.Action) string { return a.Target }},
	{name: "cardId", max: MaxCardIDLen, get: func(_ string, a *engine.Action) string { return a.CardID }},
	{name: "entropy", max: MaxEntropyLen, get: func(_ string, a *engine.Action) string { return a.Entropy }, format: entropyFormat},
	{name: "entropyCommitment", max: MaxHashLen, get: func(_ string, a *engine.Action) string { return a.EntropyCommitment }, format: hashFormat},
	{name: "chainHead", max: MaxHashLen, get: func(_ string, a *engine.Action) string { return a.ChainHead }, format: hashFormat},
	{name: "publicKey", max: MaxHashLen, get: func(_ string, a *engine.Action) string { return a.PublicKey }, format: hashFormat},
	{name: "link", max: MaxHashLen, get: func(_ string, a *engine.Action) string { return a.Link }, format: hashFormat},
	{name: "digest", max: MaxHashLen, get: func(_ string, a *engine.Action) string { return a.Digest }, format: hashFormat},
	{name: "transcript", max: MaxHashLen, get: func(_ string, a *engine.Action) string { return a.Transcript }, format: hashFormat},
	{name: "signature", max: MaxSignatureLen, get: func(_ string, a *engine.Action) string { return a.Signature }, format: signatureFormat},
	// The server draws it (Do); a caller may not supply one.
	{name: "serverSeed", max: 0, get: func(_ string, a *engine.Action) string { return a.ServerSeed }},
}

// gameIDField is the game id of every request.
var gameIDField = stringField{name: "gameId", max: MaxIDLen, required: true, get: func(g string, _ *engine.Action) string { return g }, format: idFormat}

// The fields of the requests that are not actions (exportGame,
// getShuffle, verifyShuffle), checked by [checkQuery] and
// [checkVerifyShuffle] before anything else happens. A new field of such
// a request gets a row here.
var (
	// deckIdField: getShuffle's optional deck.
	deckIDField = stringField{name: "deckId", max: MaxEnumLen, format: deckFormat}
	// algorithmField: verifyShuffle's algorithm, a name of rng/shuffles.
	algorithmField = stringField{name: "algorithm", max: MaxEnumLen, required: true, format: algorithmFormat}
	// shuffleSeedField: verifyShuffle's seed, in the algorithm's own
	// encoding (which the algorithm checks).
	shuffleSeedField = stringField{name: "seed", max: MaxShuffleSeedLen}
	// claimedCardField: each card of verifyShuffle's claimed_deck.
	claimedCardField = stringField{name: "claimed_deck", max: MaxCardIDLen, required: true}
)

// checkQuery checks a game id and, if not empty, a deck id.
func checkQuery(gameID, deckID string) error {
	if err := gameIDField.check(gameID, nil); err != nil {
		return err
	}
	return deckIDField.check(deckID, nil)
}

// checkVerifyShuffle checks verifyShuffle's fields: the algorithm, the
// seed's length, and the claimed deck (1 to MaxClaimedDeck cards, each a
// non-empty string of at most MaxCardIDLen bytes).
func checkVerifyShuffle(algorithm, seed string, claimed []string) error {
	if err := algorithmField.check(algorithm, nil); err != nil {
		return err
	}
	if err := shuffleSeedField.check(seed, nil); err != nil {
		return err
	}
	if len(claimed) < 1 || len(claimed) > MaxClaimedDeck {
		return &FieldError{"claimed_deck", fmt.Sprintf("must hold 1 to %d cards, not %d", MaxClaimedDeck, len(claimed))}
	}
	for i, c := range claimed {
		var fe *FieldError
		if errors.As(claimedCardField.check(c, nil), &fe) {
			return &FieldError{fe.Field, fmt.Sprintf("card %d %s", i, fe.Problem)}
		}
	}
	return nil
}

// checkAction checks the request's fields: every string against its row
// of stringFields (valid UTF-8, its maximum, its format), the create's
// game id and seed, and a join's seat against the ruleset's seats. It
// returns the first *FieldError, or nil.
func checkAction(rules *engine.Ruleset, gameID string, a *engine.Action) error {
	for _, f := range stringFields {
		if err := f.check(f.get(gameID, a), a); err != nil {
			return err
		}
	}
	switch a.Kind {
	case engine.ActCreate:
		if a.GameID != gameID {
			return &FieldError{"gameId", "of the create action differs from the request's"}
		}
		if rng.Mode(a.Mode) == rng.ModeSeeded && a.Seed == "" {
			return &FieldError{"seed", "is required in seeded mode"}
		}
	case engine.ActJoin, engine.ActReveal:
		if a.Seat < 0 || a.Seat >= rules.MaxPlayers {
			return &FieldError{"seat", "must be in [0, " + strconv.Itoa(rules.MaxPlayers-1) + "]"}
		}
	}
	if a.Kind == engine.ActReveal {
		if a.Index == 0 {
			return &FieldError{"index", "must be at least 1 (a trustless game's indices run 1, 2, 3, ...)"}
		}
		for _, f := range []struct{ name, v string }{{"link", a.Link}, {"digest", a.Digest}, {"transcript", a.Transcript}, {"signature", a.Signature}} {
			if f.v == "" {
				return &FieldError{f.name, "is required in a reveal"}
			}
		}
	}
	if a.ChainLength < 0 || a.DeadlineMs < 0 {
		return &FieldError{"chainLength", "and deadlineMs must not be negative"}
	}
	return nil
}

// check checks v against the field's row: required, valid UTF-8, its
// maximum, its format. It returns a *FieldError or nil.
func (f *stringField) check(v string, a *engine.Action) error {
	switch {
	case v == "" && f.required:
		return &FieldError{f.name, "is required"}
	case v == "":
		return nil
	case !utf8.ValidString(v):
		return &FieldError{f.name, "is not valid UTF-8"}
	case f.chars && utf8.RuneCountInString(v) > f.max:
		return &FieldError{f.name, fmt.Sprintf("must be at most %d characters", f.max)}
	case f.max == 0:
		return &FieldError{f.name, "is set by the server, never by a caller"}
	case !f.chars && len(v) > f.max:
		return &FieldError{f.name, fmt.Sprintf("must be at most %d bytes", f.max)}
	}
	if f.format != nil {
		if p := f.format(v, a); p != "" {
			return &FieldError{f.name, p}
		}
	}
	return nil
}

func idFormat(v string, _ *engine.Action) string {
	if !store.ValidID(v) {
		return "must be 1-128 characters of [A-Za-z0-9_-], not of the form __x__"
	}
	return ""
}

func deckFormat(v string, _ *engine.Action) string {
	if !slices.Contains(engine.DeckIDs[:], v) {
		return "must be one of " + strings.Join(engine.DeckIDs[:], ", ")
	}
	return ""
}

func algorithmFormat(v string, _ *engine.Action) string {
	if _, err := shuffles.Lookup(v); err != nil {
		return "must be one of " + strings.Join(shuffles.Names(), ", ")
	}
	return ""
}

func kindFormat(v string, _ *engine.Action) string {
	if !slices.Contains(engine.ActionKinds, engine.ActionKind(v)) {
		return "is not an action kind"
	}
	return ""
}

// modeFormat: the rng modes a create may ask for ("" is crypto).
func modeFormat(v string, _ *engine.Action) string {
	switch rng.Mode(v) {
	case rng.ModeCrypto, rng.ModeSeeded, rng.ModeFair, rng.ModeTrustless:
		return ""
	}
	return `must be "crypto", "seeded", "fair" or "trustless"`
}

// actorFormat: no caller acts as the server.
func actorFormat(v string, _ *engine.Action) string {
	if v == engine.ServerActor {
		return "is the server's own actor, which no caller may be"
	}
	return ""
}

// hashFormat: 32 bytes as exactly 64 hex digits.
func hashFormat(v string, _ *engine.Action) string {
	if len(v) != MaxHashLen || !isHex(v) {
		return "must be 32 bytes as 64 hex digits"
	}
	return ""
}

// signatureFormat: an Ed25519 signature, exactly 128 hex digits.
func signatureFormat(v string, _ *engine.Action) string {
	if len(v) != MaxSignatureLen || !isHex(v) {
		return "must be an Ed25519 signature as 128 hex digits"
	}
	return ""
}

func isHex(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// entropyFormat: hex digits, whole bytes, a join's or an opening's only.
func entropyFormat(v string, a *engine.Action) string {
	if a.Kind != engine.ActJoin && a.Kind != engine.ActOpen {
		return "is only for joinGame and an opening (act open)"
	}
	if _, err := fair.ParseEntropy(v); err != nil {
		return "must be an even number of hex digits"
	}
	return ""
}

func seedFormat(_ string, a *engine.Action) string {
	if rng.Mode(a.Mode) != rng.ModeSeeded {
		return "is only for seeded mode"
	}
	return ""
}

func classFormat(v string, _ *engine.Action) string {
	if !engine.Class(v).Valid() {
		names := make([]string, len(engine.Classes))
		for i, c := range engine.Classes {
			names[i] = string(c)
		}
		return "must be one of " + strings.Join(names, ", ")
	}
	return ""
}
