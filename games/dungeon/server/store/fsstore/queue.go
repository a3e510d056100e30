package fsstore

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// gameQueue lets one transaction per game run at a time from this
// process. Actions on one game serialize on its document anyway; letting
// a process's requests race each other only makes them abort each other
// (production Firestore) or wait on each other's locks (the emulator,
// which locks pessimistically). Queued here, a request whose action was
// applied while it waited finds the record with its first read instead.
// Entries exist only while a request holds or waits for them.
type gameQueue struct {
	mu sync.Mutex
	m  map[string]*gameSlot
}

type gameSlot struct {
	turn chan struct{} // capacity 1: full while a request holds the game
	refs int           // holders and waiters (guarded by gameQueue.mu)
}

// acquire waits for the game's turn. It returns the release function, or
// the context's error (nothing held then).
func (q *gameQueue) acquire(ctx context.Context, gameID string) (release func(), err error) {
	q.mu.Lock()
	if q.m == nil {
		q.m = map[string]*gameSlot{}
	}
	sl := q.m[gameID]
	if sl == nil {
		sl = &gameSlot{turn: make(chan struct{}, 1)}
		q.m[gameID] = sl
	}
	sl.refs++
	q.mu.Unlock()
	drop := func() {
		q.mu.Lock()
		if sl.refs--; sl.refs == 0 {
			delete(q.m, gameID)
		}
		q.mu.Unlock()
	}
	select {
	case sl.turn <- struct{}{}:
	case <-ctx.Done():
		drop()
		return nil, ctx.Err()
	}
	return func() { <-sl.turn; drop() }, nil
}

// Backoff between transaction attempts: exponential from backoffBase,
// capped at backoffMax, with jitter so that contenders (other processes)
// do not retry in step.
const (
	backoffBase = 20 * time.Millisecond
	backoffMax  = 1 * time.Second
)

// pause returns the wait before retry number n (n >= 1): a duration
// drawn evenly from [d/2, d) with d = min(backoffBase * 2^(n-1),
// backoffMax).
func pause(n int) time.Duration {
	d := backoffMax
	if n <= 6 {
		d = min(backoffBase<<(n-1), backoffMax)
	}
	return d/2 + time.Duration(jitter()*float64(d/2))
}

// jitterState feeds jitter. Backoff jitter only has to differ between
// concurrent callers and over time; it decides nothing in a game, so it
// is a hash of a counter and the clock rather than a draw (every random
// decision of a game goes through package rng; see docs/lint.md).
var jitterState atomic.Uint64

// jitter returns a number in [0, 1) that differs from call to call.
func jitter() float64 {
	x := jitterState.Add(0x9e3779b97f4a7c15) ^ uint64(time.Now().UnixNano())
	// splitmix64's finalizer.
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// sleep waits d or until ctx ends (its error then).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
