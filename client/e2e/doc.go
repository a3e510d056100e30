// Package e2e holds the end-to-end tests of the dungeon's trustless games
// (they have no code of their own): whole games of 2, 4 and 6 bot
// players, each its own client (games/dungeon/server/dungeonclient,
// watching through a Firestore listener, dungeonclient/fswatch, or
// polling getView), through the real functions on the Firestore and Auth
// emulators, which the tests start (under CI=true a missing emulator
// fails them). After every action of every game, nothing any player can
// read tells an outcome before its reveal round completes; a finished
// game exports and verifies.
package e2e
