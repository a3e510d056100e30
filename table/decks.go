package table

import (
	"encoding/hex"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// Named decks' commitments (docs/fairness.md, "A table game's record").
//
// A seeded, fair or crypto table commits to the order of every named
// deck its game shuffles (a Shuffle with ctx.DeckID: game.Deal in these
// modes), at the moment it shuffles: the action that shuffled logs, for
// every reader, one public DeckCommitted event per shuffle before the
// game's own events of that action, with Vals {k, the number of cards}
// and Options {deck id, tag, commitment} (match.DeckCommitmentHex under
// the table's salt key). The salt key, the salts and the orders stay in
// the saved table (the server's alone) until the end, when the record
// (Record: match.RecordDecks) reveals them and match.CheckRecord checks
// that every commitment opens to the order the replay makes. A
// trustless table commits to nothing here: its decks are dealt by
// mental poker, whose transcript the record checks.

// TypeDeckCommitted is the type of the table's event that publishes a
// named deck's commitment.
const TypeDeckCommitted = "DeckCommitted"

// leakDecks, set by tests only (export_test.go), puts each shuffle's
// salt and order into its DeckCommitted event: the positive control of
// the test that no reader reads them before the end.
var leakDecks bool

// startDecks sets a started table's salt key (none for a trustless
// table): derived from the seed (seeded) or the server seed (fair), 32
// bytes from crypto/rand (crypto: fair.NewSaltKey).
func (t *Table) startDecks() error {
	if t.tl != nil {
		return nil
	}
	key, ok, err := match.DeckSaltKey(t.mode, t.seed, t.serverSeed)
	if err != nil {
		return err
	}
	if !ok {
		if key, err = fair.NewSaltKey(); err != nil {
			return err
		}
	}
	t.deckKey = &key
	return nil
}

// commitDecks logs a DeckCommitted event for every named-deck shuffle
// the match made from index from of its list on (match.DeckShuffles);
// nothing at a table without a salt key (trustless, or started before
// commitments).
func (t *Table) commitDecks(from int) {
	if t.deckKey == nil {
		return
	}
	for _, s := range t.m.DeckShuffles()[from:] {
		salt, c := match.DeckCommitmentHex(t.deckKey, t.decks, s.DeckID, s.Order)
		opts := []string{s.DeckID, string(s.Tag), c}
		if leakDecks {
			opts = append(opts, salt, fmt.Sprint(s.Order))
		}
		t.emit(Event{To: game.All, Type: TypeDeckCommitted, Vals: [game.MaxVals]int64{int64(t.decks), int64(len(s.Order))}, Options: opts})
		t.decks++
	}
}

// publishedDecks returns the commitments the log published, in order.
func (t *Table) publishedDecks() []string {
	var cs []string
	for _, e := range t.log {
		if !e.Game && e.Type == TypeDeckCommitted && len(e.Options) >= 3 {
			cs = append(cs, e.Options[2])
		}
	}
	return cs
}

// savedDeckKey is the salt key as the saved table keeps it: 64 hex
// digits, "" for none.
func (t *Table) savedDeckKey() string {
	if t.deckKey == nil {
		return ""
	}
	return hex.EncodeToString(t.deckKey[:])
}

// restoreDecks takes a saved table's salt key back: none, or at a
// started table that is not trustless 64 lower-case hex digits, the
// derived key for a seeded or fair table; and counts the log's
// commitments.
func (t *Table) restoreDecks(s *saved) error {
	if s.DeckKey == "" {
		return nil
	}
	if !s.Started || s.Trustless != nil {
		return fmt.Errorf("a salt key at a %s table that has not started or is trustless", s.Mode)
	}
	b, err := hex.DecodeString(s.DeckKey)
	if err != nil || len(b) != 32 || hex.EncodeToString(b) != s.DeckKey {
		return fmt.Errorf("the salt key is not 64 lower-case hex digits")
	}
	key := [32]byte(b)
	if want, ok, err := match.DeckSaltKey(s.Mode, s.Seed, s.ServerSeed); err != nil || ok && want != key {
		return fmt.Errorf("the salt key is not the one the %s table's seed makes", s.Mode)
	}
	t.deckKey = &key
	t.decks = s.Decks + len(t.publishedDecks())
	return nil
}

// recordDecks is the record's Decks of m, the table's game replayed
// from its start: its named-deck shuffles with the commitments the log
// published; nil at a table without a salt key and for a game that
// shuffled no named deck (Pig's record is as before).
func (t *Table) recordDecks(m *match.Match) (*match.RecordDecks, error) {
	pub := t.publishedDecks()
	if t.deckKey == nil || t.mode == rng.ModeTrustless || len(pub) == 0 && len(m.DeckShuffles()) == 0 {
		return nil, nil
	}
	return match.NewRecordDecks(t.deckKey, m.DeckShuffles(), pub)
}
