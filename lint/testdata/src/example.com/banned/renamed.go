package banned

import rv2 "math/rand/v2" // want `import of math/rand/v2`

func renamed() int {
	return rv2.IntN(6) // want `use of math/rand/v2.IntN`
}
