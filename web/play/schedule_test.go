package play_test

import (
	"flag"
	"sync"
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
//
// The emulator tests, one at a time, are the package's critical path, so
// one of the slots is kept for them: while an emulator test waits and
// none runs, the tests on the in-memory store take at most pageSlots-1
// slots. (With two channels, one per kind of slot, an emulator test that
// had just taken the emulator slot waited for a page slot behind the
// in-memory tests queued there, each time one emulator test followed
// another.)
const pageSlots = 2

// turns is the schedule's state, guarded by its mutex; free is signalled
// whenever a test gives its slots back or starts waiting.
var turns struct {
	sync.Mutex
	free                *sync.Cond
	running, emuWaiting int
	emuRunning          bool
}

func init() { turns.free = sync.NewCond(&turns.Mutex) }

// pageTest makes t a parallel page test and waits for its turn: a page
// slot, and the emulator slot too when onEmulators. Both are given back
// when the test ends; the test logs how long it waited (go test's
// duration of a test includes the wait) and how long it then ran, its
// cleanups included ("ran 1m2.345s on its turn": the figure to compare
// tests by, and for an emulator test its share of the package's wall
// time, since those run one at a time). A test whose subtests are page
// tests calls t.Parallel itself and leaves the slots to them.
func pageTest(t *testing.T, onEmulators bool) {
	t.Helper()
	pageTestAfter(t, onEmulators, nil)
}

// pageTestAfter is pageTest with prep (if not nil) run first, once the
// test runs in parallel and before it waits for its turn: work that needs
// neither a page nor the emulators (a build of a test variant of the
// page) then runs beside the other page tests rather than while the test
// holds the emulator slot, which the emulator tests take one at a time.
func pageTestAfter(t *testing.T, onEmulators bool, prep func()) {
	t.Helper()
	t.Parallel()
	if prep != nil {
		prep()
	}
	start := time.Now()
	takeTurn(onEmulators)
	t.Cleanup(func() { giveTurn(onEmulators) })
	t.Logf("waited %v for its turn", time.Since(start).Round(time.Millisecond))
	turn := time.Now()
	t.Cleanup(func() { t.Logf("ran %v on its turn", time.Since(turn).Round(time.Millisecond)) })
}

// takeTurn waits for a page slot, and the emulator slot when onEmulators;
// a test on the in-memory store leaves the last free slot to an emulator
// test that waits while none runs.
func takeTurn(onEmulators bool) {
	turns.Lock()
	defer turns.Unlock()
	if onEmulators {
		turns.emuWaiting++
		for turns.emuRunning || turns.running >= pageSlots {
			turns.free.Wait()
		}
		turns.emuWaiting--
		turns.emuRunning = true
	} else {
		for turns.running >= pageSlots || (turns.running == pageSlots-1 && turns.emuWaiting > 0 && !turns.emuRunning) {
			turns.free.Wait()
		}
	}
	turns.running++
}

// giveTurn gives back what takeTurn took.
func giveTurn(onEmulators bool) {
	turns.Lock()
	defer turns.Unlock()
	turns.running--
	if onEmulators {
		turns.emuRunning = false
	}
	turns.free.Broadcast()
}

// raiseParallel lifts go test's -parallel (GOMAXPROCS by default) when it
// was not given, above the package's count of page tests, so that every
// page test waits in pageTest, none for one of go test's slots: tests
// waiting there for the emulator slot then hold none of the slots a test
// on the in-memory store could run in. pageTest bounds the page tests.
func raiseParallel() {
	if !flag.Parsed() {
		flag.Parse()
	}
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", "128")
	}
}
