package match

import (
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// dealTable rebuilds a recorded deal's public table: its passes and the
// keys published during the hand (not the end-of-hand reveals), so that
// it opens exactly the cards the hand showed.
func dealTable(r *RecordDeal) (*mentalpoker.Table, error) {
	pubs := make([]ed25519.PublicKey, len(r.PublicKeys))
	for i, h := range r.PublicKeys {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("seat %d's public key is not 64 hex digits", i)
		}
		pubs[i] = b
	}
	tb, err := mentalpoker.NewTable(r.GameID, r.Hand, r.Cards, pubs)
	if err != nil {
		return nil, err
	}
	for i, msg := range r.Passes {
		if err := tb.Accept(msg); err != nil {
			return nil, fmt.Errorf("pass message %d: %w", i+1, err)
		}
	}
	if !tb.Dealt() {
		return tb, nil
	}
	for i, k := range r.Keys {
		if err := tb.AcceptKey(k); err != nil {
			return nil, fmt.Errorf("published key %d: %w", i+1, err)
		}
	}
	return tb, nil
}

// ReplayDeal plays moves again from cfg (a trustless match of a game that
// deals) over the recorded deal r: the cards its published keys open.
// Errors: the deal's (a pass or key refused, naming the seat) and the
// first move refused.
func ReplayDeal(def game.Definition, cfg Config, moves []game.Move, r *RecordDeal) (*Match, error) {
	tb, err := dealTable(r)
	if err != nil {
		return nil, err
	}
	cfg.Lean, cfg.Mode, cfg.Dealer = false, rng.ModeTrustless, NewMentalDealer(tb)
	m, err := New(def, cfg)
	if err != nil {
		return nil, err
	}
	for i, mv := range moves {
		if _, err := m.ApplyKeyed(mv, nil); err != nil {
			return m, fmt.Errorf("move %d (%s by seat %d): %w", i+1, mv.Kind, mv.Seat, err)
		}
	}
	return m, nil
}

// checkDealBinding checks that a trustless record's deal is its table's:
// the same game id, each seat's mental-poker key its trustless key, the
// same moves.
func checkDealBinding(p *RecordTrustless, moves []game.Move) error {
	d := p.Deal
	if d.GameID != p.GameID || len(d.PublicKeys) != len(p.Seats) {
		return fmt.Errorf("trustless deal: game %q with %d keys for game %q with %d seats", d.GameID, len(d.PublicKeys), p.GameID, len(p.Seats))
	}
	for i, s := range p.Seats {
		if d.PublicKeys[i] != s.PublicKey {
			return fmt.Errorf("trustless deal: seat %d's key is not its publicKey", i)
		}
	}
	if !slices.Equal(d.Moves, moves) {
		return fmt.Errorf("trustless deal: its moves are not the record's")
	}
	return nil
}
