package trustdeal

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// Seat is a player's client for one hand: its mental-poker keys (fresh
// for the hand, never sent but as the protocol asks), its own Table and
// game kept in step with the server's view, and its cards, opened on its
// device. It publishes a key only when its own replay of the game asks
// for it: another seat's card at the deal, the cards a move it has
// checked opens, every key at the end. Not safe for concurrent use.
type Seat struct {
	idx   int
	tb    *mentalpoker.Table
	ms    *mentalpoker.Seat
	d     *match.MentalDealer
	m     *match.Match
	keys  int // published keys taken in
	moves int // moves replayed
	own   map[int]int
	done  map[Phase]bool
	// Leak makes the seat publish its own key of its own card with its
	// deal keys: a faulty client, the positive control of the tests that
	// show the server never holds a card.
	Leak bool
}

// NewSeat returns seat idx's client, signing with priv (whose public key
// is cfg.Keys[idx]) and drawing its keys from r (nil: crypto/rand).
func NewSeat(cfg Config, idx int, priv ed25519.PrivateKey, r io.Reader) (*Seat, error) {
	n, err := deckSize(cfg)
	if err != nil {
		return nil, err
	}
	s := &Seat{idx: idx, own: map[int]int{}, done: map[Phase]bool{}}
	if s.tb, err = mentalpoker.NewTable(cfg.GameID, cfg.Hand, n, cfg.Keys); err != nil {
		return nil, err
	}
	if s.ms, err = mentalpoker.NewSeat(s.tb, idx, priv, r); err != nil {
		return nil, err
	}
	s.d = match.NewMentalDealer(s.tb)
	if s.m, err = match.NewDealMatch(cfg.Def, cfg.Rules, len(cfg.Keys), s.d); err != nil {
		return nil, err
	}
	return s, nil
}

// Index returns the seat.
func (s *Seat) Index() int { return s.idx }

// Cards returns the seat's own cards opened so far, by position.
func (s *Seat) Cards() map[int]int { return s.own }

// Protocol gives the seat's protocol objects, for tests that make it
// cheat: its Table and its mental-poker Seat.
func (s *Seat) Protocol() (*mentalpoker.Table, *mentalpoker.Seat) { return s.tb, s.ms }

// Sync takes in what the view shows that the seat has not: the others'
// passes (each checked, the refusal naming its seat), the keys published
// (checked against their commitments), the moves (replayed); and opens
// the seat's own cards once the others' keys are in.
func (s *Seat) Sync(v *View) error {
	for i := len(s.tb.Messages()); i < len(v.Passes); i++ {
		if err := s.tb.Accept(v.Passes[i]); err != nil {
			return fmt.Errorf("pass %d: %w", i+1, err)
		}
	}
	for ; s.keys < len(v.Keys); s.keys++ {
		if err := s.tb.AcceptKey(v.Keys[s.keys]); err != nil {
			return fmt.Errorf("published key %d: %w", s.keys+1, err)
		}
	}
	for ; s.moves < len(v.Moves); s.moves++ {
		if _, err := s.m.ApplyKeyed(v.Moves[s.moves], nil); err != nil {
			return fmt.Errorf("move %d: %w", s.moves+1, err)
		}
	}
	if !s.tb.Dealt() {
		return nil
	}
	for p, o := range s.d.Owners() {
		if _, have := s.own[p]; have || o != s.idx || len(s.tb.Missing(p, s.idx)) > 0 {
			continue
		}
		c, err := s.ms.Open(s.tb, p)
		if errors.Is(err, mentalpoker.ErrNotCard) {
			// A pass was cheated: play on, the end-of-hand
			// recomputation names the seat.
			c, err = game.Hidden, nil
		}
		if err != nil {
			return fmt.Errorf("opening my card at position %d: %w", p, err)
		}
		s.own[p] = c
	}
	return nil
}

// Choose picks the seat's move among legal, knowing its own cards.
type Choose func(seat int, cards map[int]int, legal []game.Move) game.Move

// Act returns the seat's action for the view (after Sync), or nil when
// the hand waits for another seat. In PhasePass it sends its pass, with
// its keys of the others' cards when that pass completes the deal (the
// deck is then fixed). In PhaseOpen it sends its keys only
// for the positions its own replay of the pending move opens; a server
// that asks for others is refused. In PhaseReveal it reveals every key
// only once its own replay of the hand is over or a card it can open
// opens to none (a cheated pass); a server that asks earlier is refused.
func (s *Seat) Act(v *View, choose Choose) (*Action, error) {
	a := &Action{Seat: s.idx}
	switch v.Phase {
	case PhasePass:
		if v.NextSeat != s.idx {
			return nil, nil
		}
		m, err := s.ms.Pass(s.tb)
		if err != nil {
			return nil, err
		}
		a.Pass = m
		if s.tb.Dealt() && !s.Leak {
			// The pass that completes the deal (the seat's own table
			// holds it now): its keys of the others' cards ride with it.
			if a.Keys, err = s.DueKeys(); err != nil {
				return nil, err
			}
		}
	case PhaseDeal:
		ks, err := s.DueKeys()
		if err != nil || len(ks) == 0 {
			return nil, err
		}
		a.Keys = ks
	case PhasePlay:
		if v.ToMove != s.idx {
			return nil, nil
		}
		mv := choose(s.idx, s.own, v.Legal)
		a.Move = &mv
	case PhaseOpen:
		if slices.Contains(v.Staged, s.idx) {
			return nil, nil
		}
		ks, err := s.openKeys(v)
		if err != nil {
			return nil, err
		}
		a.Keys = ks
	case PhaseReveal:
		if slices.Contains(v.Staged, s.idx) || s.done[PhaseReveal] {
			return nil, nil
		}
		if !s.m.Over() && !s.cheatSeen() {
			return nil, errors.New("trustdeal: the server asks for every key while my replay of the hand is not over and no card fails to open")
		}
		r, err := s.ms.Reveal(s.tb)
		if err != nil {
			return nil, err
		}
		a.Reveal, s.done[PhaseReveal] = r, true
	default:
		return nil, nil
	}
	return a, nil
}

// DueKeys returns the seat's keys, not yet published, of the positions
// dealt to the other seats (and, with Leak, of its own): what it owes the
// deal, sent alone, with the pass that completes the deal or with its
// first move.
func (s *Seat) DueKeys() ([]*mentalpoker.KeyMessage, error) {
	var out []*mentalpoker.KeyMessage
	for p, o := range s.d.Owners() {
		if o != game.All && (o != s.idx || s.Leak) && slices.Contains(s.tb.Missing(p, -1), s.idx) {
			k, err := s.ms.Key(s.tb, p)
			if err != nil {
				return nil, err
			}
			out = append(out, k)
		}
	}
	return out, nil
}

// cheatSeen reports whether a position the seat can open (its own, or
// one with every seat's key published) opens to no card: a pass was
// cheated, and the end-of-hand recomputation is due at once.
func (s *Seat) cheatSeen() bool {
	for _, c := range s.own {
		if c == game.Hidden {
			return true
		}
	}
	for p := range s.tb.Cards() {
		if len(s.tb.Missing(p, -1)) == 0 {
			if _, err := s.tb.OpenPublic(p); errors.Is(err, mentalpoker.ErrNotCard) {
				return true
			}
		}
	}
	return false
}

// openKeys checks the pending move on the seat's own game and returns its
// keys of the positions that move opens.
func (s *Seat) openKeys(v *View) ([]*mentalpoker.KeyMessage, error) {
	if v.Pending == nil {
		return nil, errors.New("trustdeal: an opening without a pending move")
	}
	draws, err := s.m.WouldDraw(*v.Pending)
	want := s.d.Wanted()
	if err != nil || !draws || want == nil || !slices.Equal(want, v.Open) {
		return nil, fmt.Errorf("trustdeal: the server asks for my keys of positions %v; my replay of the pending move opens %v (%v)", v.Open, want, err)
	}
	var out []*mentalpoker.KeyMessage
	for _, p := range want {
		k, err := s.ms.Key(s.tb, p)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// Hand is how the clients reach a hand's server (a *Server, or a test's
// tap around one).
type Hand interface {
	View() *View
	Do(Action) error
}

// Play drives a hand to its end: at each step every seat syncs with the
// server's view and the first that has an action sends it. It returns
// the last view, or the first error (a seat's failed check or the
// server's refusal) with the seat named, after at most maxSteps actions.
func Play(srv Hand, seats []*Seat, choose Choose, maxSteps int) (*View, error) {
	for range maxSteps {
		v := srv.View()
		if v.Phase == PhaseDone {
			return v, nil
		}
		var a *Action
		for _, s := range seats {
			if err := s.Sync(v); err != nil {
				return v, fmt.Errorf("seat %d: %w", s.idx, err)
			}
			var err error
			if a, err = s.Act(v, choose); err != nil {
				return v, fmt.Errorf("seat %d: %w", s.idx, err)
			}
			if a != nil {
				break
			}
		}
		if a == nil {
			return v, fmt.Errorf("trustdeal: no seat acts in phase %s", v.Phase)
		}
		a.At = v.Deadline - 1
		if err := srv.Do(*a); err != nil {
			return srv.View(), fmt.Errorf("seat %d's action: %w", a.Seat, err)
		}
	}
	return srv.View(), fmt.Errorf("trustdeal: the hand did not end in %d actions", maxSteps)
}
