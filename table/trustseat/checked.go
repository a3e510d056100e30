package trustseat

// Checked is how many of the table's applied moves the seat has checked
// (every signature, link and round from the first move) and replayed:
// its checkpoint, kept in memory across views (0 before its first view,
// after a view that did not check, and in a seat just restored from its
// secrets, which checks from the first move again). A client asks the
// server for the moves after it (getView's checkedMoves): a view whose
// moves start at or before it (table.TrustlessView.MovesBase) is
// checked from the seat's own checkpoint, the moves it holds that the
// seat checked compared with those it checked; one that starts after it
// is refused.
func (s *Seat) Checked() int {
	if s.f == nil {
		return 0
	}
	return s.f.Checked()
}
