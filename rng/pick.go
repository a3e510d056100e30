package rng

import (
	"fmt"
	"math"
)

// ChooseOne returns a uniformly chosen element of arr and its index:
// arr[uniformInt(0, len(arr)-1)]. Callers that need a deterministic choice
// across clients must order arr canonically first (the spec sorts tied uids
// ascending). The audit entry is kind "sample" with N and Index. It returns
// an error wrapping [ErrRange] if arr is empty or longer than 2^32.
func ChooseOne[T any](s *Stream, arr []T, tag Tag, ctx *Ctx) (T, int, error) {
	var zero T
	if len(arr) == 0 {
		return zero, 0, fmt.Errorf("%w: cannot choose one of no items", ErrRange)
	}
	if uint64(len(arr)) > MaxSpan {
		return zero, 0, fmt.Errorf("%w: cannot choose among %d items (at most 2^32)", ErrRange, len(arr))
	}
	i := int(s.uniform(uint64(len(arr))))
	s.seq++
	if s.aud != nil {
		s.record(tag, ctx, KindSample, Data{Op: OpChooseOne, N: len(arr), Index: i})
	}
	return arr[i], i, nil
}

// Weighted is an item with its weight. Weights are whole numbers, as the
// spec's tables are: finite, > 0 and integral, their sum at most 2^32.
type Weighted[T any] struct {
	Item   T
	Weight float64
}

// Pick is the outcome of [WeightedPick]: the chosen index and item, and R,
// the raw draw in [0, sum) that chose it.
type Pick[T any] struct {
	Index int
	Item  T
	R     int64
}

// WeightedPick draws r = uniformInt(0, sum-1) and returns the first item
// whose running weight total exceeds r, as the spec's weightedPick does. The
// audit entry is kind "weighted" with the weights, r and the index.
//
// It returns an error wrapping [ErrRange], naming the offending weight, if
// items is empty or any weight is NaN, infinite, <= 0 or not a whole number,
// or if the sum exceeds 2^32 (the span one 32-bit draw can cover).
func WeightedPick[T any](s *Stream, items []Weighted[T], tag Tag, ctx *Ctx) (Pick[T], error) {
	sum, err := weightSum(items)
	if err != nil {
		return Pick[T]{}, err
	}
	r := int64(s.uniform(sum))
	idx, acc := len(items)-1, int64(0)
	for i := range items {
		acc += int64(items[i].Weight)
		if r < acc {
			idx = i
			break
		}
	}
	s.seq++
	if s.aud != nil {
		w := make([]float64, len(items))
		for i := range items {
			w[i] = items[i].Weight
		}
		s.record(tag, ctx, KindWeighted, Data{Weights: w, R: r, Index: idx})
	}
	return Pick[T]{Index: idx, Item: items[idx].Item, R: r}, nil
}

// weightSum validates the weights and returns their sum.
func weightSum[T any](items []Weighted[T]) (uint64, error) {
	if len(items) == 0 {
		return 0, fmt.Errorf("%w: cannot pick from no weighted items", ErrRange)
	}
	var sum uint64
	for i := range items {
		w := items[i].Weight
		switch {
		case math.IsNaN(w) || math.IsInf(w, 0):
			return 0, fmt.Errorf("%w: weight %d is %v; weights must be finite", ErrRange, i, w)
		case w <= 0:
			return 0, fmt.Errorf("%w: weight %d is %v; weights must be > 0", ErrRange, i, w)
		case w != math.Trunc(w):
			return 0, fmt.Errorf("%w: weight %d is %v; weights must be whole numbers", ErrRange, i, w)
		case w > MaxSpan:
			return 0, fmt.Errorf("%w: weight %d is %v; the sum of weights must be at most 2^32", ErrRange, i, w)
		}
		sum += uint64(w)
		if sum > MaxSpan {
			return 0, fmt.Errorf("%w: the weights up to index %d sum past 2^32", ErrRange, i)
		}
	}
	return sum, nil
}

// previewLen is how many items a shuffle's audit entry previews.
const previewLen = 3

// Shuffle permutes arr in place by Fisher-Yates from the end: for i from
// len(arr)-1 down to 1, j = uniformInt(0, i), swap arr[i] and arr[j]. It is
// one audit entry of kind "shuffle" with ctx.DeckID, the size and the first
// three items after the shuffle (formatted with %v). Shuffles of more than
// 2^32 items are not supported and panic; no deck comes near.
func Shuffle[T any](s *Stream, arr []T, tag Tag, ctx *Ctx) {
	if uint64(len(arr)) > MaxSpan {
		panic("rng: Shuffle of more than 2^32 items")
	}
	i := len(arr) - 1
	if g := s.sfc; g != nil {
		// uniform's own path for sfc32, inlined: no call per swap once the
		// span is within the table.
		for ; i >= smallSpan; i-- {
			j := s.uniform(uint64(i) + 1)
			arr[i], arr[j] = arr[j], arr[i]
		}
		for ; i > 0; i-- {
			j := drawSmall(g, uint64(i)+1)
			arr[i], arr[j] = arr[j], arr[i]
		}
	}
	for ; i > 0; i-- {
		j := s.uniform(uint64(i) + 1)
		arr[i], arr[j] = arr[j], arr[i]
	}
	s.seq++
	if s.aud != nil {
		d := Data{Size: len(arr)}
		if ctx != nil {
			d.DeckID = ctx.DeckID
		}
		n := min(previewLen, len(arr))
		d.HeadPreview = make([]string, n)
		for i := range n {
			d.HeadPreview[i] = fmt.Sprint(arr[i])
		}
		s.record(tag, ctx, KindShuffle, d)
	}
}
