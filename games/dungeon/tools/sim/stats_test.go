package sim

import (
	"math"
	"testing"
)

func near(t *testing.T, name string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", name, got, want, tol)
	}
}

// Reference values: Wilson intervals from Newcombe (1998), Table I
// (e.g. 81/263 → 0.2553–0.3662; 0/10 → 0–0.2775; 15/148 → 0.0624–0.1605).
func TestWilsonKnownValues(t *testing.T) {
	cases := []struct {
		k, n   int64
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, c := range cases {
		iv := Wilson(c.k, c.n)
		near(t, "lo", iv.Lo, c.lo, 5e-4)
		near(t, "hi", iv.Hi, c.hi, 5e-4)
	}
	if iv := Wilson(0, 0); iv != (Interval{0, 1}) {
		t.Errorf("Wilson(0,0) = %v, want [0,1]", iv)
	}
}

// Student t 0.975 quantiles from standard tables.
func TestTQuantile(t *testing.T) {
	for df, want := range map[int64]float64{1: 12.706, 10: 2.228, 30: 2.042, 40: 2.0211, 60: 2.0003, 120: 1.9799, 1000: 1.9623} {
		near(t, "t", tQuantile975(df), want, 2e-4)
	}
}

// Survival function of t: P(T > 2.0 | df=10) = 0.03669, P(T > 1.0 | df=5) =
// 0.18161, and the normal's P(Z > 1.96) = 0.02500.
func TestTailProbabilities(t *testing.T) {
	near(t, "tSF(2,10)", tSF(2, 10), 0.036694, 1e-5)
	near(t, "tSF(1,5)", tSF(1, 5), 0.181609, 1e-5)
	near(t, "normalSF(1.96)", normalSF(1.959963984540054), 0.025, 1e-9)
	near(t, "tSF(0,7)", tSF(0, 7), 0.5, 1e-12)
}

func TestMomentsAndCI(t *testing.T) {
	var m Moments
	for _, x := range []int64{2, 4, 4, 4, 5, 5, 7, 9} {
		m.Add(x)
	}
	near(t, "mean", m.Mean(), 5, 1e-12)
	near(t, "var", m.Var(), 32.0/7, 1e-12)
	ci := m.CI() // t(7) = 2.365, se = sqrt(32/7/8)
	half := 2.365 * math.Sqrt(32.0/7/8)
	near(t, "ci.lo", ci.Lo, 5-half, 1e-9)
	near(t, "ci.hi", ci.Hi, 5+half, 1e-9)

	// Merging in any split gives the same accumulator.
	var a, b Moments
	for _, x := range []int64{2, 4, 4} {
		a.Add(x)
	}
	for _, x := range []int64{4, 5, 5, 7, 9} {
		b.Add(x)
	}
	b.Merge(a)
	if b != m {
		t.Errorf("merged %+v, want %+v", b, m)
	}
}

// Two-proportion z-test: 60/100 vs 45/100 → z = 2.1239, p = 0.0337.
func TestDiffRates(t *testing.T) {
	d := DiffRates(60, 100, 45, 100)
	near(t, "delta", d.Delta, -0.15, 1e-12)
	near(t, "p", d.P, 0.03368, 1e-4)
	if !d.Significant {
		t.Error("60/100 vs 45/100 should be significant at 5%")
	}
	if d := DiffRates(50, 100, 52, 100); d.Significant {
		t.Errorf("50/100 vs 52/100 called significant (p=%v)", d.P)
	}
	if d := DiffRates(0, 0, 1, 2); d.Significant || d.P != 1 {
		t.Errorf("empty sample: %+v", d)
	}
}

// Paired differences 1,2,3,4,5: mean 3, sd 1.5811, t = 4.2426 on 4 df,
// two-sided p = 0.01324.
func TestDiffPaired(t *testing.T) {
	var m Moments
	for x := int64(1); x <= 5; x++ {
		m.Add(x)
	}
	d := DiffPaired(m)
	near(t, "delta", d.Delta, 3, 1e-12)
	near(t, "p", d.P, 0.01324, 1e-4)
	if !d.Significant {
		t.Error("want significant")
	}
	var zero Moments
	zero.Add(0)
	zero.Add(0)
	zero.Add(0)
	if d := DiffPaired(zero); d.Significant || d.P != 1 {
		t.Errorf("all-zero differences: %+v", d)
	}
}

func TestHist(t *testing.T) {
	h := NewHist(10)
	for _, v := range []int{1, 2, 2, 3, 3, 3, 4, 4, 4, 4, 15, -1} {
		h.Add(v)
	}
	if h.Total() != 12 || h.Overflow != 1 || h.Counts[0] != 1 || h.Counts[10] != 1 {
		t.Fatalf("hist %+v", h)
	}
	for q, want := range map[float64]int{0: 0, 0.5: 3, 0.9: 4, 0.95: 10, 1: 10} {
		if got := h.Percentile(q); got != want {
			t.Errorf("P%v = %d, want %d", q*100, got, want)
		}
	}
	small := NewHist(3)
	small.Add(1)
	small.Merge(h)
	if small.Total() != 13 || len(small.Counts) != 11 {
		t.Errorf("merge into smaller: %+v", small)
	}
}
