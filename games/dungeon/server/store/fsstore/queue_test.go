package fsstore

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// One request per game at a time; other games do not wait; a request
// whose context ends while it waits holds nothing; no entry outlives its
// requests.
func TestGameQueue(t *testing.T) {
	var q gameQueue
	ctx := context.Background()
	var inside, most atomic.Int64
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			release, err := q.acquire(ctx, "g")
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
			release()
		})
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d requests held game g at once; want 1", most.Load())
	}

	hold, err := q.acquire(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	other, err := q.acquire(ctx, "h") // another game: no wait
	if err != nil {
		t.Fatal(err)
	}
	other()
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := q.acquire(short, "g"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("acquire of a held game with a short context = %v; want its deadline", err)
	}
	hold()
	q.mu.Lock()
	left := len(q.m)
	q.mu.Unlock()
	if left != 0 {
		t.Errorf("%d entries left after every request released", left)
	}
}

// pause(n) is in [d/2, d) with d = min(20 ms * 2^(n-1), 1 s), and varies.
func TestPause(t *testing.T) {
	for n := 1; n <= 12; n++ {
		d := min(backoffBase<<min(n-1, 10), backoffMax)
		seen := map[time.Duration]bool{}
		for range 50 {
			p := pause(n)
			if p < d/2 || p >= d {
				t.Fatalf("pause(%d) = %v; want in [%v, %v)", n, p, d/2, d)
			}
			seen[p] = true
		}
		if len(seen) < 10 {
			t.Errorf("pause(%d) took %d values in 50 calls; the jitter does not vary", n, len(seen))
		}
	}
}
