package mentalpoker

import (
	"crypto/ed25519"
	"fmt"
	"io"

	"github.com/cloudflare/circl/group"
	"github.com/cloudflare/circl/zk/dleq"
)

// Seat is one seat's secrets for one hand: its common key a and its
// per-position keys k_p, drawn fresh for every hand (make a new Seat for
// each), and its Ed25519 signing key. A Seat keeps its secrets to itself
// and works on a [Table] it keeps in step with the others'. It is not safe
// for concurrent use.
type Seat struct {
	seat int
	priv ed25519.PrivateKey
	r    io.Reader
	a    group.Scalar
	k    []group.Scalar
}

// NewSeat returns seat `seat` (0-based) of t, signing with priv (whose
// public key must be t's for that seat) and drawing keys, permutations and
// proof nonces from r, or from crypto/rand if r is nil. Tests pass a
// deterministic reader; real seats pass nil, since whoever knows r's output
// knows the seat's keys. Errors wrap [ErrInput].
func NewSeat(t *Table, seat int, priv ed25519.PrivateKey, r io.Reader) (*Seat, error) {
	if t == nil || seat < 0 || seat >= len(t.pubs) {
		return nil, fmt.Errorf("%w: no table or seat out of range", ErrInput)
	}
	if len(priv) != ed25519.PrivateKeySize || !priv.Public().(ed25519.PublicKey).Equal(t.pubs[seat]) {
		return nil, fmt.Errorf("%w: the signing key is not seat %d's", ErrInput, seat)
	}
	return &Seat{seat: seat, priv: priv, r: orCrypto(r)}, nil
}

// Pass makes the seat's turn of the pass t awaits, records it in t and
// returns the message for the others' tables ([Table.Accept]).
//
// Pass 1: draw a, multiply every card of the current deck by a, permute
// (Fisher–Yates), commit A = a·G. Pass 2: for each position p draw k_p,
// publish z_p = k_p·in_p and out_p = a⁻¹·z_p, with one batch DLEQ proof
// (circl zk/dleq; its domain binds game, hand, pass, seat, transcript and
// every point) that log_A G = log_{z_p} out_p for all p, so that
// out_p = (k_p/a)·in_p. Errors: [ErrPhase] if it is not this seat's turn,
// [ErrRandom] if the reader fails; t and the seat are unchanged on error.
func (s *Seat) Pass(t *Table) (*PassMessage, error) {
	pass, seat := t.Next()
	if seat != s.seat {
		return nil, fmt.Errorf("%w: the table awaits seat %d, this is seat %d", ErrPhase, seat, s.seat)
	}
	in := t.decks[t.step]
	m := &PassMessage{Game: t.game, Hand: t.hand, Pass: uint8(pass), Seat: uint32(seat), Prev: t.transcript}
	out := make([]group.Element, t.n)
	var commit group.Element
	var ks []group.Element
	var a group.Scalar
	var k []group.Scalar
	if pass == 1 {
		var err error
		if a, err = drawScalar(s.r); err != nil {
			return nil, err
		}
		perm, err := permutation(s.r, t.n)
		if err != nil {
			return nil, err
		}
		for i, x := range in {
			out[perm[i]] = g.NewElement().Mul(x, a)
		}
		commit = g.NewElement().MulGen(a)
		m.Commit, m.Deck = encode(commit), encodeAll(out)
	} else {
		a = s.a
		ainv := g.NewScalar().Inv(a)
		k, ks = make([]group.Scalar, t.n), make([]group.Element, t.n)
		for p, x := range in {
			kp, err := drawScalar(s.r)
			if err != nil {
				return nil, err
			}
			ks[p] = g.NewElement().Mul(x, kp)
			out[p] = g.NewElement().Mul(ks[p], ainv)
			k[p] = kp
		}
		nonce, err := drawScalar(s.r)
		if err != nil {
			return nil, err
		}
		m.Keyed, m.Deck = encodeAll(ks), encodeAll(out)
		prover := dleq.Prover{Params: proofParams(t.game, t.hand, 2, seat, m.Prev, t.wire[t.step], m.Keyed, m.Deck)}
		pr, err := prover.ProveBatchWithRandomness(ainv, t.commits[seat], g.Generator(), ks, out, nonce)
		if err != nil {
			return nil, fmt.Errorf("%w: proving: %v", ErrInput, err)
		}
		if m.Proof, err = pr.MarshalBinary(); err != nil {
			return nil, fmt.Errorf("%w: encoding the proof: %v", ErrInput, err)
		}
	}
	signed := m.SignedBytes()
	m.Sig = ed25519.Sign(s.priv, signed)
	t.record(m, signed, out, commit, ks)
	if pass == 1 {
		s.a = a
	} else {
		s.k = k
	}
	return m, nil
}

// Key returns the seat's signed key for position p, to publish when p is
// dealt to another seat or opened to all. Errors: [ErrPhase] before both
// passes, [ErrInput] for p out of range.
func (s *Seat) Key(t *Table, p int) (*KeyMessage, error) {
	if !t.Dealt() || s.k == nil {
		return nil, fmt.Errorf("%w: keys come after both passes", ErrPhase)
	}
	if p < 0 || p >= t.n {
		return nil, fmt.Errorf("%w: position %d of %d", ErrInput, p, t.n)
	}
	m := &KeyMessage{Game: t.game, Hand: t.hand, Seat: uint32(s.seat), Position: uint32(p),
		Deal: t.deal, Key: encodeScalar(s.k[p])}
	m.Sig = ed25519.Sign(s.priv, m.SignedBytes())
	return m, nil
}

// Open opens position p for this seat: its own key with every other seat's
// key published on t. It returns the card. Errors as [Table.OpenPublic],
// except that the seat's own key is never needed on t.
func (s *Seat) Open(t *Table, p int) (int, error) {
	if s.k == nil {
		return 0, fmt.Errorf("%w: the seat has no keys yet", ErrPhase)
	}
	if p < 0 || p >= len(s.k) {
		return 0, fmt.Errorf("%w: position %d of %d", ErrInput, p, len(s.k))
	}
	return t.open(p, s.seat, s.k[p])
}

// Reveal returns every key of the seat, signed, for the end-of-hand
// recomputation. It shows every card, folded hands included. Errors:
// [ErrPhase] before both passes.
func (s *Seat) Reveal(t *Table) (*RevealMessage, error) {
	if !t.Dealt() || s.k == nil {
		return nil, fmt.Errorf("%w: reveal comes after both passes", ErrPhase)
	}
	m := &RevealMessage{Game: t.game, Hand: t.hand, Seat: uint32(s.seat), Deal: t.deal,
		Common: encodeScalar(s.a), Keys: make([][ScalarSize]byte, len(s.k))}
	for p, k := range s.k {
		m.Keys[p] = encodeScalar(k)
	}
	m.Sig = ed25519.Sign(s.priv, m.SignedBytes())
	return m, nil
}
