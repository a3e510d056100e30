package rng

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Stream is the engine's RNG: a [Source] plus tags, contexts, a sequence
// number and an optional [Auditor]. Reducers receive a Stream; they never
// build one.
//
// Every method consumes entropy in exactly the spec's way (see each method),
// increments the sequence number once and, if an auditor is set, records one
// [Entry]. With no auditor, no method allocates.
//
// A Stream is not safe for concurrent use.
type Stream struct {
	sfc  *SFC32 // the source when it is sfc32: a direct, inlinable call
	src  Source // the source otherwise
	mode Mode
	seed string
	seq  uint64
	aud  Auditor
}

// Option configures a new [Stream].
type Option func(*Stream)

// WithAuditor sets the auditor that receives every entry.
func WithAuditor(a Auditor) Option { return func(s *Stream) { s.aud = a } }

// WithSeq starts the sequence number at seq (the count of entries already
// recorded in the game), so that a resumed stream continues the numbering.
func WithSeq(seq uint64) Option { return func(s *Stream) { s.seq = seq } }

// NewSeeded returns the spec's seeded stream: sfc32 seeded by cyrb128(seed).
// It fails only if seed is not valid UTF-8.
func NewSeeded(seed string, opts ...Option) (*Stream, error) {
	src, err := SeedSFC32(seed)
	if err != nil {
		return nil, err
	}
	s := newStream(src, ModeSeeded, opts)
	s.seed = seed
	return s, nil
}

// NewCrypto returns a stream that draws from crypto/rand: the only mode for
// real games.
func NewCrypto(opts ...Option) *Stream {
	return newStream(NewCryptoSource(), ModeCrypto, opts)
}

// New returns a stream over any source. Its mode is "crypto" if src is a
// [*CryptoSource] and "seeded" otherwise.
func New(src Source, opts ...Option) *Stream {
	mode := ModeSeeded
	if _, ok := src.(*CryptoSource); ok {
		mode = ModeCrypto
	}
	return newStream(src, mode, opts)
}

// Restore resumes a seeded stream from a state saved by [Stream.State]. The
// seed is kept for reference only (it does not affect the stream); pass
// [WithSeq] to continue the numbering. It returns an error naming what is
// wrong if state is not a valid saved state.
func Restore(state, seed string, opts ...Option) (*Stream, error) {
	var src SFC32
	if err := src.UnmarshalText([]byte(state)); err != nil {
		return nil, err
	}
	s := newStream(&src, ModeSeeded, opts)
	s.seed = seed
	return s, nil
}

// NewFair returns the fair-mode stream of gameSeed: the spec's arithmetic
// (the same UniformInt, Dice, Shuffle, WeightedPick and ChooseOne as seeded
// mode) over the words of ADR-005's ChaCha20 keystream (key =
// SHA-256(gameSeed), zero nonce, block counter 0), each word the next 4
// keystream bytes big-endian ([ChaCha20.Uint32]). [Stream.Seed] returns
// gameSeed in lower-case hex. Save it with [Stream.State] and resume it
// with [RestoreFair].
func NewFair(gameSeed []byte, opts ...Option) *Stream {
	s := newStream(NewChaCha20(gameSeed), ModeFair, opts)
	s.seed = hex.EncodeToString(gameSeed)
	return s
}

// fairStatePrefix starts a fair stream's saved state: "chacha20:" then the
// keystream byte offset in decimal.
const fairStatePrefix = "chacha20:"

// RestoreFair resumes the fair stream of gameSeed from a state saved by
// [Stream.State] ("chacha20:<offset>", the number of keystream bytes read),
// or starts it fresh if state is "". It seeks by block counter
// ([SeekChaCha20]): the cost does not grow with the offset. It returns an
// error naming the problem if state is not a valid saved state.
func RestoreFair(gameSeed []byte, state string, opts ...Option) (*Stream, error) {
	if state == "" {
		return NewFair(gameSeed, opts...), nil
	}
	num, ok := strings.CutPrefix(state, fairStatePrefix)
	if !ok {
		return nil, fmt.Errorf("rng: fair state %q does not start with %q", state, fairStatePrefix)
	}
	off, err := strconv.ParseUint(num, 10, 64)
	if err != nil || (len(num) > 1 && num[0] == '0') {
		return nil, fmt.Errorf("rng: fair state %q: the offset is not a decimal count of bytes", state)
	}
	src, err := SeekChaCha20(gameSeed, off)
	if err != nil {
		return nil, fmt.Errorf("rng: fair state %q: %w", state, err)
	}
	s := newStream(src, ModeFair, opts)
	s.seed = hex.EncodeToString(gameSeed)
	return s, nil
}

func newStream(src Source, mode Mode, opts []Option) *Stream {
	s := &Stream{src: src, mode: mode}
	if sfc, ok := src.(*SFC32); ok {
		s.sfc = sfc
	}
	for _, o := range opts {
		o(s)
	}
	return s
}

// ErrNotSavable is returned by [Stream.State] for a source whose state cannot
// be saved, such as crypto/rand.
var ErrNotSavable = errors.New("rng: this stream's source cannot save its state")

// State returns the source's saved state, a short text that names its
// algorithm: "sfc32:<32 hex digits>" (the generator's words), or for a
// ChaCha20 source "chacha20:<offset>" (the keystream bytes read; the key is
// not part of it). Crypto streams return [ErrNotSavable].
func (s *Stream) State() (string, error) {
	if c, ok := s.src.(*ChaCha20); ok {
		return fairStatePrefix + strconv.FormatUint(c.Offset(), 10), nil
	}
	m, ok := s.src.(interface{ MarshalText() ([]byte, error) })
	if !ok {
		return "", ErrNotSavable
	}
	b, err := m.MarshalText()
	return string(b), err
}

// Mode returns "crypto", "seeded" or "fair".
func (s *Stream) Mode() Mode { return s.mode }

// Seed returns the seed of a seeded stream, the game seed in lower-case hex
// of a fair stream, or "" if it has none.
func (s *Stream) Seed() string { return s.seed }

// Seq returns the number of consumptions so far, which is also the seq of
// the last audit entry (the first entry has seq 1).
func (s *Stream) Seq() uint64 { return s.seq }

// SetAuditor replaces the auditor; nil turns auditing off.
func (s *Stream) SetAuditor(a Auditor) { s.aud = a }

// next returns the next raw word.
func (s *Stream) next() uint32 {
	if s.sfc != nil {
		return s.sfc.Uint32()
	}
	return s.src.Uint32()
}

// record counts one consumption and hands its entry to the auditor.
func (s *Stream) record(tag Tag, ctx *Ctx, kind Kind, data Data) {
	if ctx == nil {
		s.aud.Record(Entry{Seq: s.seq, Tag: tag, Kind: kind, Data: data})
		return
	}
	s.aud.Record(Entry{Seq: s.seq, Tag: tag, Ctx: *ctx, Kind: kind, Data: data})
}

// Uint32 returns one raw 32-bit word (the spec's nextUint32).
func (s *Stream) Uint32(tag Tag, ctx *Ctx) uint32 {
	u := s.next()
	s.seq++
	if s.aud != nil {
		s.record(tag, ctx, KindSample, Data{Op: OpUint32, Value: int64(u)})
	}
	return u
}

// Float01 returns a float in [0, 1): one word divided by 2^32, as the spec's
// JavaScript sfc32 returns it.
func (s *Stream) Float01(tag Tag, ctx *Ctx) float64 {
	f := float64(s.next()) / (1 << 32)
	s.seq++
	if s.aud != nil {
		s.record(tag, ctx, KindSample, Data{Op: OpFloat01, Float: f})
	}
	return f
}

// ErrRange is wrapped by every error about a bad range, count or weight.
var ErrRange = errors.New("rng: invalid range")

// MaxSpan is the largest number of values UniformInt can choose among: the
// spec draws 32-bit words, so max-min+1 must be at most 2^32.
const MaxSpan = 1 << 32

// UniformInt returns an unbiased integer in [min, max] by the spec's
// rejection sampling: n = max-min+1, limit = floor(2^32/n)*n, draw words
// until u < limit, return min + u%n. It returns an error wrapping [ErrRange]
// if min > max or the span exceeds [MaxSpan].
func (s *Stream) UniformInt(min, max int64, tag Tag, ctx *Ctx) (int64, error) {
	n, err := span(min, max)
	if err != nil {
		return 0, err
	}
	v := min + int64(s.uniform(n))
	s.seq++
	if s.aud != nil {
		s.record(tag, ctx, KindSample, Data{Op: OpInt, Min: min, Max: max, Value: v})
	}
	return v, nil
}

// span returns max-min+1 as an unsigned count, checked.
func span(min, max int64) (uint64, error) {
	if min > max {
		return 0, fmt.Errorf("%w: min %d > max %d", ErrRange, min, max)
	}
	n := uint64(max-min) + 1 // max-min fits in uint64 even when it overflows int64
	if n == 0 || n > MaxSpan {
		return 0, fmt.Errorf("%w: [%d, %d] spans more than 2^32 values", ErrRange, min, max)
	}
	return n, nil
}

// DiceRoll is the outcome of a die: Value in 1..Sides. Modifiers and totals
// belong to the log, not to the RNG.
type DiceRoll struct {
	Sides int `json:"sides"`
	Value int `json:"value"`
}

// Dice rolls a die with 1 to 2^32 sides (to the largest int on 32-bit
// platforms): uniformInt(1, sides), so Value is in [1, sides]. It returns an
// error wrapping [ErrRange] if sides < 1 or sides > 2^32.
func (s *Stream) Dice(sides int, tag Tag, ctx *Ctx) (DiceRoll, error) {
	var v int
	if g := s.sfc; g != nil && sides >= 2 && sides <= smallSpan {
		v = 1 + int(drawSmall(g, uint64(sides))) // uniform's own path, inlined
	} else {
		if sides < 1 || int64(sides) > MaxSpan {
			return DiceRoll{}, fmt.Errorf("%w: a die needs 1 to 2^32 sides, not %d", ErrRange, sides)
		}
		v = 1 + int(s.uniform(uint64(sides)))
	}
	s.seq++
	if s.aud != nil {
		s.record(tag, ctx, KindDice, Data{Sides: sides, Value: int64(v)})
	}
	return DiceRoll{Sides: sides, Value: v}, nil
}
