package banned

import (
	"math/rand/v2" // want `import of math/rand/v2`
	"testing"
)

// Tests are checked like any other code: a test that bypasses the RNG
// cannot be replayed.
func TestRoll(t *testing.T) {
	if rand.IntN(2) > 5 { // want `use of math/rand/v2.IntN`
		t.Fatal("impossible")
	}
}
