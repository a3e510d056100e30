// Package rulestest checks the repository's firestore.rules on the real
// Firestore emulator: documents are seeded through the Admin client (which
// bypasses the rules), then end users act through plain REST calls that
// carry ID tokens issued by the real Auth emulator. The package has only
// tests; see docs/firebase.md for how to run them.
package rulestest
