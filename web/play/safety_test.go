package play_test

import (
	"testing"
)

// The page's safe defaults, run by Node: the order of the actions, which
// ask first, the status lines that clear, the title
// (test/safety_test.ts).
func TestSafeDefaultsInNode(t *testing.T) {
	runNodeTest(t, "safety")
}

// A fair table's checks on the page, run by Node: its SHA-256 of the
// field encoding against rng/fair's vectors, and the end's checks with
// their positive controls (test/tablefair_test.ts).
func TestTableFairInNode(t *testing.T) {
	runNodeTest(t, "tablefair")
}

// A seeded table's checks on the page, run by Node: the seed refused
// before it is sent (empty, over 256 bytes of UTF-8, a lone surrogate),
// and the end's verdict on the record's seed with its positive controls
// (test/tableseed_test.ts).
func TestTableSeedInNode(t *testing.T) {
	runNodeTest(t, "tableseed")
}

// A trustless seat's acknowledgements in words, run by Node: which
// answers carry one to check and keep, what is said of one kept, refused
// (the server lied, or the pinned key is wrong) or not kept, and the
// blame with the acknowledgement's details (test/tableack_test.ts).
func TestTableAckInNode(t *testing.T) {
	runNodeTest(t, "tableack")
}

// A reveal marker's lie in words, run by Node: the wasm's sentence said
// as the server's lie, with the page sending nothing more; nothing said
// of a view without one (test/tablemarks_test.ts).
func TestTableMarksInNode(t *testing.T) {
	runNodeTest(t, "tablemarks")
}

// A crypto or fair table's record checked at its end, run by Node: the
// verdict against what the page showed (game, mode, seats, rules, the
// fair commitment, the decks' published commitments), each check with a
// changed input that it must catch (test/tablerecord_test.ts).
func TestTableRecordInNode(t *testing.T) {
	runNodeTest(t, "tablerecord")
}

// A table followed by listeners, run by Node: own addressed events in
// place of their traces, and the seat's view of its documents
// (test/tablewatch_test.ts).
func TestTableWatchInNode(t *testing.T) {
	runNodeTest(t, "tablewatch")
}

// A table's seats in its lobby, run by Node: the log's words for a leave
// and a removal, the news of the player's own seat freed, when the seats
// may change, and a leave's or a removal's refusals in words
// (test/tableseats_test.ts).
func TestTableSeatsInNode(t *testing.T) {
	runNodeTest(t, "tableseats")
}

// A trustless seat's checkpoint on the page, run by Node: getView's
// checkedMoves sent once the seat has checked a move, read from the
// WebAssembly for the view's own seat, and a view starting past the
// seat's checkpoint read again whole before the seat is asked anything,
// one at or before it used as it is (test/tabletrustview_test.ts).
func TestTableTrustViewInNode(t *testing.T) {
	runNodeTest(t, "tabletrustview")
}
