package dungeonclient

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// closing is a Watcher that records its Close.
type closing struct{ closed int }

func (w *closing) Next(context.Context, uint64) (*Update, error) { return nil, errors.New("nothing") }
func (w *closing) Close() error                                  { w.closed++; return errors.New("closed") }

// TestCloseStopsTheWatcher: Close closes the client's watcher and returns
// its answer; a client without one has nothing to close.
func TestCloseStopsTheWatcher(t *testing.T) {
	w := &closing{}
	c := &Client{w: w}
	require.EqualError(t, c.Close(), "closed")
	require.Equal(t, 1, w.closed)
	require.NoError(t, (&Client{}).Close())
}
