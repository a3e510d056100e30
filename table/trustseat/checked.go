package trustseat

// Checked is how many of the table's applied moves the seat has checked
// (every signature, link and round from the first move) and replayed:
// its checkpoint, kept in memory across views and in its secrets
// (Export, where the game allows one: checkpoint.go). It is 0 before its
// first view, after a view that did not check, and in a seat restored
// from secrets without a checkpoint, which checks from the first move
// again; a seat restored from secrets with one starts from it. A client
// asks the server for the moves after it (getView's checkedMoves): a view
// whose moves start at or before it (table.TrustlessView.MovesBase) is
// checked from the seat's own checkpoint, the moves it holds that the
// seat checked compared with those it checked; one that starts after it
// is refused. A seat just restored with a checkpoint takes a view of the
// moves after it, or a whole view whose moves up to it lead exactly to
// it (match.ResumeTrustless); a view it refuses, as any refused view,
// leaves it with no checkpoint, so that it reads the next view whole and
// checks it from the first move.
func (s *Seat) Checked() int {
	switch {
	case s.f != nil:
		return s.f.Checked()
	case s.cp != nil:
		return s.cp.Checked
	}
	return 0
}
