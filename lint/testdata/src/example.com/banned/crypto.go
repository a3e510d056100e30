package banned

import (
	crand "crypto/rand" // want `import of crypto/rand outside the RNG package \(its entropy reaches the game only through rng.NewCrypto\)`
	"hash/maphash"      // want `import of hash/maphash`

	xrand "golang.org/x/exp/rand" // want `import of golang.org/x/exp/rand`
)

func token() []byte {
	b := make([]byte, 16)
	crand.Read(b) // want `use of crypto/rand.Read`
	return b
}

func hashed(s string) uint64 {
	return maphash.String(maphash.MakeSeed(), s) // want `use of hash/maphash.String` `use of hash/maphash.MakeSeed`
}

func exp() int {
	return xrand.Intn(3) // want `use of golang.org/x/exp/rand.Intn`
}
