package match

import (
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/internal/checks"
	"github.com/fairboard/fairboard/rng/trustless"
)

// RecordTrustless is a trustless table's protocol in its record
// (docs/fairness.md, "Trustless tables"): everything anyone needs to
// check every signature, every link and every round's randomness, and so
// to replay the game with no seed. Bytes are lower-case hex.
type RecordTrustless struct {
	// GameID is the table's game id, bound into every derivation.
	GameID      string `json:"gameId"`
	ChainLength uint32 `json:"chainLength"`
	DeadlineMs  uint64 `json:"deadlineMs"`
	// Seats are the seats at the start, in seat order.
	Seats []TrustlessSeat `json:"seats"`
	// Moves has one element per move of the record, in order.
	Moves []TrustlessMove `json:"moves"`
	// Pending is the move whose round never closed (an aborted game): its
	// Move, its signature, its index and the reveals that came.
	Pending *TrustlessMove `json:"pending,omitempty"`
	// Abort is how an aborted game ended; nil for a game played out.
	Abort *TrustlessAbort `json:"abort,omitempty"`
	// Deal is the mental-poker deal of a game with a private deck
	// (docs/fairness.md, "Dealing without a dealer who sees"), once the
	// game is over; its seats' keys are the seats' PublicKeys.
	Deal *RecordDeal `json:"deal,omitempty"`
}

// TrustlessSeat is one seat's commitments: its chain's head and its
// Ed25519 public key, published by its join (made against JoinVersion
// and signed by that key).
type TrustlessSeat struct {
	UID           string `json:"uid"`
	ChainHead     string `json:"chainHead"`
	PublicKey     string `json:"publicKey"`
	JoinVersion   uint64 `json:"joinVersion"`
	JoinSignature string `json:"joinSignature"`
}

// TrustlessMove is one move's protocol: the version it was made against,
// its actor's signature, and for a move that drew its round's index and
// every seat's reveal (in seat order; a pending move's: those that came).
// Move is the canonical move of a pending move only.
type TrustlessMove struct {
	Move      string            `json:"move,omitempty"`
	Version   uint64            `json:"version"`
	Signature string            `json:"signature"`
	Index     uint32            `json:"index,omitempty"`
	Reveals   []TrustlessReveal `json:"reveals,omitempty"`
}

// TrustlessReveal is one seat's reveal of its link for a round, and its
// signature over the round's index, the move's digest and the transcript.
type TrustlessReveal struct {
	Seat      int    `json:"seat"`
	Link      string `json:"link"`
	Signature string `json:"signature"`
}

// TrustlessAbort is why a trustless game ended before its end: Reason is
// "deadline" (the seats Missing did not reveal the pending round in
// time), "chainExhausted" (a move needed index ChainLength+1) or
// "abandoned" (the owner or the server stopped it).
type TrustlessAbort struct {
	Reason  string `json:"reason"`
	Missing []int  `json:"missing,omitempty"`
}

// The abort reasons.
const (
	AbortDeadline       = "deadline"
	AbortChainExhausted = "chainExhausted"
	AbortAbandoned      = "abandoned"
)

func hex32(s, what string) ([32]byte, error) {
	var out [32]byte
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		return out, fmt.Errorf("trustless: %s must be 64 hex digits", what)
	}
	copy(out[:], b)
	return out, nil
}

func hexSig(s, what string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != trustless.SignatureSize {
		return nil, fmt.Errorf("trustless: %s must be 128 hex digits", what)
	}
	return b, nil
}

// TableAction returns the canonical bytes of a table's join or move
// (trustless.AppendTableAction).
func TableAction(kind, actor string, version uint64, body []byte, head, key []byte) []byte {
	return trustless.AppendTableAction(nil, kind, actor, version, body, head, key)
}

// trustChecker walks a trustless record's protocol.
type trustChecker struct {
	id    string
	n     int
	keys  [][]byte
	prev  [][32]byte
	t     [32]byte
	next  uint32
	limit uint32
	// version is the last version an action checked was made at: the
	// latest join's, then each move's.
	version uint64
}

// checkTrustless checks a trustless record's protocol in order (the
// seats' joins, then each move's signature and round) and returns each
// move's round randomness (nil for a move that drew nothing), a
// divergence (the first signature, link, index or count that is wrong),
// or an error for a malformed field.
func checkTrustless(def game.Definition, r *Record, rules game.Ruleset, moves []game.Move) (keys []*[32]byte, divergence, err error) {
	c, keys, d, err := walkTrustless(def, r, rules, moves)
	if d != nil || err != nil {
		return nil, d, err
	}
	d, err = c.end(r, def.Kinds())
	return keys, d, err
}

// walkTrustless checks the joins and the moves of a trustless record's
// protocol and returns the checker where it stands.
func walkTrustless(def game.Definition, r *Record, rules game.Ruleset, moves []game.Move) (c *trustChecker, keys []*[32]byte, divergence, err error) {
	p := r.Trustless
	if len(p.Seats) != r.Seats {
		return nil, nil, nil, fmt.Errorf("trustless: %d seats for %d", len(p.Seats), r.Seats)
	}
	if len(p.Moves) != len(moves) {
		return nil, nil, nil, fmt.Errorf("trustless: %d moves' protocol for %d moves", len(p.Moves), len(moves))
	}
	if p.ChainLength < 1 || p.ChainLength > trustless.MaxChainLength {
		return nil, nil, nil, fmt.Errorf("trustless: chainLength %d: want 1 to %d", p.ChainLength, trustless.MaxChainLength)
	}
	c, d, err := startChecker(def, r, rules)
	if d != nil || err != nil {
		return nil, nil, d, err
	}
	kinds := def.Kinds()
	keys = make([]*[32]byte, len(moves))
	for i, mv := range moves {
		what := fmt.Sprintf("move %d (%s by seat %d)", i+1, mv.Kind, mv.Seat)
		k, d, err := c.move(what, p.Seats, kinds, mv, &p.Moves[i], false)
		if d != nil || err != nil {
			return nil, nil, d, err
		}
		keys[i] = k
	}
	return c, keys, nil, nil
}

// startChecker checks the seats' joins and returns the checker after
// them: the transcript's start and every join's record.
func startChecker(def game.Definition, r *Record, rules game.Ruleset) (c *trustChecker, divergence, err error) {
	p := r.Trustless
	if len(p.Seats) != r.Seats {
		return nil, nil, fmt.Errorf("trustless: %d seats for %d", len(p.Seats), r.Seats)
	}
	c = &trustChecker{id: p.GameID, n: r.Seats, next: 1, limit: p.ChainLength, t: trustless.TranscriptStart(p.GameID, rules.Hash())}
	seatDefs := def.Seats()
	for i, s := range p.Seats {
		head, err := hex32(s.ChainHead, fmt.Sprintf("seat %d's chainHead", i))
		if err != nil {
			return nil, nil, err
		}
		key, err := hex32(s.PublicKey, fmt.Sprintf("seat %d's publicKey", i))
		if err != nil {
			return nil, nil, err
		}
		sig, err := hexSig(s.JoinSignature, fmt.Sprintf("seat %d's joinSignature", i))
		if err != nil {
			return nil, nil, err
		}
		var seat game.Seat
		if r.SeatOptions != nil {
			seat.Options = r.SeatOptions[i]
		}
		canon := TableAction("join", s.UID, s.JoinVersion, game.AppendSeatCanonical(nil, seatDefs, i, seat), head[:], key[:])
		if !trustless.Verify(key[:], trustless.ActionMessage(p.GameID, canon), sig) {
			return nil, fmt.Errorf("trustless: seat %d's join: its signature does not verify under the key it publishes", i), nil
		}
		d := trustless.ActionDigest(p.GameID, canon)
		c.t = trustless.TranscriptAction(&c.t, &d, sig)
		c.keys, c.prev = append(c.keys, key[:]), append(c.prev, head)
		c.version = max(c.version, s.JoinVersion)
	}
	return c, nil, nil
}

// move checks one move's signature and round; a pending move's round may
// lack reveals (partial).
func (c *trustChecker) move(what string, seats []TrustlessSeat, kinds []game.KindSpec, mv game.Move, tm *TrustlessMove, partial bool) (*[32]byte, error, error) {
	if mv.Seat < 0 || mv.Seat >= c.n {
		return nil, nil, fmt.Errorf("trustless: %s: no seat %d", what, mv.Seat)
	}
	sig, err := hexSig(tm.Signature, what+"'s signature")
	if err != nil {
		return nil, nil, err
	}
	if tm.Version <= c.version && checks.On(checks.MoveVersion) {
		// Every action moves the table one version on: a move made at the
		// version of one before it is a signature used again.
		return nil, fmt.Errorf("trustless: %s: made at version %d, not after %d (the join or move before it): a signature used again", what, tm.Version, c.version), nil
	}
	canon := TableAction("move", seats[mv.Seat].UID, tm.Version, game.AppendMoveCanonical(nil, kinds, mv), nil, nil)
	if !trustless.Verify(c.keys[mv.Seat], trustless.ActionMessage(c.id, canon), sig) {
		return nil, fmt.Errorf("trustless: %s: its signature does not verify under seat %d's key", what, mv.Seat), nil
	}
	c.version = tm.Version
	digest := trustless.ActionDigest(c.id, canon)
	c.t = trustless.TranscriptAction(&c.t, &digest, sig)
	if tm.Index == 0 {
		if len(tm.Reveals) > 0 {
			return nil, fmt.Errorf("trustless: %s: reveals without a round", what), nil
		}
		return nil, nil, nil
	}
	v := tm.Index
	switch {
	case v != c.next:
		return nil, fmt.Errorf("trustless: %s: round %d, but the next index is %d", what, v, c.next), nil
	case v > c.limit:
		return nil, fmt.Errorf("trustless: %s: round %d is past the chains' %d links", what, v, c.limit), nil
	case !partial && len(tm.Reveals) != c.n:
		return nil, fmt.Errorf("trustless: %s: round %d has %d reveals for %d seats", what, v, len(tm.Reveals), c.n), nil
	}
	links := make([][32]byte, c.n)
	seen := make([]bool, c.n)
	for j, rv := range tm.Reveals {
		if rv.Seat < 0 || rv.Seat >= c.n || seen[rv.Seat] || !partial && rv.Seat != j {
			return nil, fmt.Errorf("trustless: %s: round %d's reveal %d is for seat %d, out of order or repeated", what, v, j+1, rv.Seat), nil
		}
		seen[rv.Seat] = true
		link, err := hex32(rv.Link, fmt.Sprintf("%s: seat %d's link", what, rv.Seat))
		if err != nil {
			return nil, nil, err
		}
		rsig, err := hexSig(rv.Signature, fmt.Sprintf("%s: seat %d's reveal signature", what, rv.Seat))
		if err != nil {
			return nil, nil, err
		}
		if !trustless.CheckLink(c.id, uint32(rv.Seat), v, &link, &c.prev[rv.Seat]) {
			return nil, fmt.Errorf("trustless: %s: round %d: seat %d's link does not hash to its previous link", what, v, rv.Seat), nil
		}
		if !trustless.Verify(c.keys[rv.Seat], trustless.RevealMessage(c.id, v, &digest, &c.t), rsig) {
			return nil, fmt.Errorf("trustless: %s: round %d: seat %d's reveal signature does not verify", what, v, rv.Seat), nil
		}
		links[rv.Seat] = link
	}
	if partial {
		return nil, nil, nil
	}
	rv := trustless.Randomness(c.id, v, &digest, links)
	c.t = trustless.TranscriptRound(&c.t, v, links)
	copy(c.prev, links)
	c.next++
	return &rv, nil, nil
}

// end checks the pending move and the abort against each other: a
// deadline's missing seats are those without a reveal, an exhausted
// chain's move has index ChainLength+1. That the pending move draws is
// CheckRecord's check, on the replay.
func (c *trustChecker) end(r *Record, kinds []game.KindSpec) (error, error) {
	p := r.Trustless
	a := p.Abort
	switch {
	case a == nil && p.Pending != nil:
		return nil, fmt.Errorf("trustless: a pending move without an abort")
	case a == nil:
		return nil, nil
	case a.Reason != AbortDeadline && a.Reason != AbortChainExhausted && a.Reason != AbortAbandoned:
		return nil, fmt.Errorf("trustless: abort reason %q", a.Reason)
	case a.Reason != AbortAbandoned && p.Pending == nil:
		return nil, fmt.Errorf("trustless: a %s abort without its pending move", a.Reason)
	}
	if p.Pending == nil {
		if len(a.Missing) > 0 {
			return fmt.Errorf("trustless: an abort names missing seats %v without a pending round", a.Missing), nil
		}
		return nil, nil
	}
	mv, err := decodeCanonicalMove(kinds, p.Pending.Move)
	if err != nil {
		return nil, fmt.Errorf("trustless: the pending move: %w", err)
	}
	what := fmt.Sprintf("the pending move (%s by seat %d)", mv.Kind, mv.Seat)
	if a.Reason == AbortChainExhausted {
		if p.Pending.Index != c.limit+1 || len(p.Pending.Reveals) > 0 {
			return fmt.Errorf("trustless: %s: an exhausted chain's move needs index %d and no reveals, not %d", what, c.limit+1, p.Pending.Index), nil
		}
		c.limit++ // the index is checked as the next, past the chains
	}
	if _, d, err := c.move(what, p.Seats, kinds, mv, p.Pending, true); d != nil || err != nil {
		return d, err
	}
	if p.Pending.Index == 0 {
		return fmt.Errorf("trustless: %s has no round", what), nil
	}
	var missing []int
	for s := range c.n {
		if !slices.ContainsFunc(p.Pending.Reveals, func(rv TrustlessReveal) bool { return rv.Seat == s }) {
			missing = append(missing, s)
		}
	}
	if a.Reason == AbortDeadline && (len(missing) == 0 || !slices.Equal(missing, a.Missing)) {
		return fmt.Errorf("trustless: the abort names seats %v missing, the reveals leave %v", a.Missing, missing), nil
	}
	return nil, nil
}

// checkPendingDraws checks that an aborted game's pending move is one
// that draws, where the replay stands (a divergence if not).
func checkPendingDraws(m *Match, kinds []game.KindSpec, p *RecordTrustless) error {
	if p.Pending == nil {
		return nil
	}
	mv, err := decodeCanonicalMove(kinds, p.Pending.Move)
	if err != nil {
		return fmt.Errorf("trustless: the pending move: %w", err)
	}
	draws, err := m.WouldDraw(mv)
	switch {
	case err != nil:
		return fmt.Errorf("trustless: the pending move (%s by seat %d) is refused where the game stands: %w", mv.Kind, mv.Seat, err)
	case !draws:
		return fmt.Errorf("trustless: the pending move (%s by seat %d) draws nothing: it needed no round", mv.Kind, mv.Seat)
	}
	return nil
}
