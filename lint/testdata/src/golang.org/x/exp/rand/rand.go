// Package rand is a stub of golang.org/x/exp/rand.
package rand

func Intn(n int) int { return 0 }
