package client

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDefaultHTTPTimeout: Functions without an HTTP client use one with
// a 60 s timeout, as its doc says.
func TestDefaultHTTPTimeout(t *testing.T) {
	require.Equal(t, 60*time.Second, defaultHTTP.Timeout)
}
