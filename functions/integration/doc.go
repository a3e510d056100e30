// Package integration holds the end-to-end tests of the functions: real
// handlers behind an HTTP server, the Firestore emulator as the store, the
// Auth emulator's ID tokens, the Firebase JavaScript SDK as a client, and
// the benchmarks against the emulator. It has no non-test code.
package integration
