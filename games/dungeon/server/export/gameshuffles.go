package export

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/games/dungeon/engine"
	"github.com/fairboard/fairboard/rng"
)

// ShuffleInfo is one shuffle of a game, as the getShuffle callable returns
// it (ADR-005's shuffle audit API).
type ShuffleInfo struct {
	DeckID string  `json:"deckId"`
	Tag    rng.Tag `json:"tag"`
	// Seq is the rng seq of the shuffle; K its number among the game's
	// shuffles (from 0).
	Seq uint64 `json:"seq"`
	K   int    `json:"k"`
	// Algorithm is the rng/shuffles name of the arithmetic the game's
	// stream uses ("chacha20-spec-v1" in fair mode, "sfc32-spec-v1" in
	// seeded mode, "" in crypto mode) and SeedHex the stream's seed (the
	// game seed; a seeded game's seed string as UTF-8 bytes). The k-th
	// shuffle is drawn at its place in the game's stream, so only a game's
	// first shuffle (k = 0, the ruleset's deck, fresh stream) is that
	// algorithm applied to the seed alone; every shuffle is recomputed by
	// replaying the game's export (gamectl verify).
	Algorithm string `json:"algorithm"`
	SeedHex   string `json:"seedHex"`
	// Seed is the same seed in the encoding verifyShuffle (rng/shuffles)
	// takes for Algorithm: the game seed's hex in fair mode, the seed text
	// itself in seeded mode, "" in crypto mode. It can be passed to
	// verifyShuffle as it is.
	Seed string `json:"seed"`
	// Order is the draw pile the shuffle made, top first.
	Order []string `json:"deck_order"`
	// SaltHex and the order open the commitment of the shuffle's
	// DeckShuffled event.
	SaltHex engine.Hash32 `json:"saltHex"`
	// Verifiable says that the order can be recomputed from revealed seeds
	// (fair and seeded games). A crypto game's orders can only be checked
	// against their commitments and the cards drawn.
	Verifiable bool `json:"verifiable"`
}

// ErrNotRevealed is returned by GameShuffles for a game whose shuffles are
// still secret.
var ErrNotRevealed = errors.New("export: the game's shuffles are revealed only once it has ended")

// GameShuffles returns the shuffles of deck deckID ("" for every deck) of
// a game: one that has ended (any mode), or a seeded game at any time
// (seeded games are for tests and simulations; anyone with the seed can
// compute them). It returns ErrNotRevealed for a fair or crypto game still
// in play, and an error naming an unknown deck id.
func GameShuffles(g *engine.Game, deckID string) ([]ShuffleInfo, error) {
	p := &g.Public
	if p.Phase != engine.PhaseFinished && p.RNG.Mode != rng.ModeSeeded {
		return nil, ErrNotRevealed
	}
	if deckID != "" && !slices.Contains(engine.DeckIDs[:], deckID) {
		return nil, fmt.Errorf("export: unknown deck %q", deckID)
	}
	var algo, seedHex, seed string
	switch p.RNG.Mode {
	case rng.ModeFair:
		algo, seedHex, seed = "chacha20-spec-v1", g.Secret.GameSeed, g.Secret.GameSeed
	case rng.ModeSeeded:
		algo, seedHex, seed = "sfc32-spec-v1", hex.EncodeToString([]byte(g.Secret.Seed)), g.Secret.Seed
	}
	out := []ShuffleInfo{}
	for _, s := range g.Secret.Shuffles {
		if deckID != "" && s.DeckID != deckID {
			continue
		}
		out = append(out, ShuffleInfo{DeckID: s.DeckID, Tag: s.Tag, Seq: s.Seq, K: s.K, Algorithm: algo, SeedHex: seedHex, Seed: seed,
			Order: slices.Clone(s.Order), SaltHex: s.Salt, Verifiable: algo != ""})
	}
	return out, nil
}
