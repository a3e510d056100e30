// Package myrng is another repository's RNG package, named by -rng and
// allowed by -allow in the flags test.
package myrng

import "crypto/rand"

type Source interface{ Uint32() uint32 }

type Tag string

type Stream struct{ b [4]byte }

func NewStream() *Stream { rand.Read(nil); return &Stream{} }

func (s *Stream) Roll(sides int, tag Tag) int { return 1 }
