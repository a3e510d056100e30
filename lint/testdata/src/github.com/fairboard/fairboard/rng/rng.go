// Package rng is a stub of the engine's RNG with the real package's API
// shapes, for the analyzer's tests.
package rng

import "time"

type Source interface{ Uint32() uint32 }

type Tag string

const TagMoveRoll Tag = "move.roll"

type Ctx struct{ DeckID string }

type Option func(*Stream)

type Drawer interface {
	UniformInt(min, max int64, tag Tag, ctx *Ctx) (int64, error)
}

type Stream struct{ src Source }

type SFC32 struct{ a, b, c, d uint32 }

func (s *SFC32) Uint32() uint32 { s.a++; return s.a }

func NewSFC32(a, b, c, d uint32) *SFC32                               { return &SFC32{a, b, c, d} }
func SeedSFC32(seed string) (*SFC32, error)                           { return &SFC32{}, nil }
func NewSeeded(seed string, opts ...Option) (*Stream, error)          { return &Stream{}, nil }
func NewCrypto(opts ...Option) *Stream                                { return &Stream{src: NewCryptoSource()} }
func New(src Source, opts ...Option) *Stream                          { return &Stream{src: src} }
func NewRelay(d Drawer, mode string, tag Tag, opts ...Option) *Stream { return &Stream{} }
func Restore(state, seed string, opts ...Option) (*Stream, error)     { return &Stream{}, nil }
func Cyrb128(s string) ([4]uint32, error)                             { return [4]uint32{}, nil }
func InitShuffleTag(deckID string) Tag                                { return Tag(deckID) }

func (s *Stream) Uint32(tag Tag, ctx *Ctx) uint32                             { return s.src.Uint32() }
func (s *Stream) Float01(tag Tag, ctx *Ctx) float64                           { return 0 }
func (s *Stream) UniformInt(min, max int64, tag Tag, ctx *Ctx) (int64, error) { return min, nil }
func (s *Stream) Dice(sides int, tag Tag, ctx *Ctx) (int, error)              { return 1, nil }
func (s *Stream) State() (string, error)                                      { return "", nil }
func (s *Stream) Seq() uint64                                                 { return 0 }

func ChooseOne[T any](s *Stream, arr []T, tag Tag, ctx *Ctx) (T, int, error) { return arr[0], 0, nil }
func Shuffle[T any](s *Stream, arr []T, tag Tag, ctx *Ctx)                   {}

// The clock rule applies inside the RNG package too.
func clockSeeded() (*Stream, error) {
	return NewSeeded(time.Now().String()) // want `the clock is not a seed \(it flows into rng.NewSeeded\)`
}
