// Package names keeps the players' display names: one per account,
// chosen by its owner (a guest gets a default it can change), and a copy
// of it in every game the account joins, so that the game's players read
// each other's names with the game (docs/functions.md, "Names").
//
// [Check] is the one place a name is validated; [Store] is where names
// live ([Memory] here, Firestore in names/fsnames). The functions copy an
// account's name into a game when it joins, and again into the games it
// is seated in that are not over when it renames.
package names

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxRunes is the longest name, in Unicode code points after trimming.
const MaxRunes = 32

// Problem is a name [Check] refuses, in words naming what is wrong (never
// quoting the name).
type Problem struct{ Msg string }

func (p *Problem) Error() string { return p.Msg }

// Check returns the name as stored: raw with its leading and trailing
// white space removed. It refuses (a *Problem) a name that is not UTF-8,
// is empty or longer than [MaxRunes] code points once trimmed, or holds a
// control character (U+0000-U+001F, U+007F-U+009F), an invisible
// formatting character (Unicode category Cf: bidirectional overrides,
// zero-width joiners, ...), a line or paragraph separator, a private-use
// character, a Unicode non-character, or '<' or '>'. Names are rendered
// as text wherever they are shown; the refusals keep a name from
// reordering or breaking the line it sits in, or from looking like
// markup in a client that is careless.
func Check(raw string) (string, error) {
	if !utf8.ValidString(raw) {
		return "", &Problem{"must be valid UTF-8"}
	}
	name := strings.TrimFunc(raw, unicode.IsSpace)
	n := utf8.RuneCountInString(name)
	if n == 0 {
		return "", &Problem{"must not be empty (spaces alone do not count)"}
	}
	if n > MaxRunes {
		return "", &Problem{fmt.Sprintf("must be at most %d characters, not %d", MaxRunes, n)}
	}
	i := 0
	for _, r := range name {
		i++
		switch {
		case unicode.IsControl(r):
			return "", &Problem{fmt.Sprintf("must not contain control characters (U+%04X at character %d)", r, i)}
		case unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co) || isNonChar(r):
			return "", &Problem{fmt.Sprintf("must not contain invisible or formatting characters (U+%04X at character %d)", r, i)}
		case r == '<' || r == '>':
			return "", &Problem{fmt.Sprintf("must not contain < or > (character %d)", i)}
		}
	}
	return name, nil
}

// isNonChar reports the Unicode non-characters: U+FDD0-U+FDEF and the
// last two code points of every plane.
func isNonChar(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

// Default is the name of an account that never chose one: "Guest 4F2A"
// for a guest (an anonymous account), "Player 4F2A" for another, the four
// hex digits the first two bytes of SHA-256(uid), so that the same
// account always gets the same default and two accounts rarely share one.
func Default(uid string, guest bool) string {
	sum := sha256.Sum256([]byte(uid))
	tag := strings.ToUpper(hex.EncodeToString(sum[:2]))
	if guest {
		return "Guest " + tag
	}
	return "Player " + tag
}

// ErrUnavailable is a store's answer when its database could not be
// reached or did not answer; the caller may retry.
var ErrUnavailable = errors.New("names: unavailable")

// Store keeps the accounts' names and their copies in the games.
// Implementations are safe for concurrent use.
type Store interface {
	// Name returns the name uid chose, "" if it never chose one.
	Name(ctx context.Context, uid string) (string, error)
	// SetName stores name (already checked) as uid's, and returns the
	// games uid's name was copied into and not dropped since
	// ([Store.Seat], [Store.Drop]), in no particular order.
	SetName(ctx context.Context, uid, name string) (games []string, err error)
	// Seat copies name as uid's into the game gameID (replacing the copy
	// there) and notes the game among uid's games.
	Seat(ctx context.Context, gameID, uid, name string) error
	// Drop removes gameID from uid's games (a game that is over keeps the
	// names it was played under).
	Drop(ctx context.Context, uid, gameID string) error
	// Names returns the names copied into gameID, by uid (empty, never an
	// error, for a game with none).
	Names(ctx context.Context, gameID string) (map[string]string, error)
}
