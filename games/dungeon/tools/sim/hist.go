package sim

// Hist counts whole-number observations in [0, len(Counts)); larger values
// land in the last bucket (Overflow counts them too). Percentiles are exact
// for values below the last bucket.
type Hist struct {
	Counts   []int64 `json:"counts"`
	Overflow int64   `json:"overflow"`
}

// NewHist returns a histogram of values 0..max (max+1 buckets).
func NewHist(max int) Hist { return Hist{Counts: make([]int64, max+1)} }

// Add counts one observation; negative values count as 0.
func (h *Hist) Add(v int) {
	switch {
	case v < 0:
		v = 0
	case v >= len(h.Counts):
		v = len(h.Counts) - 1
		h.Overflow++
	}
	h.Counts[v]++
}

// Merge adds another histogram's counts; it grows to the larger size.
func (h *Hist) Merge(o Hist) {
	if len(o.Counts) > len(h.Counts) {
		grown := make([]int64, len(o.Counts))
		copy(grown, h.Counts)
		h.Counts = grown
	}
	for i, c := range o.Counts {
		h.Counts[i] += c
	}
	h.Overflow += o.Overflow
}

// Total returns the number of observations.
func (h Hist) Total() int64 {
	var n int64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// Percentile returns the smallest value v such that at least q (0..1) of
// the observations are <= v (the "nearest rank" definition). An empty
// histogram gives 0.
func (h Hist) Percentile(q float64) int {
	n := h.Total()
	if n == 0 {
		return 0
	}
	rank := int64(q * float64(n))
	if float64(rank) < q*float64(n) {
		rank++
	}
	if rank < 1 {
		rank = 1
	}
	var acc int64
	for v, c := range h.Counts {
		acc += c
		if acc >= rank {
			return v
		}
	}
	return len(h.Counts) - 1
}
