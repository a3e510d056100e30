package table

// SetLeakDecks turns on (or off) the leak of every shuffle's salt and
// order into its DeckCommitted event (decks.go), the positive control of
// the test that no reader reads them before the end; it returns the
// function that puts the switch back.
func SetLeakDecks(on bool) (restore func()) {
	old := leakDecks
	leakDecks = on
	return func() { leakDecks = old }
}
