//go:build race

package store_test

// raceEnabled: the race detector is on (it slows the whole-game tests
// about tenfold, so they play fewer games under it).
const raceEnabled = true
