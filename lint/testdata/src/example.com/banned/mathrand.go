// Package banned uses every banned package outside the allow-list.
package banned

import "math/rand" // want `import of math/rand outside the RNG package .*: use the injected \*rng.Stream`

func roll() int {
	return rand.Intn(6) + 1 // want `use of math/rand.Intn outside the RNG package`
}

// A method reached through a value is a use of the package too.
func viaValue(r *rand.Rand) int { // want `use of math/rand.Rand`
	return r.Intn(6) // want `use of math/rand.Intn`
}
