package banned

import . "math/rand" // want `import of math/rand`

func dotted() int {
	return Intn(6) // want `use of math/rand.Intn`
}
