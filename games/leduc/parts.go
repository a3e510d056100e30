package leduc

import (
	"fmt"
	"strconv"

	"github.com/fairboard/fairboard/game"
)

// cardNames are the cards' names: rank J, Q or K, then suit s or h.
var cardNames = [Cards]string{"Js", "Jh", "Qs", "Qh", "Ks", "Kh"}

// CardName returns card's name ("Qh"), or "-" for NoCard or a number out
// of range.
func CardName(card int) string {
	if card < 0 || card >= Cards {
		return "-"
	}
	return cardNames[card]
}

// newState is the hand dealt card0 and card1, before any bet.
func newState(card0, card1 int) *State {
	return &State{card: [2]int{card0, card1}, public: NoCard, round: 1, in: [2]int{Ante, Ante}, folded: -1}
}

// At returns the state of a hand with the given private cards (0..5,
// distinct; or both game.Hidden, a trustless deal's before a showdown)
// and public card (NoCard, or 0..5 distinct from both) after
// the betting of round 1 and round 2 (strings of 'c' call, 'r' raise, 'f'
// fold), for tests and analysis. The public card must be given exactly
// when round 1's betting ends in a call; an error names what is wrong.
func At(card0, card1, public int, round1, round2 string) (*State, error) {
	// A trustless deal keeps both private cards game.Hidden (NoCard)
	// until a showdown shows them.
	hidden := card0 == game.Hidden && card1 == game.Hidden
	for _, c := range []int{card0, card1} {
		if !hidden && (c < 0 || c >= Cards) {
			return nil, fmt.Errorf("card %d: want 0 to %d", c, Cards-1)
		}
	}
	if !hidden && card0 == card1 || (public != NoCard && (public < 0 || public >= Cards || public == card0 || public == card1)) {
		return nil, fmt.Errorf("cards %d, %d and public %d: want distinct cards 0 to %d", card0, card1, public, Cards-1)
	}
	s := newState(card0, card1)
	if err := s.bet(round1, public); err != nil {
		return nil, fmt.Errorf("round 1 %q: %w", round1, err)
	}
	if s.public != public {
		return nil, fmt.Errorf("round 1 %q does not deal the public card, given as %d", round1, public)
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
			var buf [Cards]int
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

// Check names every broken invariant: distinct cards in range; a betting
// that the rules allow, and every count, chip, turn and the fold as the
// betting makes them (the state is compared with the same hand replayed
// from its cards and its sequences by At).
func (s *State) Check() error {
	if s.round < 1 || s.round > 2 || s.n[0] < 0 || s.n[0] > maxSeq || s.n[1] < 0 || s.n[1] > maxSeq {
		return fmt.Errorf("round %d, sequence lengths %v: out of range", s.round, s.n)
	}
	want, err := At(s.card[0], s.card[1], s.public, s.Sequence(1), s.Sequence(2))
	if err != nil {
		return err
	}
	if *want != *s {
		return fmt.Errorf("state %+v is not its betting's %+v", *s, *want)
	}
	return nil
}

// cardName is a card's name, "?" for game.Hidden.
func cardName(c int) string {
	if c == game.Hidden {
		return "?"
	}
	return cardNames[c]
}

// appendCard appends card's name quoted, or null for NoCard.
func appendCard(b []byte, card int) []byte {
	if card == NoCard {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = append(b, cardNames[card]...)
	return append(b, '"')
}

// AppendPublic appends
// {"round":R,"round1":"S1","round2":"S2","publicCard":C,"in":[I0,I1],"pot":P,"toMove":T},
// C a card's name or null, and after a showdown ,"shown":["C0","C1"]
// before the closing brace.
func (s *State) AppendPublic(b []byte) []byte {
	b = append(b, `{"round":`...)
	b = strconv.AppendInt(b, int64(s.round), 10)
	b = append(b, `,"round1":"`...)
	b = append(b, s.seq[0][:s.n[0]]...)
	b = append(b, `","round2":"`...)
	b = append(b, s.seq[1][:s.n[1]]...)
	b = append(b, `","publicCard":`...)
	b = appendCard(b, s.public)
	b = append(b, `,"in":[`...)
	b = strconv.AppendInt(b, int64(s.in[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(s.in[1]), 10)
	b = append(b, `],"pot":`...)
	b = strconv.AppendInt(b, int64(s.Pot()), 10)
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(s.toMove), 10)
	if s.showdown() {
		b = append(b, `,"shown":[`...)
		b = appendCard(b, s.card[0])
		b = append(b, ',')
		b = appendCard(b, s.card[1])
		b = append(b, ']')
	}
	return append(b, '}')
}

// AppendPrivate appends {"card":"C"}, seat's card.
func (s *State) AppendPrivate(b []byte, seat int) []byte {
	b = append(b, `{"card":`...)
	b = appendCard(b, s.card[seat])
	return append(b, '}')
}

// AppendSecret appends {"deck":["C",...]}: the cards in no hand and not
// public, ascending (the public card is among them until dealt).
func (s *State) AppendSecret(b []byte) []byte {
	var buf [Cards]int
	b = append(b, `{"deck":[`...)
	for i, c := range s.free(buf[:0]) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendCard(b, c)
	}
	return append(b, "]}"...)
}

// AppendView appends {"public":PUBLIC,"private":PRIVATE}: the public part
// (with the other's card once shown) and seat's own card.
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
// and "Qh:crc/Ks:r" in round 2; after a showdown "|" and the other seat's
// card.
func (s *State) AppendInfoKey(b []byte, seat int) []byte {
	b = append(b, cardName(s.card[seat])...)
	b = append(b, ':')
	b = append(b, s.seq[0][:s.n[0]]...)
	if s.public != NoCard {
		b = append(b, '/')
		b = append(b, cardNames[s.public]...)
		b = append(b, ':')
		b = append(b, s.seq[1][:s.n[1]]...)
	}
	if s.showdown() {
		b = append(b, '|')
		b = append(b, cardName(s.card[1-seat])...)
	}
	return b
}
