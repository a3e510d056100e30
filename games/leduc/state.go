package leduc

import (
	"strconv"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/rng"
)

// maxSeq is the longest betting sequence of a round: call, raise, raise,
// then call or fold.
const maxSeq = 4

// State is one hand of Leduc hold'em. Its public part is the betting (a
// sequence per round), the chips each seat put in, the public card once
// dealt, and both private cards once shown at a showdown; its private
// part, per seat, is that seat's card; its secret part is the deck's
// remainder (the cards in no hand and not public). A State holds no
// pointer: a copy is a deep copy.
type State struct {
	card   [2]int // private, per seat
	public int    // NoCard until dealt
	round  int    // 1 or 2: the round being bet, or in which the hand ended
	seq    [2][maxSeq]byte
	n      [2]int // the length of each round's sequence
	in     [2]int // chips each seat put in, its ante included
	raises int    // this round
	calls  int    // this round, since its last raise
	folded int    // the seat that folded, or -1
	toMove int    // game.Nobody once over
}

// Card returns seat's card, 0..5: rank card/2 (0 J, 1 Q, 2 K), suit card%2.
func (s *State) Card(seat int) int { return s.card[seat] }

// PublicCard returns the public card, or NoCard before it is dealt.
func (s *State) PublicCard() int { return s.public }

// In returns the chips seat has put in, its ante included.
func (s *State) In(seat int) int { return s.in[seat] }

// Pot returns the chips in the pot.
func (s *State) Pot() int { return s.in[0] + s.in[1] }

// Sequence returns round r's betting (1 or 2): 'c' call (or check), 'r'
// raise, 'f' fold, in order.
func (s *State) Sequence(r int) string { return string(s.seq[r-1][:s.n[r-1]]) }

func (s *State) over() bool { return s.toMove == game.Nobody }

// showdown reports whether the hand is over with both cards shown (no
// fold).
func (s *State) showdown() bool { return s.over() && s.folded < 0 }

// facing reports whether seat owes chips to match the other seat: only
// then may it fold.
func (s *State) facing(seat int) bool { return s.in[seat] < s.in[1-seat] }

// endsRound reports whether seat's call now ends the round: a call after
// a raise, or the second call of a round without one.
func (s *State) endsRound() bool { return s.raises > 0 || s.calls == 1 }

// NumSeats returns 2.
func (s *State) NumSeats() int { return 2 }

// ToMove returns the seat to act, or game.Nobody once the hand is over.
func (s *State) ToMove() int { return s.toMove }

// Legal lists, for the seat to act, fold (only when facing a raise), call,
// and raise (while the round has had fewer than two); nothing for the
// other seat or once the hand is over.
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
	case m.Seat < 0 || m.Seat > 1:
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

// Apply plays fold, call or raise. A call that ends the first round draws
// the public card, UniformInt(0, 3) over the four cards left in ascending
// order (TagPublic), through game.Draw (position 2 of the deck, face up),
// before anything changes; no other move draws. A call that ends the
// second round opens both private cards through game.Open (a trustless
// deal's move waits for their keys).
// Refusals, with nothing changed and nothing drawn: game_over once the
// hand is over, unknown_player for a seat out of range, not_your_turn for
// the other seat, invalid_action for an unknown kind, arguments (no kind
// takes any), a fold without a raise to face, or a third raise in a round.
func (s *State) Apply(m game.Move, rnd game.Rand, ev []game.Event) ([]game.Event, error) {
	if err := s.check(m); err != nil {
		return ev, err
	}
	seat, other := m.Seat, 1-m.Seat
	pub := NoCard
	if m.Kind == KindCall && s.round == 1 && s.endsRound() {
		var buf [Cards]int
		c, err := game.Draw(rnd, Name, Cards, 2, s.free(buf[:0]), game.All, TagPublic, &rng.Ctx{DeckID: Name, Phase: "public"})
		if err != nil {
			return ev, game.Reject(game.CodeInvalidAction, "the public card's draw failed: "+err.Error())
		}
		pub = c
	}
	cards := s.card
	if m.Kind == KindCall && s.round == 2 && s.endsRound() {
		// A showdown shows both cards to every seat: opened before any
		// change (a trustless deal's keys may not be there yet).
		c := game.Open(rnd, Name, []int{0, 1}, s.card[:])
		cards = [2]int{c[0], c[1]}
	}
	s.card = cards
	r := s.round - 1
	switch m.Kind {
	case KindFold:
		s.seq[r][s.n[r]] = 'f'
		s.n[r]++
		s.folded, s.toMove = seat, game.Nobody
		return append(ev,
			game.Event{To: game.All, Type: EventFolded, Vals: [game.MaxVals]int64{int64(seat)}},
			game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{int64(other), int64(s.Pot())}}), nil
	case KindRaise:
		s.seq[r][s.n[r]] = 'r'
		s.n[r]++
		s.in[seat] = s.in[other] + s.raiseAmount()
		s.raises++
		s.calls = 0
		s.toMove = other
		return append(ev, game.Event{To: game.All, Type: EventRaised, Vals: [game.MaxVals]int64{int64(seat), int64(s.Pot())}}), nil
	}
	ends := s.endsRound()
	s.seq[r][s.n[r]] = 'c'
	s.n[r]++
	if s.in[seat] == s.in[other] {
		ev = append(ev, game.Event{To: game.All, Type: EventChecked, Vals: [game.MaxVals]int64{int64(seat)}})
	} else {
		s.in[seat] = s.in[other]
		ev = append(ev, game.Event{To: game.All, Type: EventCalled, Vals: [game.MaxVals]int64{int64(seat), int64(s.Pot())}})
	}
	s.calls++
	switch {
	case !ends:
		s.toMove = other
	case s.round == 1:
		s.round, s.raises, s.calls, s.public, s.toMove = 2, 0, 0, pub, 0
		ev = append(ev, game.Event{To: game.All, Type: EventPublicCard, Vals: [game.MaxVals]int64{int64(pub)}})
	default:
		s.toMove = game.Nobody
		ev = append(ev, game.Event{To: game.All, Type: EventShowdown, Vals: [game.MaxVals]int64{int64(s.card[0]), int64(s.card[1])}})
		if w := s.showdownWinner(); w >= 0 {
			ev = append(ev, game.Event{To: game.All, Type: EventWon, Vals: [game.MaxVals]int64{int64(w), int64(s.Pot())}})
		} else {
			ev = append(ev, game.Event{To: game.All, Type: EventSplit, Vals: [game.MaxVals]int64{int64(s.Pot())}})
		}
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

// strength is a private card's strength with the public card: a pair
// above every single card, then the rank. (OpenSpiel ranks the two-card
// hand, pair first, then the higher and the lower rank; with the public
// card common to both hands, that order is this one.)
func (s *State) strength(seat int) int {
	if s.card[seat]/2 == s.public/2 {
		return 3 + s.card[seat]/2
	}
	return s.card[seat] / 2
}

// showdownWinner returns the seat with the stronger hand, or -1 for equal
// ranks.
func (s *State) showdownWinner() int {
	a, b := s.strength(0), s.strength(1)
	switch {
	case a > b:
		return 0
	case b > a:
		return 1
	}
	return -1
}

// Outcome: over after a fold or the second round's last call. A fold
// loses what the folder put in, to the other seat; at a showdown the
// stronger hand wins what the other put in (equal to its own), and equal
// ranks split: each gets its chips back, payoffs 0 and no winner.
func (s *State) Outcome() game.Outcome {
	o := game.Outcome{Over: s.over(), Payoffs: make([]float64, 2)}
	if !o.Over {
		return o
	}
	w := 1 - s.folded
	if s.folded < 0 {
		w = s.showdownWinner()
	}
	if w >= 0 {
		won := float64(s.in[1-w])
		o.Winners = []int{w}
		o.Payoffs[w], o.Payoffs[1-w] = won, -won
	}
	return o
}

// AbortPayoffs returns 0 for both seats: a hand stopped early is void.
func (s *State) AbortPayoffs() []float64 { return []float64{0, 0} }

// Clone returns a deep copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// Sample returns a state with seat's view whose other private card is
// dealt again, UniformInt over the cards seat does not see (TagSample),
// the deck's remainder being the rest; after a showdown, where seat sees
// every card, a copy, drawing nothing.
func (s *State) Sample(seat int, rnd game.Rand) game.State {
	c := *s
	if s.showdown() {
		return &c
	}
	c.card[1-seat] = NoCard
	card, err := c.drawFree(rnd, TagSample, "sample")
	if err != nil {
		card = s.card[1-seat]
	}
	c.card[1-seat] = card
	return &c
}

// ChanceOutcomes lists the public card's four outcomes, each 1/4, for the
// call that ends the first round; none (and true) for every other move.
func (s *State) ChanceOutcomes(m game.Move) ([]game.Chance, bool) {
	if s.check(m) != nil || m.Kind != KindCall || s.round != 1 || !s.endsRound() {
		return nil, true
	}
	out := make([]game.Chance, Cards-2)
	for i := range out {
		out[i] = game.Chance{Draws: []int64{int64(i)}, P: 1 / float64(len(out))}
	}
	return out, true
}

// InPot returns the chips each seat has put in, its ante included.
func (s *State) InPot() []float64 { return []float64{float64(s.in[0]), float64(s.in[1])} }
