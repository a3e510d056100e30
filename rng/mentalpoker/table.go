package mentalpoker

import (
	"crypto"
	"crypto/ed25519"
	"fmt"

	"github.com/cloudflare/circl/group"
	"github.com/cloudflare/circl/zk/dleq"
)

// Table is the public state of one hand's deal, which every seat, the
// server and a verifier keep alike: the card points, every pass message
// checked as it arrives, the published keys. It holds no secret. A Table
// is not safe for concurrent use.
type Table struct {
	game  string
	hand  uint64
	n     int
	pubs  []ed25519.PublicKey
	cards []group.Element
	index map[[PointSize]byte]int // card point → card

	step       int               // pass messages accepted: 0..2·seats
	decks      [][]group.Element // decks[0] the cards, decks[s+1] step s's output
	wire       [][][PointSize]byte
	commits    []group.Element   // A_j
	keys       [][]group.Element // z_{j,p} = k_{j,p}·in_p
	released   [][]group.Scalar  // k_{j,p} once published, else nil
	transcript [32]byte
	deal       [32]byte // transcript after the last pass
	msgs       []*PassMessage
}

// NewTable starts the public state of a deal of n cards of hand `hand` of
// game `game` among the seats whose Ed25519 public keys are pubs, in turn
// order. Errors wrap [ErrInput]: a game id of 1..MaxGameID bytes, 1 ≤ n ≤
// MaxCards, 1..MaxSeats keys of 32 bytes each, all distinct.
func NewTable(game string, hand uint64, n int, pubs []ed25519.PublicKey) (*Table, error) {
	cards, err := cardElements(game, hand, n)
	if err != nil {
		return nil, err
	}
	return newTable(game, hand, cards, pubs)
}

func newTable(game string, hand uint64, cards []group.Element, pubs []ed25519.PublicKey) (*Table, error) {
	if len(pubs) < 1 || len(pubs) > MaxSeats {
		return nil, fmt.Errorf("%w: %d seats, want 1..%d", ErrInput, len(pubs), MaxSeats)
	}
	seen := map[string]bool{}
	for i, p := range pubs {
		if len(p) != ed25519.PublicKeySize || seen[string(p)] {
			return nil, fmt.Errorf("%w: seat %d's public key is not 32 bytes or is another seat's", ErrInput, i)
		}
		seen[string(p)] = true
	}
	n := len(cards)
	t := &Table{game: game, hand: hand, n: n, pubs: pubs, cards: cards,
		index: make(map[[PointSize]byte]int, n), commits: make([]group.Element, len(pubs)),
		keys: make([][]group.Element, len(pubs)), released: make([][]group.Scalar, len(pubs))}
	w := encodeAll(cards)
	for i, c := range w {
		if _, dup := t.index[c]; dup {
			return nil, fmt.Errorf("%w: cards %d and %d hash alike", ErrInput, t.index[c], i)
		}
		t.index[c] = i
	}
	t.decks, t.wire = [][]group.Element{cards}, [][][PointSize]byte{w}
	for j := range t.released {
		t.released[j] = make([]group.Scalar, n)
	}
	t.transcript = TranscriptStart(game, hand, n, pubs)
	return t, nil
}

// Seats is the number of seats; Cards the number of cards.
func (t *Table) Seats() int { return len(t.pubs) }
func (t *Table) Cards() int { return t.n }

// Next returns the pass (1 or 2) and seat whose message the table awaits,
// or 0, -1 once both passes are done. A seat that does not send it by the
// game's deadline is the staller to name.
func (t *Table) Next() (pass, seat int) {
	s := len(t.pubs)
	if t.step >= 2*s {
		return 0, -1
	}
	return t.step/s + 1, t.step % s
}

// Dealt reports whether both passes are done.
func (t *Table) Dealt() bool { return t.step == 2*len(t.pubs) }

// Transcript returns the transcript hash so far; Deal the one after the
// last pass (zero before).
func (t *Table) Transcript() [32]byte { return t.transcript }
func (t *Table) Deal() [32]byte       { return t.deal }

// Deck returns the current deck: the cards before the first pass, the
// final masked deck once dealt.
func (t *Table) Deck() [][PointSize]byte { return append([][PointSize]byte(nil), t.wire[t.step]...) }

// Messages returns the accepted pass messages in order (for an export).
func (t *Table) Messages() []*PassMessage { return append([]*PassMessage(nil), t.msgs...) }

// Accept checks the pass message of the seat in turn and records it. It
// refuses, naming that seat in a [*CheatError]: a message for another
// game, hand, pass or seat, a replay from another hand included
// ([ErrContext]); one that does not follow the transcript
// ([ErrTranscript]); a bad signature ([ErrSignature]); a deck of the wrong
// size, a drop ([ErrCount]); an invalid point or the identity ([ErrPoint]);
// two equal points, an exact duplicate ([ErrDuplicate]); in pass 2 a
// missing or invalid keyed point or proof ([ErrProof]). A substitution in
// pass 1 passes these checks; [Table.Audit] catches it. After both passes
// it returns [ErrPhase]. On error the table is unchanged.
func (t *Table) Accept(m *PassMessage) error {
	pass, seat := t.Next()
	if seat < 0 {
		return fmt.Errorf("%w: both passes are done", ErrPhase)
	}
	if m == nil {
		return cheat(seat, ErrInput, "nil message")
	}
	if m.Game != t.game || m.Hand != t.hand || int(m.Pass) != pass || int(m.Seat) != seat {
		return cheat(seat, ErrContext, "message for game %q hand %d pass %d seat %d; the table awaits game %q hand %d pass %d seat %d",
			m.Game, m.Hand, m.Pass, m.Seat, t.game, t.hand, pass, seat)
	}
	if pass == 1 && (len(m.Keyed) > 0 || len(m.Proof) > 0) || pass == 2 && m.Commit != ([PointSize]byte{}) {
		return cheat(seat, ErrInput, "pass %d message with another pass's fields", pass)
	}
	if m.Prev != t.transcript {
		return cheat(seat, ErrTranscript, "prev %x, transcript %x", m.Prev[:4], t.transcript[:4])
	}
	signed := m.SignedBytes()
	if !verifySig(t.pubs[seat], signed, m.Sig) {
		return cheat(seat, ErrSignature, "pass %d message", pass)
	}
	out, err := t.checkDeck(seat, m.Deck)
	if err != nil {
		return err
	}
	var commit group.Element
	var ks []group.Element
	if pass == 1 {
		if commit, err = decodePoint(m.Commit); err != nil {
			return cheat(seat, ErrProof, "common-key commitment: %v", err)
		}
	} else if ks, err = t.checkProofs(seat, m, out); err != nil {
		return err
	}
	t.record(m, signed, out, commit, ks)
	return nil
}

// record appends an accepted (or self-made) message.
func (t *Table) record(m *PassMessage, signed []byte, out []group.Element, commit group.Element, ks []group.Element) {
	seat := int(m.Seat)
	if m.Pass == 1 {
		t.commits[seat] = commit
	} else {
		t.keys[seat] = ks
	}
	t.decks = append(t.decks, out)
	t.wire = append(t.wire, append([][PointSize]byte(nil), m.Deck...))
	t.msgs = append(t.msgs, m)
	t.transcript = TranscriptNext(t.transcript, signed, m.Sig)
	t.step++
	if t.Dealt() {
		t.deal = t.transcript
	}
}

// checkDeck decodes a deck of n distinct valid points.
func (t *Table) checkDeck(seat int, deck [][PointSize]byte) ([]group.Element, error) {
	if len(deck) != t.n {
		return nil, cheat(seat, ErrCount, "%d cards, the deck has %d", len(deck), t.n)
	}
	seen := make(map[[PointSize]byte]int, t.n)
	out := make([]group.Element, t.n)
	for i, b := range deck {
		if j, dup := seen[b]; dup {
			return nil, cheat(seat, ErrDuplicate, "positions %d and %d", j, i)
		}
		seen[b] = i
		e, err := decodePoint(b)
		if err != nil {
			return nil, cheat(seat, ErrPoint, "position %d: %v", i, err)
		}
		out[i] = e
	}
	return out, nil
}

// checkProofs checks pass 2's keyed points z_p (valid, not the identity)
// and the batch DLEQ proof that log_A G = log_{z_p} out_p for every p, A the
// seat's pass-1 commitment.
func (t *Table) checkProofs(seat int, m *PassMessage, out []group.Element) ([]group.Element, error) {
	if len(m.Keyed) != t.n {
		return nil, cheat(seat, ErrProof, "%d keyed points for %d cards", len(m.Keyed), t.n)
	}
	zs := make([]group.Element, t.n)
	for p := range t.n {
		z, err := decodePoint(m.Keyed[p])
		if err != nil {
			return nil, cheat(seat, ErrProof, "position %d's keyed point: %v", p, err)
		}
		zs[p] = z
	}
	var pr dleq.Proof
	if err := pr.UnmarshalBinary(g, m.Proof); err != nil {
		return nil, cheat(seat, ErrProof, "proof does not decode")
	}
	v := dleq.Verifier{Params: proofParams(t.game, t.hand, 2, seat, m.Prev, t.wire[t.step], m.Keyed, m.Deck)}
	if !v.VerifyBatch(t.commits[seat], g.Generator(), zs, out, &pr) {
		return nil, cheat(seat, ErrProof, "the outputs are not the keyed points over a")
	}
	return zs, nil
}

func proofParams(game string, hand uint64, pass uint8, seat int, prev [32]byte, in, z, out [][PointSize]byte) dleq.Params {
	return dleq.Params{G: g, H: crypto.SHA512, DST: proofDST(game, hand, pass, seat, prev, in, z, out)}
}

// AcceptKey checks a seat's published key k for position p against its
// pass-2 commitment (k·in_p = z_p, in_p the seat's pass-2 input) and
// records it. Errors: [ErrPhase] before
// both passes; a [*CheatError] naming the key's seat for another game,
// hand or deal ([ErrContext]), a position or seat out of range
// ([ErrInput]), a bad signature ([ErrSignature]) or a key that is not its
// commitment's ([ErrKey]). The table is unchanged on error.
func (t *Table) AcceptKey(m *KeyMessage) error {
	if !t.Dealt() {
		return fmt.Errorf("%w: keys come after both passes", ErrPhase)
	}
	if m == nil || int(m.Seat) >= len(t.pubs) {
		return fmt.Errorf("%w: nil key message or seat out of range", ErrInput)
	}
	seat, p := int(m.Seat), int(m.Position)
	if m.Game != t.game || m.Hand != t.hand || m.Deal != t.deal {
		return cheat(seat, ErrContext, "key for game %q hand %d", m.Game, m.Hand)
	}
	if p >= t.n {
		return cheat(seat, ErrInput, "position %d of %d", p, t.n)
	}
	if !verifySig(t.pubs[seat], m.SignedBytes(), m.Sig) {
		return cheat(seat, ErrSignature, "key for position %d", p)
	}
	k, err := decodeScalar(m.Key)
	if err != nil || !g.NewElement().Mul(t.decks[len(t.pubs)+seat][p], k).IsEqual(t.keys[seat][p]) {
		return cheat(seat, ErrKey, "position %d", p)
	}
	t.released[seat][p] = k
	return nil
}

// Missing returns the seats whose key for position p the table lacks,
// leaving out seat `except` (the owner, for a private opening; -1 for
// none): the seats to name if the deadline passes. Nil for p out of range.
func (t *Table) Missing(p, except int) []int {
	if p < 0 || p >= t.n {
		return nil
	}
	var out []int
	for j := range t.pubs {
		if j != except && t.released[j][p] == nil {
			out = append(out, j)
		}
	}
	return out
}

// OpenPublic opens position p with every seat's published key and returns
// its card. Errors: [ErrInput] for p out of range, [ErrMissing] naming the
// first seat whose key is missing, [ErrNotCard] if the keys open no card
// (a pass was cheated: run [Table.Audit]).
func (t *Table) OpenPublic(p int) (int, error) {
	return t.open(p, -1, nil)
}

// open removes every key of position p (own for seat `self`, published
// for the others) from the final point and matches a card.
func (t *Table) open(p, self int, own group.Scalar) (int, error) {
	if !t.Dealt() {
		return 0, fmt.Errorf("%w: the deal is not done", ErrPhase)
	}
	if p < 0 || p >= t.n {
		return 0, fmt.Errorf("%w: position %d of %d", ErrInput, p, t.n)
	}
	prod := g.NewScalar().SetUint64(1)
	for j := range t.pubs {
		k := t.released[j][p]
		if j == self {
			k = own
		}
		if k == nil {
			return 0, &CheatError{Seat: j, Err: fmt.Errorf("%w: seat %d's key for position %d", ErrMissing, j, p)}
		}
		prod.Mul(prod, k)
	}
	c := g.NewElement().Mul(t.decks[t.step][p], prod.Inv(prod))
	card, ok := t.index[encode(c)]
	if !ok {
		return 0, fmt.Errorf("%w: position %d", ErrNotCard, p)
	}
	return card, nil
}
