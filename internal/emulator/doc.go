// Package emulator starts and stops the real Firebase emulators for tests:
// Google's Firestore emulator (through gcloud, Java 17) and the Firebase Auth
// emulator (through the project's pinned firebase-tools in node_modules).
//
// Each emulator runs on a free 127.0.0.1 port in its own process group under
// a small watchdog shell. The watchdog holds a pipe from the test binary: when
// the test process ends for any reason (Stop, os.Exit, a panic, a timeout, a
// signal) the pipe closes and the watchdog kills the whole group, so no java
// or node process outlives the tests.
//
// A package's tests share one pair of emulators through a [Suite] started in
// TestMain. When gcloud, java or node_modules/.bin/firebase is missing, the
// tests that need them are skipped with the reason, unless the environment
// variable CI is "true", in which case the run fails.
//
// Tokens always come from the Auth emulator ([Auth.SignUp],
// [Auth.SignInAnonymously], [Auth.SignInWithCustomToken]); nothing here
// mints or signs a token by hand.
package emulator
