package reducers

import (
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// Tests are the caller: they build streams and may range over tables.
func TestSetup(t *testing.T) {
	s, _ := rng.NewSeeded("test")
	for name, deck := range map[string][]string{"a": {"x", "y"}} {
		_ = name
		Setup(s, deck)
	}
}
