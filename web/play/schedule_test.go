package play_test

import (
	"flag"
	"testing"
	"time"
)

// The page tests run in parallel, scheduled here rather than by go
// test's -parallel: at most pageSlots at once (the package's CI machine
// has two cores; a page test spends most of its time waiting on a page,
// a poll or the emulators), and of those at most one that plays on the
// emulators, so that no two emulator games compete for the one Firestore
// emulator: two side by side on a loaded machine were seen to stall a
// page's listener past the Firestore SDK's 10 s warning, and
// TestWholeGamesInChromium's console check fails on that warning. Tests
// on the in-memory store run beside them.
const pageSlots = 2

var (
	pageTurns     = make(chan struct{}, pageSlots)
	emulatorTurns = make(chan struct{}, 1)
)

// pageTest makes t a parallel page test and waits for its turn: a page
// slot, and the emulator slot first when onEmulators. Both are given back
// when the test ends; the test logs how long it waited (go test's
// duration of a test includes the wait) and how long it then ran, its
// cleanups included ("ran 1m2.345s on its turn": the figure to compare
// tests by, and for an emulator test its share of the package's wall
// time, since those run one at a time). A test whose subtests are page
// tests calls t.Parallel itself and leaves the slots to them.
func pageTest(t *testing.T, onEmulators bool) {
	t.Helper()
	t.Parallel()
	start := time.Now()
	defer func() { t.Logf("waited %v for its turn", time.Since(start).Round(time.Millisecond)) }()
	if onEmulators {
		emulatorTurns <- struct{}{}
		t.Cleanup(func() { <-emulatorTurns })
	}
	pageTurns <- struct{}{}
	t.Cleanup(func() { <-pageTurns })
	turn := time.Now()
	t.Cleanup(func() { t.Logf("ran %v on its turn", time.Since(turn).Round(time.Millisecond)) })
}

// raiseParallel lifts go test's -parallel (GOMAXPROCS by default) when it
// was not given, so that a test waiting in pageTest for the emulator slot
// does not hold one of go test's few slots while a test on the in-memory
// store could run: pageTest bounds the page tests.
func raiseParallel() {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", "16")
	}
}
