// Package chacha stands for an RNG subpackage added later: its constructors
// are matched by their result types, not by their names.
package chacha

import "github.com/fairboard/fairboard/rng"

type HashChain struct{ n uint32 }

func (h *HashChain) Uint32() uint32 { h.n++; return h.n }

func NewHashChain(seed string) *HashChain  { return &HashChain{} }
func NewChaCha20(key [32]byte) *rng.Stream { return rng.New(&HashChain{}) }
func KeyFrom(seed string) [32]byte         { return [32]byte{} }
