package leduc

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/game"
)

// rankNames are the ranks' names, lowest first; a deck of n seats takes
// the n+1 highest (two seats: J, Q, K; three: T, J, Q, K; ten: 3 to K).
const rankNames = "3456789TJQK"

// NameCard returns card's name with seats seats ("Qh": the rank, then
// suit s or h), or "-" for NoCard, a card out of 0..2(seats+1)-1 or seats
// out of 2..MaxSeats.
func NameCard(seats, card int) string {
	if seats < 2 || seats > MaxSeats || card < 0 || card >= 2*(seats+1) {
		return "-"
	}
	r := len(rankNames) - (seats + 1) + card/2
	return rankNames[r:r+1] + "sh"[card%2:card%2+1]
}

// CardName returns card's name with two seats ("Qh"), or "-" for NoCard
// or a number out of 0..5.
func CardName(card int) string { return NameCard(2, card) }

// newState is a hand of seats seats before the deal and any bet.
func newState(seats int) *State {
	s := &State{seats: seats, public: NoCard, round: 1, left: seats}
	for p := range MaxSeats {
		s.card[p] = NoCard
	}
	for p := range seats {
		s.in[p] = Ante
	}
	return s
}

// At returns the state of a two-seat hand with the given private cards
// (0..5, distinct) and public card (NoCard, or 0..5 distinct from both)
// after the betting of round 1 and round 2 (strings of 'c' call, 'r'
// raise, 'f' fold), for tests and analysis: AtCards with two cards.
func At(card0, card1, public int, round1, round2 string) (*State, error) {
	return AtCards([]int{card0, card1}, public, round1, round2)
}

// AtCards returns the state of a hand with one private card per seat (2
// to MaxSeats seats, cards 0..2(n+1)-1, distinct; or every one
// game.Hidden, a trustless deal's before a showdown) and the public card
// (NoCard, or a card distinct from them) after the betting of round 1
// and round 2, for tests and analysis. The public card must be given
// exactly when round 1's betting ends it; an error names what is wrong.
func AtCards(cards []int, public int, round1, round2 string) (*State, error) {
	n := len(cards)
	if n < 2 || n > MaxSeats {
		return nil, fmt.Errorf("%d cards: want one per seat, 2 to %d", n, MaxSeats)
	}
	s := newState(n)
	// A trustless deal keeps every private card game.Hidden until a
	// showdown shows them.
	hidden := true
	for _, c := range cards {
		hidden = hidden && c == game.Hidden
	}
	var seen [MaxCards]bool
	for p, c := range cards {
		if hidden {
			s.card[p] = c
			continue
		}
		if c < 0 || c >= s.cards() {
			return nil, fmt.Errorf("card %d: want 0 to %d", c, s.cards()-1)
		}
		if seen[c] {
			return nil, fmt.Errorf("cards %v: want distinct cards 0 to %d", cards, s.cards()-1)
		}
		seen[c] = true
		s.card[p] = c
	}
	if public != NoCard && (public < 0 || public >= s.cards() || seen[public]) {
		return nil, fmt.Errorf("cards %v and public %d: want distinct cards 0 to %d", cards, public, s.cards()-1)
	}
	if err := s.bet(round1, public); err != nil {
		return nil, fmt.Errorf("round 1 %q: %w", round1, err)
	}
	if s.public != public {
		return nil, fmt.Errorf("round 1 %q does not deal the public card, given as %d", round1, public)
	}
	if s.Sequence(1) != round1 {
		return nil, fmt.Errorf("round 1 %q ends after %q", round1, s.Sequence(1))
	}
	if round2 != "" && s.round != 2 {
		return nil, fmt.Errorf("round 2 %q after a hand over in round 1", round2)
	}
	if err := s.bet(round2, NoCard); err != nil {
		return nil, fmt.Errorf("round 2 %q: %w", round2, err)
	}
	return s, nil
}

// bet applies the moves of seq to s, in turn, dealing public when a call
// ends round 1 (refused as NoCard).
func (s *State) bet(seq string, public int) error {
	for i := range len(seq) {
		var kind string
		switch seq[i] {
		case 'c':
			kind = KindCall
		case 'r':
			kind = KindRaise
		case 'f':
			kind = KindFold
		default:
			return fmt.Errorf("move %d: %q is not c, r or f", i+1, seq[i])
		}
		var script []int64
		if outs, _ := s.ChanceOutcomes(game.Move{Seat: s.toMove, Kind: kind}); len(outs) > 0 {
			var buf [MaxCards]int
			j := indexOf(s.free(buf[:0]), public)
			if j < 0 {
				return fmt.Errorf("move %d ends the round: the public card %d must be one of the cards left", i+1, public)
			}
			script = append(script, int64(j))
		}
		if _, err := s.Apply(game.Move{Seat: s.toMove, Kind: kind}, game.Script(script...), nil); err != nil {
			return fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return nil
}

func indexOf(a []int, v int) int {
	for i, x := range a {
		if x == v {
			return i
		}
	}
	return -1
}

// Check names every broken invariant: 2 to MaxSeats seats; distinct
// cards in range; a betting that the rules allow, and every count, chip,
// turn and fold as the betting makes them (the state is compared with the
// same hand replayed from its cards and its sequences by AtCards).
func (s *State) Check() error {
	if s.seats < 2 || s.seats > MaxSeats {
		return fmt.Errorf("%d seats: want 2 to %d", s.seats, MaxSeats)
	}
	if s.round < 1 || s.round > 2 || s.n[0] < 0 || s.n[0] > maxSeq || s.n[1] < 0 || s.n[1] > maxSeq {
		return fmt.Errorf("round %d, sequence lengths %v: out of range", s.round, s.n)
	}
	want, err := AtCards(s.card[:s.seats], s.public, s.Sequence(1), s.Sequence(2))
	if err != nil {
		return err
	}
	if *want != *s {
		return fmt.Errorf("state %+v is not its betting's %+v", *s, *want)
	}
	return nil
}

// cardName is a card's name (NameCard), "?" for game.Hidden.
func (s *State) cardName(c int) string {
	if c == game.Hidden {
		return "?"
	}
	return NameCard(s.seats, c)
}

// appendCard appends card's name quoted, or null for NoCard.
func (s *State) appendCard(b []byte, card int) []byte {
	if card == NoCard {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = append(b, NameCard(s.seats, card)...)
	return append(b, '"')
}

// AppendPublic appends
// {"round":R,"round1":"S1","round2":"S2","publicCard":C,"in":[I0,I1,...],"pot":P,"toMove":T},
// C a card's name or null, one chip count a seat; with more than two
// seats ,"folded":[F0,F1,...] (true or false a seat) after "in"; and
// after a showdown ,"shown":["C0","C1",...] before the closing brace, a
// card a seat, null for a seat that folded.
func (s *State) AppendPublic(b []byte) []byte {
	b = append(b, `{"round":`...)
	b = strconv.AppendInt(b, int64(s.round), 10)
	b = append(b, `,"round1":"`...)
	b = append(b, s.seq[0][:s.n[0]]...)
	b = append(b, `","round2":"`...)
	b = append(b, s.seq[1][:s.n[1]]...)
	b = append(b, `","publicCard":`...)
	b = s.appendCard(b, s.public)
	b = append(b, `,"in":[`...)
	for p := range s.seats {
		if p > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(s.in[p]), 10)
	}
	b = append(b, ']')
	if s.seats > 2 {
		b = append(b, `,"folded":[`...)
		for p := range s.seats {
			if p > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendBool(b, s.out[p])
		}
		b = append(b, ']')
	}
	b = append(b, `,"pot":`...)
	b = strconv.AppendInt(b, int64(s.Pot()), 10)
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(s.toMove), 10)
	if s.showdown() {
		b = append(b, `,"shown":[`...)
		for p := range s.seats {
			if p > 0 {
				b = append(b, ',')
			}
			if s.out[p] {
				b = append(b, "null"...)
			} else {
				b = s.appendCard(b, s.card[p])
			}
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// AppendPrivate appends {"card":"C"}, seat's card.
func (s *State) AppendPrivate(b []byte, seat int) []byte {
	b = append(b, `{"card":`...)
	b = s.appendCard(b, s.card[seat])
	return append(b, '}')
}

// AppendSecret appends {"deck":["C",...]}: the cards in no hand and not
// public, ascending (the public card is among them until dealt).
func (s *State) AppendSecret(b []byte) []byte {
	var buf [MaxCards]int
	b = append(b, `{"deck":[`...)
	for i, c := range s.free(buf[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = s.appendCard(b, c)
	}
	return append(b, "]}"...)
}

// AppendView appends {"public":PUBLIC,"private":PRIVATE}: the public part
// (with the cards shown at a showdown) and seat's own card.
func (s *State) AppendView(b []byte, seat int) []byte {
	b = append(b, `{"public":`...)
	b = s.AppendPublic(b)
	b = append(b, `,"private":`...)
	b = s.AppendPrivate(b, seat)
	return append(b, '}')
}

// AppendInfoKey appends seat's information-state key, what OpenSpiel's
// information state distinguishes: seat's card, round 1's betting, then
// once dealt the public card and round 2's betting, as "Qh:cr" in round 1
// and "Qh:crc/Ks:r" in round 2; after a showdown "|" and the other
// seats' cards in seat order, separated by ",", "-" for a seat that
// folded (two seats: "|" and the other seat's card).
func (s *State) AppendInfoKey(b []byte, seat int) []byte {
	b = append(b, s.cardName(s.card[seat])...)
	b = append(b, ':')
	b = append(b, s.seq[0][:s.n[0]]...)
	if s.public != NoCard {
		b = append(b, '/')
		b = append(b, NameCard(s.seats, s.public)...)
		b = append(b, ':')
		b = append(b, s.seq[1][:s.n[1]]...)
	}
	if s.showdown() {
		b = append(b, '|')
		first := true
		for p := range s.seats {
			if p == seat {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			if s.out[p] {
				b = append(b, '-')
			} else {
				b = append(b, s.cardName(s.card[p])...)
			}
		}
	}
	return b
}
