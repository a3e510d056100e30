package trustseat

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustdeal"
)

// A dealing table's seat (docs/fairness.md, "Dealing without a dealer who
// sees") also keeps a trustdeal.Seat: its mental-poker keys, signed with
// the seat's join key, its own table of the deal kept in step with the
// view, and its cards opened on its device.

// dealSeat returns the seat's deal client, made at the first view of a
// dealing table from the seats' join keys.
func (s *Seat) dealSeat(v *table.View) (*trustdeal.Seat, error) {
	if s.deal != nil {
		return s.deal, nil
	}
	p := v.Trustless
	rules, err := s.def.DecodeRuleset(v.Rules)
	if err != nil {
		return nil, err
	}
	keys := make([]ed25519.PublicKey, len(p.Seats))
	for i, st := range p.Seats {
		if keys[i], err = hex.DecodeString(st.PublicKey); err != nil || len(keys[i]) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("trustseat: seat %d's public key", i)
		}
	}
	cfg := trustdeal.Config{Def: s.def, Rules: rules, GameID: s.gameID, Keys: keys, DeadlineMs: int64(p.DeadlineMs)}
	stream := newDealStream(s.dealSeed, s.gameID, cfg.Hand, s.seat)
	if s.deal, err = trustdeal.NewSeat(cfg, s.seat, s.priv, stream); err != nil {
		return nil, err
	}
	s.deal.Leak = s.leak
	tb, _ := s.deal.Protocol()
	s.dealer = match.NewMentalDealer(tb)
	return s.deal, nil
}

// Cards returns the seat's own cards opened on its device at a dealing
// table, by position (none elsewhere).
func (s *Seat) Cards() map[int]int {
	if s.deal == nil {
		return nil
	}
	return s.deal.Cards()
}

// DealTo returns the seat's deal action for the view (after checking the
// table's protocol and taking in the deal), or nil when the deal waits
// for another seat or for a move.
func (s *Seat) DealTo(actionID string, v *table.View) (*table.Action, error) {
	if v.Trustless == nil || v.Trustless.Deal == nil {
		return nil, errors.New("trustseat: not a dealing table")
	}
	if _, err := s.follow(v); err != nil {
		return nil, err
	}
	dv := v.Trustless.Deal
	if dv.Phase == trustdeal.PhasePlay {
		return nil, nil
	}
	a, err := s.deal.Act(dv, func(int, map[int]int, []game.Move) game.Move { return game.Move{} })
	if err != nil || a == nil {
		return nil, err
	}
	return &table.Action{Actor: s.uid, ActionID: actionID, Kind: table.KindDeal,
		Deal: &table.DealMessage{Pass: a.Pass, Keys: a.Keys, Reveal: a.Reveal}}, nil
}

// Leak makes the seat's deal client publish its own key of its own card
// (a faulty client: the positive control of the leak tests).
func (s *Seat) Leak(v *table.View) error {
	d, err := s.dealSeat(v)
	if err != nil {
		return err
	}
	d.Leak = true
	return nil
}

// LeakAtDeal is Leak before the deal client is made (it is made at the
// first view of the dealing table): the page's test build's faulty seat
// (web/play/wasm/tableleak.go, build tag leaktest).
func (s *Seat) LeakAtDeal() {
	s.leak = true
	if s.deal != nil {
		s.deal.Leak = true
	}
}

// Deal returns the seat's deal client at a dealing table (nil before its
// first view of one): for tests that make it cheat.
func (s *Seat) Deal() *trustdeal.Seat { return s.deal }

// Resign signs m again with the seat's key: what a cheating client does
// to a pass it has changed (tests).
func (s *Seat) Resign(m *mentalpoker.PassMessage) { m.Sig = ed25519.Sign(s.priv, m.SignedBytes()) }
