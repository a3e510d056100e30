package client

import (
	"errors"

	"github.com/fairboard/fairboard/table"
	"github.com/fairboard/fairboard/table/trustseat"
)

// A trustless table's pending round shows who has revealed it, each with
// its reveal signature (table.RevealMarker). A Table checks every marker
// of every view it reads (View) against the pending round the same view
// shows, with the play page's code (trustseat.CheckMarks, where the
// check is described): a server that shows one seat another pending move
// than the others (the split view of docs/fairness.md, "Split view,
// replays and duplicates at a table") is named by every seat as soon as
// it shows a marker signed over the other move. A marker states the
// digest and transcript its seat signed over, so the Lie carries the
// evidence: a *trustseat.SplitView (a valid signature over another move
// than the round this view shows, or than another seat's valid marker:
// both digests), or a *trustseat.ForgedMarker (a signature that does
// not verify over what its marker states); a marker that states no
// digest (a server from before they did) whose signature fails over the
// round shown is either, and says so.

// checkMarks is nil when every marker of tv's pending round is its
// seat's signature over that round, else a *Lie (kept: Send then
// refuses) whose Err is trustseat.CheckMarks' error: a
// *trustseat.SplitView, a *trustseat.ForgedMarker or a
// *trustseat.MarksLie. With checks.MarkDigest off no marker is checked
// (the positive control of the split view).
func (t *Table) checkMarks(tv *table.TrustlessView) error {
	err := trustseat.CheckMarks(tv)
	if err == nil {
		return nil
	}
	var ml *trustseat.MarksLie
	if !errors.As(err, &ml) {
		return err
	}
	lie := &Lie{What: ml.What, Err: err}
	if t.lie == nil {
		t.lie = lie
	}
	return lie
}
