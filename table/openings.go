package table

import (
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fairboard/fairboard/game"
	"github.com/fairboard/fairboard/match"
	"github.com/fairboard/fairboard/rng"
	"github.com/fairboard/fairboard/rng/fair"
)

// A fair table with openings (CreateRequest.Openings; docs/fairness.md,
// "Openings: fair games without grinding", "At tables") takes each
// seat's contribution in two steps, so that no seat, the server's own
// included, can choose its contribution after seeing another's: a join
// carries only the commitment fair.ContributionCommitment(gameID, seat,
// c) to a 32-byte contribution c; once every seat is taken each seat
// opens c (KindOpen), checked against its commitment; the first opening
// fixes the seats (no leave, no removal) and starts a public deadline;
// the owner starts once every seat has opened. A table's seat count is
// fixed at create, so a seat that never opens cannot be left out: past
// the deadline anyone may ask for the abort (KindAbort, applied by the
// server in its own name), which ends the table naming every seat that
// did not open (Outcome.Reason AbortUnopened, Outcome.Missing). Each such
// end is public: a seat allied with the server chooses between this
// game and another one at the cost of an abort in its name.

// AbortUnopened is Outcome.Reason of a table with openings ended at its
// deadline because a seat did not open its contribution.
const AbortUnopened = "unopened"

// openings is a fair table's openings state, saved with the table. The
// commitments and who opened are public; the opened contributions go to
// Table.entropy, secret until the end as in every fair table.
type openings struct {
	GameID      string   `json:"gameId"`
	DeadlineMs  uint64   `json:"deadlineMs"`
	Commitments []string `json:"commitments"`
	Opened      []bool   `json:"opened"`
	// FirstAt is the first opening's time (unix ms), 0 before it.
	FirstAt int64 `json:"firstAt,omitempty"`
}

// Openings is a table's openings as every reader sees them
// (View.Fairness.Openings): each seat's commitment (64 hex digits, ""
// while free) and whether it opened, how long the seats have once the
// first opened, and that deadline (unix ms; 0 before the first opening).
type Openings struct {
	DeadlineMs  uint64
	Deadline    int64
	Commitments []string
	Opened      []bool
}

// checkOpeningsCreate checks a create's openings: for a fair table only,
// with its game id (which the commitments are bound to) and a deadline
// of MinDeadlineMs..MaxDeadlineMs (0: DefaultDeadlineMs).
func checkOpeningsCreate(req *CreateRequest) *Error {
	if !req.Openings {
		return nil
	}
	switch {
	case req.Mode != rng.ModeFair:
		return reject(CodeBadSetup, "openings are for fair tables; this one is "+string(req.Mode))
	case !ValidID(req.GameID):
		return reject(CodeBadSetup, "a table with openings needs its game id (1-128 characters of [A-Za-z0-9_-]): every commitment is bound to it")
	}
	if req.DeadlineMs == 0 {
		req.DeadlineMs = DefaultDeadlineMs
	}
	if req.DeadlineMs < MinDeadlineMs || req.DeadlineMs > MaxDeadlineMs {
		return reject(CodeBadSetup, fmt.Sprintf("deadlineMs %d: want %d to %d", req.DeadlineMs, MinDeadlineMs, MaxDeadlineMs))
	}
	return nil
}

// takeCommitment keeps a joining seat's commitment at a table with
// openings (bad_entropy for entropy sent at join, or a commitment that is
// not 64 hex digits), and refuses a commitment at any other table.
func (t *Table) takeCommitment(seat int, a *Action) *Error {
	if t.op == nil {
		if a.EntropyCommitment != "" {
			return reject(CodeBadEntropy, "an entropy commitment is for fair tables with openings")
		}
		return nil
	}
	if a.Entropy != "" {
		return reject(CodeBadEntropy, "at a table with openings a join carries the commitment to the contribution (entropyCommitment), and the contribution is opened once every seat is taken")
	}
	c := strings.ToLower(a.EntropyCommitment)
	if b, err := hex.DecodeString(c); err != nil || len(b) != 32 {
		return reject(CodeBadEntropy, "entropyCommitment must be 64 hex digits (SHA-256, docs/fairness.md)")
	}
	t.op.Commitments[seat] = c
	return nil
}

// seatsFixed refuses a leave or a removal once the first seat opened.
func (t *Table) seatsFixed() *Error {
	if t.op != nil && t.op.FirstAt != 0 {
		return reject(CodeAlreadyStarted, "the seats are fixed by the first opening")
	}
	return nil
}

// freeCommitment forgets a seat's commitment when its player leaves.
func (t *Table) freeCommitment(seat int) {
	if t.op != nil {
		t.op.Commitments[seat] = ""
	}
}

// open is KindOpen: a seat opens its contribution.
func (t *Table) open(a *Action) *Error {
	s := t.seatOf(a.Actor)
	switch {
	case t.op == nil:
		return reject(CodeInvalidAction, "open is for fair tables with openings")
	case s == NoSeat:
		return reject(CodeNotSeated, "the actor holds no seat")
	case slices.ContainsFunc(t.seats, func(x SeatInfo) bool { return x.UID == "" }):
		return reject(CodeTooFewPlayers, "a seat opens once every seat is taken")
	case t.op.Opened[s]:
		return reject(CodeAlreadyOpened, "seat "+strconv.Itoa(s)+" has opened")
	}
	c, err := fair.ParseContribution(a.Entropy)
	if err != nil {
		return reject(CodeBadEntropy, err.Error())
	}
	want := fair.ContributionCommitment(t.op.GameID, uint32(s), c)
	if subtle.ConstantTimeCompare([]byte(hex.EncodeToString(want[:])), []byte(t.op.Commitments[s])) != 1 {
		return reject(CodeWrongOpening, "the contribution does not open seat "+strconv.Itoa(s)+"'s commitment")
	}
	t.entropy[s], t.op.Opened[s] = hex.EncodeToString(c), true
	if t.op.FirstAt == 0 {
		t.op.FirstAt = max(a.At, 1)
	}
	t.emit(Event{To: game.All, Type: "Opened", Vals: [game.MaxVals]int64{int64(s)}, UID: a.Actor})
	return nil
}

// unopened lists the seats that have not opened.
func (op *openings) unopened() []int {
	var out []int
	for s, ok := range op.Opened {
		if !ok {
			out = append(out, s)
		}
	}
	return out
}

// notOpened refuses a start while a seat has not opened (not_opened,
// naming the seats).
func (t *Table) notOpened() *Error {
	if t.op == nil {
		return nil
	}
	if u := t.op.unopened(); len(u) > 0 {
		return reject(CodeNotOpened, fmt.Sprintf("seats %v have not opened their contributions", u))
	}
	return nil
}

// openDeadline is when the seats' time to open ends (unix ms), 0 when no
// opening is awaited (none yet, or every seat opened).
func (t *Table) openDeadline() int64 {
	if t.op == nil || t.phase != PhaseLobby || t.op.FirstAt == 0 || len(t.op.unopened()) == 0 {
		return 0
	}
	return t.op.FirstAt + int64(t.op.DeadlineMs)
}

// abortUnopened is KindAbort at a table with openings in its lobby: past
// the deadline, the table ends naming the seats that did not open.
func (t *Table) abortUnopened(a *Action) *Error {
	d := t.openDeadline()
	switch {
	case d == 0:
		return reject(CodeWrongIndex, "no opening is awaited")
	case a.At <= d:
		return reject(CodeDeadlineNotPassed, fmt.Sprintf("the openings' deadline is %d, not passed at %d", d, a.At))
	}
	missing := t.op.unopened()
	t.out = &Outcome{Abandoned: true, Reason: AbortUnopened, Missing: missing}
	t.phase = PhaseFinished
	opts := []string{AbortUnopened}
	for _, s := range missing {
		opts = append(opts, t.seats[s].UID)
	}
	t.emit(Event{To: game.All, Type: "Aborted", UID: a.Actor, Options: opts})
	return nil
}

// openingsView is what every reader sees of the openings (nil without).
func (t *Table) openingsView() *Openings {
	if t.op == nil {
		return nil
	}
	return &Openings{DeadlineMs: t.op.DeadlineMs, Deadline: t.openDeadline(),
		Commitments: slices.Clone(t.op.Commitments), Opened: slices.Clone(t.op.Opened)}
}

// recordOpenings is the openings in a finished table's record.
func (t *Table) recordOpenings() *match.RecordOpenings {
	if t.op == nil {
		return nil
	}
	return &match.RecordOpenings{GameID: t.op.GameID, CommitmentsHex: slices.Clone(t.op.Commitments)}
}
