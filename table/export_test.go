package table

import "github.com/fairboard/fairboard/audit"

// SetLeakDecks turns on (or off) the leak of every shuffle's salt and
// order into its DeckCommitted event (decks.go), the positive control of
// the test that no reader reads them before the end; it returns the
// function that puts the switch back.
func SetLeakDecks(on bool) (restore func()) {
	old := leakDecks
	leakDecks = on
	return func() { leakDecks = old }
}

// SetAuditEncoder replaces the encoding of the audit entries (audit.go)
// with enc, to inject a failure; it returns the function that puts the
// encoding back.
func SetAuditEncoder(enc func(audit.Entry) ([]byte, error)) (restore func()) {
	old := encodeAuditEntry
	encodeAuditEntry = enc
	return func() { encodeAuditEntry = old }
}
