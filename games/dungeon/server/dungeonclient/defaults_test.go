package dungeonclient

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestRetryPause: the first pause before a retryable call is sent again
// is Config.Retry, 100 ms when it is 0 (never none: a refused call is
// not sent again at once, in a loop).
func TestRetryPause(t *testing.T) {
	require.Equal(t, 100*time.Millisecond, newClient(Config{}).retry())
	require.Equal(t, 7*time.Millisecond, newClient(Config{Retry: 7 * time.Millisecond}).retry())
}
