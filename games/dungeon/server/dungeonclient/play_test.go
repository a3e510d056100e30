package dungeonclient

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// quiet is a Watcher with nothing new to show: Next waits for its
// context's end, and after 100 calls gives up with errLooped.
type quiet struct{ calls int }

var errLooped = errors.New("Next called 100 times")

func (w *quiet) Next(ctx context.Context, _ uint64) (*Update, error) {
	w.calls++
	if w.calls >= 100 {
		return nil, errLooped
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

func (w *quiet) Close() error { return nil }

// TestPlayEndsWithItsContext: Play waits for news a resync at a time and
// goes on after a resync that passed with nothing new (not tested here:
// it takes 5 s); but a deadline that is the caller's own context's ends
// Play with its error at once, not as a resync to wait again.
func TestPlayEndsWithItsContext(t *testing.T) {
	_, _, seats := honest(t)
	c := seated(t, seats[1])
	w := &quiet{}
	c.w = w
	ctx, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	err := c.Play(ctx, nil, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Equal(t, 1, w.calls)
}
