// Package trustdeal is a trustless hand of a game with a private deck
// (Kuhn poker), dealt by the seats' clients with mental poker
// (rng/mentalpoker) so that the server only ever holds masked points
// (docs/fairness.md, "Dealing without a dealer who sees"). Server is the
// table's side, in memory and without I/O; Seat is a player's client;
// Play drives both. The game's code is the same as in every other mode:
// it deals through game.Deal and shows cards through game.Open, which a
// match.MentalDealer backs here.
package trustdeal

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng/mentalpoker"
)

// Phase is where a hand is.
type Phase string

// The phases, in order.
const (
	PhasePass   Phase = "pass"   // the seats' passes, in turn
	PhaseDeal   Phase = "deal"   // the others' keys of each seat's cards
	PhasePlay   Phase = "play"   // the game's moves
	PhaseOpen   Phase = "open"   // a move waits for every seat's key of the cards it shows (staged)
	PhaseReveal Phase = "reveal" // the end of the hand: every seat's keys (staged)
	PhaseDone   Phase = "done"
)

// Config is a hand's setup.
type Config struct {
	Def    game.Definition
	Rules  game.Ruleset // nil: the default
	GameID string       // 1..128 bytes
	Hand   uint64
	// Keys are the seats' Ed25519 public keys, in seat order.
	Keys []ed25519.PublicKey
	// DeadlineMs bounds each wait (a pass, a phase's keys), ≥ 1; Now is
	// the start, in unix ms.
	DeadlineMs int64
	Now        int64
}

// Action is what a seat sends: exactly one of a pass, keys, a move or its
// reveal; or the pass that completes the deal with the sender's keys of
// the others' cards; or, at the deal, the first move with the last keys
// the deal waits for, all its sender's. Seat is the sender, as the transport authenticated it; At the
// server's clock (unix ms).
type Action struct {
	Seat   int
	At     int64
	Pass   *mentalpoker.PassMessage
	Keys   []*mentalpoker.KeyMessage
	Move   *game.Move
	Reveal *mentalpoker.RevealMessage
	// Abort asks Server.Abort at At (in a saved log: an abort applied).
	Abort bool `json:",omitempty"`
	// Abandon is the table's owner ending the hand (Server.Abandon).
	Abandon bool `json:",omitempty"`
}

// Errors of Do, besides the protocol's own (*mentalpoker.CheatError).
var (
	ErrPhase  = errors.New("trustdeal: not now")
	ErrNotDue = errors.New("trustdeal: not asked for")
	ErrMove   = errors.New("trustdeal: move refused")
)

// Server is the table's side of one hand. It never holds a seat's key of
// a card before the game opens it: the keys of a card opened to all are
// staged apart (a twin table checks them) and published together. Not
// safe for concurrent use.
type Server struct {
	cfg      Config
	tb, twin *mentalpoker.Table
	d        *match.MentalDealer
	m        *match.Match
	phase    Phase
	deadline int64
	pending  *game.Move
	want     []int
	staged   map[int][]*mentalpoker.KeyMessage
	reveals  []*mentalpoker.RevealMessage
	rec      match.RecordDeal
	log      []Action     // every action that changed the hand
	events   []game.Event // the game's events since the last Events
}

// NewServer deals a hand: it sets the game up over a mental-poker dealer
// (the game must deal one private deck at setup, of at most
// mentalpoker.MaxCards cards) and awaits the first pass. Errors: a
// config the protocol refuses, a deadline < 1, a game that deals
// nothing.
func NewServer(cfg Config) (*Server, error) {
	if cfg.DeadlineMs < 1 {
		return nil, fmt.Errorf("trustdeal: deadline %d ms, want ≥ 1", cfg.DeadlineMs)
	}
	n, err := deckSize(cfg)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, phase: PhasePass, deadline: cfg.Now + cfg.DeadlineMs, staged: map[int][]*mentalpoker.KeyMessage{},
		reveals: make([]*mentalpoker.RevealMessage, len(cfg.Keys))}
	if s.tb, err = mentalpoker.NewTable(cfg.GameID, cfg.Hand, n, cfg.Keys); err != nil {
		return nil, err
	}
	s.twin, _ = mentalpoker.NewTable(cfg.GameID, cfg.Hand, n, cfg.Keys)
	s.d = match.NewMentalDealer(s.tb)
	if s.m, err = match.NewDealMatch(cfg.Def, cfg.Rules, len(cfg.Keys), s.d); err != nil {
		return nil, err
	}
	s.rec = match.RecordDeal{GameID: cfg.GameID, Hand: cfg.Hand, Cards: n, Passes: []*mentalpoker.PassMessage{},
		Keys: []*mentalpoker.KeyMessage{}, Opened: []match.OpenedCard{}, Moves: []game.Move{}}
	for _, k := range cfg.Keys {
		s.rec.PublicKeys = append(s.rec.PublicKeys, fmt.Sprintf("%x", []byte(k)))
	}
	return s, nil
}

// deckSize asks the game's setup, over a dealer that records the deck,
// how many cards it deals.
func deckSize(cfg Config) (int, error) {
	probe := &sizeProbe{}
	_, err := match.New(cfg.Def, match.Config{Mode: "trustless", Seats: make([]game.Seat, len(cfg.Keys)), Rules: cfg.Rules, Dealer: probe})
	if probe.n == 0 {
		return 0, fmt.Errorf("trustdeal: %s deals no private deck at setup (%v)", cfg.Def.Name(), err)
	}
	return probe.n, nil
}

// Phase returns the hand's phase; Deadline the current wait's end.
func (s *Server) Phase() Phase    { return s.phase }
func (s *Server) Deadline() int64 { return s.deadline }

// Do applies a seat's action. Errors: ErrPhase for an action the phase
// does not take (a pass out of turn, a move of a seat not to move),
// ErrNotDue for a key not asked for (a seat's own card before the end
// included), ErrMove for the game's refusal, and the protocol's
// *mentalpoker.CheatError naming the seat. A signed pass the protocol
// refuses (a drop, a duplicate, a bad proof) ends the hand with the
// sender forfeiting as a cheat; every other refusal changes nothing.
func (s *Server) Do(a Action) error {
	before := s.fingerprint()
	err := s.do(a)
	if s.fingerprint() != before {
		s.log = append(s.log, a)
	}
	return err
}

// progress is what an action can change, to tell the actions to log.
type progress struct {
	passes, keys, moves, staged, reveals int
	phase                                Phase
	pending                              bool
}

func (s *Server) fingerprint() progress {
	return progress{len(s.rec.Passes), len(s.rec.Keys), len(s.rec.Moves), len(s.staged), countNonNil(s.reveals), s.phase, s.pending != nil}
}

func countNonNil(rs []*mentalpoker.RevealMessage) int {
	n := 0
	for _, r := range rs {
		if r != nil {
			n++
		}
	}
	return n
}

func (s *Server) do(a Action) error {
	if a.Abort {
		_, err := s.Abort(a.At)
		return err
	}
	if a.Abandon {
		return s.abandon()
	}
	switch {
	case a.Seat < 0 || a.Seat >= len(s.cfg.Keys):
		return fmt.Errorf("%w: no seat %d", ErrPhase, a.Seat)
	case a.Pass != nil && (a.Move != nil || a.Reveal != nil):
		return fmt.Errorf("%w: a pass carries no move nor reveal", ErrPhase)
	case a.Pass != nil && s.phase != PhasePass:
		return fmt.Errorf("%w: a pass in phase %s", ErrPhase, s.phase)
	case a.Move != nil && len(a.Keys) > 0 && s.phase == PhaseDeal:
		return s.moveWithKeys(a)
	case a.Move != nil && len(a.Keys) > 0:
		return fmt.Errorf("%w: keys ride with a move only at the deal (the hand is in phase %s)", ErrPhase, s.phase)
	case a.Pass != nil && s.phase == PhasePass:
		return s.pass(a)
	case len(a.Keys) > 0 && s.phase == PhaseDeal:
		return s.dealKeys(a)
	case len(a.Keys) > 0 && s.phase == PhaseOpen:
		return s.openKeys(a)
	case a.Move != nil && s.phase == PhasePlay:
		return s.move(a)
	case a.Reveal != nil && s.phase == PhaseReveal:
		return s.reveal(a)
	}
	return fmt.Errorf("%w: the hand is in phase %s", ErrPhase, s.phase)
}

func (s *Server) pass(a Action) error {
	if _, seat := s.tb.Next(); seat != a.Seat {
		return fmt.Errorf("%w: the deal awaits seat %d's pass", ErrPhase, seat)
	}
	if len(a.Keys) > 0 {
		if err := s.keysWithPass(a); err != nil {
			return err
		}
	}
	if err := s.tb.Accept(a.Pass); err != nil {
		if match.ProvesCheat(err) {
			s.rec.Refused = a.Pass
			s.forfeit(match.ForfeitCheat, []int{a.Seat})
		}
		return err
	}
	if len(a.Keys) == 0 { // keysWithPass has taken it on the twin
		_ = s.twin.Accept(a.Pass)
	}
	s.rec.Passes = append(s.rec.Passes, a.Pass)
	s.deadline = a.At + s.cfg.DeadlineMs
	if s.tb.Dealt() {
		s.phase = PhaseDeal
		for _, k := range a.Keys {
			if err := s.tb.AcceptKey(k); err != nil {
				panic("trustdeal: a key the twin table took was refused: " + err.Error())
			}
			s.rec.Keys = append(s.rec.Keys, k)
		}
		s.afterDealKeys()
	}
	return nil
}

// dealKeys publishes a seat's keys of the others' cards at once: each
// must be due (another seat's card, not yet published).
func (s *Server) dealKeys(a Action) error {
	due := s.d.PrivateKeysDue()
	for _, k := range a.Keys {
		if k == nil || int(k.Seat) != a.Seat || !slices.Contains(due, [2]int{int(k.Position), a.Seat}) {
			return fmt.Errorf("%w: a key of seat %d that the deal does not wait for", ErrNotDue, a.Seat)
		}
	}
	for _, k := range a.Keys {
		if err := s.twin.AcceptKey(k); err != nil {
			return err
		}
	}
	for _, k := range a.Keys {
		if err := s.tb.AcceptKey(k); err != nil {
			panic("trustdeal: a key the twin table took was refused: " + err.Error())
		}
		s.rec.Keys = append(s.rec.Keys, k)
	}
	s.afterDealKeys()
	return nil
}

func (s *Server) afterDealKeys() {
	if len(s.d.PrivateKeysDue()) == 0 {
		s.phase = PhasePlay
	}
}

func (s *Server) move(a Action) error {
	mv := *a.Move
	if mv.Seat != a.Seat {
		return fmt.Errorf("%w: seat %d sends a move of seat %d", ErrPhase, a.Seat, mv.Seat)
	}
	draws, err := s.m.WouldDraw(mv)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMove, err)
	}
	if draws {
		want := s.d.Wanted()
		if want == nil {
			return fmt.Errorf("%w: this move draws randomness, which a dealing table has not", ErrMove)
		}
		s.pending, s.want, s.phase, s.deadline = &mv, want, PhaseOpen, a.At+s.cfg.DeadlineMs
		return nil
	}
	return s.apply(mv, a.At)
}

// openKeys stages a seat's keys of the cards the pending move opens (all
// of them at once, checked on the twin table); the last seat's publishes
// every staged key together and applies the move.
func (s *Server) openKeys(a Action) error {
	if s.staged[a.Seat] != nil {
		return fmt.Errorf("%w: seat %d has staged its keys", ErrNotDue, a.Seat)
	}
	if len(a.Keys) != len(s.want) {
		return fmt.Errorf("%w: %d keys for positions %v", ErrNotDue, len(a.Keys), s.want)
	}
	for i, k := range a.Keys {
		if k == nil || int(k.Seat) != a.Seat || int(k.Position) != s.want[i] {
			return fmt.Errorf("%w: seat %d's keys must be for positions %v in order", ErrNotDue, a.Seat, s.want)
		}
	}
	for _, k := range a.Keys {
		if err := s.twin.AcceptKey(k); err != nil {
			return err
		}
	}
	s.staged[a.Seat] = a.Keys
	if len(s.staged) < len(s.cfg.Keys) {
		return nil
	}
	for seat := range s.cfg.Keys {
		for _, k := range s.staged[seat] {
			if err := s.tb.AcceptKey(k); err != nil {
				panic("trustdeal: a staged key the twin table took was refused: " + err.Error())
			}
			s.rec.Keys = append(s.rec.Keys, k)
		}
	}
	mv, want := *s.pending, s.want
	s.pending, s.want, s.staged = nil, nil, map[int][]*mentalpoker.KeyMessage{}
	for _, p := range want {
		c, err := s.tb.OpenPublic(p)
		if err != nil { // a substituted card: the recomputation names who
			s.phase, s.deadline = PhaseReveal, a.At+s.cfg.DeadlineMs
			return nil
		}
		s.rec.Opened = append(s.rec.Opened, match.OpenedCard{Position: p, Card: c})
	}
	s.phase = PhasePlay
	return s.apply(mv, a.At)
}

func (s *Server) apply(mv game.Move, at int64) error {
	ev, err := s.m.ApplyKeyed(mv, nil)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMove, err)
	}
	s.events = append(s.events, ev...)
	s.rec.Moves = append(s.rec.Moves, mv)
	switch {
	case s.m.Over():
		s.phase, s.deadline = PhaseReveal, at+s.cfg.DeadlineMs
	case len(s.d.PrivateKeysDue()) > 0:
		// The move drew a card to a seat: the game goes on once every
		// other seat has published its key of it (the owner opens it on
		// its device), as after the deal.
		s.phase, s.deadline = PhaseDeal, at+s.cfg.DeadlineMs
	}
	return nil
}

// reveal stages a seat's end-of-hand keys; the last seat's publishes them
// and settles the hand after the recomputation: by the rules, or against
// the seat it names.
func (s *Server) reveal(a Action) error {
	if int(a.Reveal.Seat) != a.Seat || s.reveals[a.Seat] != nil {
		return fmt.Errorf("%w: seat %d's reveal", ErrNotDue, a.Seat)
	}
	s.reveals[a.Seat] = a.Reveal
	for _, r := range s.reveals {
		if r == nil {
			return nil
		}
	}
	s.rec.Reveals = slices.Clone(s.reveals)
	if _, err := s.tb.Audit(s.reveals); err != nil {
		if seat, ok := mentalpoker.Culprit(err); ok {
			s.forfeit(match.ForfeitCheat, []int{seat})
			return nil
		}
		return err
	}
	s.settle(nil)
	return nil
}
