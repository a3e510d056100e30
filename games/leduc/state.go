package leduc

import (
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// maxSeq is the longest betting sequence of a round with MaxSeats seats,
// OpenSpiel's 3n-2: n-1 checks, a raise, n-2 calls, a raise, then n-1
// calls or folds (with two seats: call, raise, raise, call or fold).
const maxSeq = 3*MaxSeats - 2

// State is one hand of Leduc hold'em. Its public part is the betting (a
// sequence per round), the chips each seat put in, the public card once
// dealt, and the cards of the seats still in once shown at a showdown;
// its private part, per seat, is that seat's card; its secret part is the
// deck's remainder (the cards in no hand and not public). A State holds
// no pointer: a copy is a deep copy.
type State struct {
	seats  int
	card   [MaxSeats]int // private, per seat
	public int           // NoCard until dealt
	round  int           // 1 or 2: the round being bet, or in which the hand ended
	seq    [2][maxSeq]byte
	n      [2]int         // the length of each round's sequence
	in     [MaxSeats]int  // chips each seat put in, its ante included
	out    [MaxSeats]bool // folded
	left   int            // seats not folded
	raises int            // this round
	calls  int            // this round, since its last raise
	toMove int            // game.Nobody once over
}

// Card returns seat's card, 0 to 2(n+1)-1 with n seats: rank card/2,
// suit card%2 (two seats: 0 J, 1 Q, 2 K).
func (s *State) Card(seat int) int { return s.card[seat] }

// PublicCard returns the public card, or NoCard before it is dealt.
func (s *State) PublicCard() int { return s.public }

// In returns the chips seat has put in, its ante included.
func (s *State) In(seat int) int { return s.in[seat] }

// Folded reports whether seat has folded.
func (s *State) Folded(seat int) bool { return s.out[seat] }

// Pot returns the chips in the pot.
func (s *State) Pot() int {
	p := 0
	for _, c := range s.in[:s.seats] {
		p += c
	}
	return p
}

// Sequence returns round r's betting (1 or 2): 'c' call (or check), 'r'
// raise, 'f' fold, in order.
func (s *State) Sequence(r int) string { return string(s.seq[r-1][:s.n[r-1]]) }

func (s *State) over() bool { return s.toMove == game.Nobody }

// showdown reports whether the hand is over with the cards of the seats
// still in shown (more than one left).
func (s *State) showdown() bool { return s.over() && s.left > 1 }

// stake is the most any seat has put in: what a call matches.
func (s *State) stake() int {
	m := 0
	for _, c := range s.in[:s.seats] {
		m = max(m, c)
	}
	return m
}

// facing reports whether seat owes chips to match the stake: only then
// may it fold.
func (s *State) facing(seat int) bool { return s.in[seat] < s.stake() }

// ready reports whether the round is over with calls calls since its
// last raise (all its calls if none) and left seats still in:
// OpenSpiel's ReadyForNextRound.
func (s *State) ready(calls, left int) bool {
	if s.raises == 0 {
		return calls == left
	}
	return calls == left-1
}

// ends reports whether the seat to move playing kind ends the round (a
// fold that leaves one seat ends the hand instead, and reports false).
func (s *State) ends(kind string) bool {
	switch kind {
	case KindCall:
		return s.ready(s.calls+1, s.left)
	case KindFold:
		return s.left > 2 && s.ready(s.calls, s.left-1)
	}
	return false
}

// next returns the first seat still in after seat, cyclically.
func (s *State) next(seat int) int {
	for i := 1; i <= s.seats; i++ {
		if p := (seat + i) % s.seats; !s.out[p] {
			return p
		}
	}
	return game.Nobody
}

// NumSeats returns the number of seats, 2 to MaxSeats.
func (s *State) NumSeats() int { return s.seats }

// ToMove returns the seat to act, or game.Nobody once the hand is over.
func (s *State) ToMove() int { return s.toMove }

// Legal lists, for the seat to act, fold (only when facing a raise), call,
// and raise (while the round has had fewer than two); nothing for another
// seat or once the hand is over.
func (s *State) Legal(seat int, buf []game.Move) []game.Move {
	buf = buf[:0]
	if seat != s.toMove || s.over() {
		return buf
	}
	if s.facing(seat) {
		buf = append(buf, game.Move{Seat: seat, Kind: KindFold})
	}
	buf = append(buf, game.Move{Seat: seat, Kind: KindCall})
	if s.raises < MaxRaises {
		buf = append(buf, game.Move{Seat: seat, Kind: KindRaise})
	}
	return buf
}

// check refuses a move Legal does not list, with its code.
func (s *State) check(m game.Move) error {
	switch {
	case s.over():
		return game.Reject(game.CodeGameOver, "the hand is over")
	case m.Seat < 0 || m.Seat >= s.seats:
		return game.Reject(game.CodeUnknownPlayer, "no seat "+strconv.Itoa(m.Seat))
	case m.Seat != s.toMove:
		return game.Reject(game.CodeNotYourTurn, "it is seat "+strconv.Itoa(s.toMove)+"'s turn")
	case m.Kind != KindFold && m.Kind != KindCall && m.Kind != KindRaise:
		return game.Reject(game.CodeInvalidAction, "unknown move kind "+strconv.Quote(m.Kind))
	case m.Args != [game.MaxArgs]int64{}:
		return game.Reject(game.CodeInvalidAction, m.Kind+" takes no arguments")
	case m.Kind == KindFold && !s.facing(m.Seat):
		return game.Reject(game.CodeInvalidAction, "nothing to fold against: call checks")
	case m.Kind == KindRaise && s.raises >= MaxRaises:
		return game.Reject(game.CodeInvalidAction, "at most two raises a round")
	}
	return nil
}

// Apply plays fold, call or raise. A call or a fold that ends the first
// round draws the public card, UniformInt(0, n+1) over the n+2 cards
// left in ascending order (TagPublic; with two seats only a call, one of
// four), through game.Draw (position n of the deck, face up), before
// anything changes; no other move draws. A move that ends the second
// round with two or more seats still in opens their cards through
// game.Open (a trustless deal's move waits for their keys). Refusals,
// with nothing changed and nothing drawn: game_over once the hand is
// over, unknown_player for a seat out of range, not_your_turn for another
// seat, invalid_action for an unknown kind, arguments (no kind takes
// any), a fold without a raise to face, or a third raise in a round.
func (s *State) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	if err := s.check(m); err != nil {
		return ev, err
	}
	seat := m.Seat
	ends := s.ends(m.Kind)
	pub := NoCard
	if ends && s.round == 1 {
		var buf [MaxCards]int
		c, err := game.Draw(rnd, Name, s.cards(), s.seats, s.free(buf[:0]), game.All, TagPublic, &rng.Ctx{DeckID: Name, Phase: "public"})
		if err != nil {
			return ev, game.Reject(game.CodeInvalidAction, "the public card's draw failed: "+err.Error())
		}
		pub = c
	}
	if ends && s.round == 2 {
		// A showdown shows the cards of the seats still in to every
		// seat: opened before any change (a trustless deal's keys may
		// not be there yet).
		var in, known [MaxSeats]int
		ps := in[:0]
		for p := range s.seats {
			if !s.out[p] && !(m.Kind == KindFold && p == seat) {
				ps = append(ps, p)
			}
		}
		if len(ps) >= 2 {
			for i, p := range ps {
				known[i] = s.card[p]
			}
			for i, c := range game.Open(rnd, Name, ps, known[:len(ps)]) {
				s.card[ps[i]] = c
			}
		}
	}
	r := s.round - 1
	switch m.Kind {
	case KindFold:
		s.seq[r][s.n[r]] = 'f'
		s.n[r]++
		s.out[seat] = true
		s.left--
		ev = append(ev, game.Event{To: game.All, Type: EventFolded, Vals: [game.MaxVals]int64{int64(seat)}})
		if s.left == 1 {
			s.toMove = game.Nobody
			return append(ev, game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{int64(s.next(seat)), int64(s.Pot())}}), nil
		}
	case KindRaise:
		s.seq[r][s.n[r]] = 'r'
		s.n[r]++
		s.in[seat] = s.stake() + s.raiseAmount()
		s.raises++
		s.calls = 0
		s.toMove = s.next(seat)
		return append(ev, game.Event{To: game.All, Type: EventRaised, Vals: [game.MaxVals]int64{int64(seat), int64(s.Pot())}}), nil
	default:
		s.seq[r][s.n[r]] = 'c'
		s.n[r]++
		if st := s.stake(); s.in[seat] == st {
			ev = append(ev, game.Event{To: game.All, Type: EventChecked, Vals: [game.MaxVals]int64{int64(seat)}})
		} else {
			s.in[seat] = st
			ev = append(ev, game.Event{To: game.All, Type: EventCalled, Vals: [game.MaxVals]int64{int64(seat), int64(s.Pot())}})
		}
		s.calls++
	}
	switch {
	case !ends:
		s.toMove = s.next(seat)
	case s.round == 1:
		s.round, s.raises, s.calls, s.public = 2, 0, 0, pub
		s.toMove = s.next(s.seats - 1) // seat 0, or the first seat after it still in
		ev = append(ev, game.Event{To: game.All, Type: EventPublicCard, Vals: [game.MaxVals]int64{int64(pub)}})
	default:
		s.toMove = game.Nobody
		ev = s.showdownEvents(ev)
	}
	return ev, nil
}

// raiseAmount is the round's raise: 2 in the first, 4 in the second.
func (s *State) raiseAmount() int {
	if s.round == 1 {
		return RaiseRound
	}
	return RaiseLater
}

// AbortPayoffs returns 0 for every seat: a hand stopped early is void.
func (s *State) AbortPayoffs() []float64 { return make([]float64, s.seats) }

// Clone returns a deep copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// ChanceOutcomes lists the public card's n+2 outcomes (n seats), each
// 1/(n+2), for the call or fold that ends the first round; none (and
// true) for every other move.
func (s *State) ChanceOutcomes(m game.Move) ([]game.Chance, bool) {
	if s.check(m) != nil || s.round != 1 || !s.ends(m.Kind) {
		return nil, true
	}
	out := make([]game.Chance, s.cards()-s.seats)
	for i := range out {
		out[i] = game.Chance{Draws: []int64{int64(i)}, P: 1 / float64(len(out))}
	}
	return out, true
}

// InPot returns the chips each seat has put in, its ante included.
func (s *State) InPot() []float64 {
	out := make([]float64, s.seats)
	for p := range out {
		out[p] = float64(s.in[p])
	}
	return out
}
