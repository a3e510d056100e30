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
// it shows a marker signed over the other move.

// checkMarks is nil when every marker of tv's pending round is its
// seat's signature over that round, else a *Lie (kept: Send then
// refuses). With checks.MarkDigest off no marker is checked (the
// positive control of the split view).
func (t *Table) checkMarks(tv *table.TrustlessView) error {
	err := trustseat.CheckMarks(tv)
	if err == nil {
		return nil
	}
	var ml *trustseat.MarksLie
	if !errors.As(err, &ml) {
		return err
	}
	lie := &Lie{What: ml.What}
	if t.lie == nil {
		t.lie = lie
	}
	return lie
}
