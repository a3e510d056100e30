package sim

import "math"

// z975 is the 0.975 quantile of the standard normal: the half-width factor
// of a two-sided 95% interval.
const z975 = 1.959963984540054

// Interval is a two-sided 95% confidence interval [Lo, Hi].
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Wilson returns the Wilson score 95% interval of a proportion of k
// successes in n trials (Wilson 1927; Agresti & Coull 1998 recommend it over
// the normal "Wald" interval, which collapses at 0 and 1). n == 0 gives the
// uninformative [0, 1].
func Wilson(k, n int64) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	p := float64(k) / float64(n)
	nf := float64(n)
	z2 := z975 * z975
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z975 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return Interval{math.Max(0, centre-half), math.Min(1, centre+half)}
}

// Moments accumulates a sample of whole numbers exactly: count, sum and sum
// of squares as integers, so that accumulators merged in any order (workers,
// shards) give bit-identical results.
type Moments struct {
	N     int64 `json:"n"`
	Sum   int64 `json:"sum"`
	SumSq int64 `json:"sumSq"`
}

// Add adds one observation.
func (m *Moments) Add(x int64) {
	m.N++
	m.Sum += x
	m.SumSq += x * x
}

// Merge adds another accumulator's observations.
func (m *Moments) Merge(o Moments) {
	m.N += o.N
	m.Sum += o.Sum
	m.SumSq += o.SumSq
}

// Mean returns the sample mean (0 for an empty sample).
func (m Moments) Mean() float64 {
	if m.N == 0 {
		return 0
	}
	return float64(m.Sum) / float64(m.N)
}

// Var returns the unbiased sample variance (0 when N < 2).
func (m Moments) Var() float64 {
	if m.N < 2 {
		return 0
	}
	n := float64(m.N)
	// Sum and SumSq are exact integers; the subtraction is done in float64
	// on exact inputs, so it is the same for every merge order.
	v := (float64(m.SumSq) - float64(m.Sum)*float64(m.Sum)/n) / (n - 1)
	return math.Max(0, v)
}

// CI returns the 95% Student-t interval of the mean. With N < 2 the
// interval is the mean itself (nothing is known of the spread).
func (m Moments) CI() Interval {
	mean := m.Mean()
	if m.N < 2 {
		return Interval{mean, mean}
	}
	half := tQuantile975(m.N-1) * math.Sqrt(m.Var()/float64(m.N))
	return Interval{mean - half, mean + half}
}

// tQuantile975 returns the 0.975 quantile of Student's t with df degrees of
// freedom: exact table values for df <= 30, and beyond it the Cornish-Fisher
// expansion in 1/df (Abramowitz & Stegun 26.7.5), accurate to 1e-4 there.
func tQuantile975(df int64) float64 {
	table := [...]float64{0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < 1 {
		return math.Inf(1)
	}
	if df < int64(len(table)) {
		return table[df]
	}
	z := z975
	n := float64(df)
	g1 := (z*z*z + z) / 4
	g2 := (5*math.Pow(z, 5) + 16*z*z*z + 3*z) / 96
	g3 := (3*math.Pow(z, 7) + 19*math.Pow(z, 5) + 17*z*z*z - 15*z) / 384
	return z + g1/n + g2/(n*n) + g3/(n*n*n)
}

// Diff is the test of one measure's difference between two rulesets: B -
// A, its 95% interval, the two-sided p-value, whether that p-value alone is
// below 5% (before any multiple-comparison correction), and the test's
// name.
type Diff struct {
	Delta       float64  `json:"delta"`
	CI          Interval `json:"ci"`
	P           float64  `json:"p"`
	Significant bool     `json:"significant"`
	Test        string   `json:"test,omitempty"`
}

// DiffRates compares two proportions k1/n1 (A) and k2/n2 (B): the difference
// with its unpooled (Wald) interval and the pooled two-proportion z-test.
// Under common random numbers the two samples are positively correlated, so
// treating them as independent is conservative: a difference called
// significant here is significant.
func DiffRates(k1, n1, k2, n2 int64) Diff {
	if n1 == 0 || n2 == 0 {
		return Diff{P: 1}
	}
	p1, p2 := float64(k1)/float64(n1), float64(k2)/float64(n2)
	d := p2 - p1
	se := math.Sqrt(p1*(1-p1)/float64(n1) + p2*(1-p2)/float64(n2))
	pool := float64(k1+k2) / float64(n1+n2)
	sePool := math.Sqrt(pool * (1 - pool) * (1/float64(n1) + 1/float64(n2)))
	p := 1.0
	if sePool > 0 {
		p = 2 * normalSF(math.Abs(d)/sePool)
	} else if d != 0 {
		p = 0
	}
	return Diff{Delta: d, CI: Interval{d - z975*se, d + z975*se}, P: p, Significant: p < 0.05}
}

// DiffPaired compares two rulesets on a per-game measure observed on the
// same seeds: m holds the per-game differences B - A. The paired t-test
// exploits the common random numbers, so it detects smaller changes than an
// unpaired test would.
func DiffPaired(m Moments) Diff {
	mean := m.Mean()
	if m.N < 2 {
		return Diff{Delta: mean, CI: Interval{mean, mean}, P: 1}
	}
	se := math.Sqrt(m.Var() / float64(m.N))
	ci := m.CI()
	p := 1.0
	switch {
	case se > 0:
		p = 2 * tSF(math.Abs(mean)/se, m.N-1)
	case mean != 0:
		p = 0
	}
	return Diff{Delta: mean, CI: ci, P: p, Significant: p < 0.05}
}

// normalSF is the standard normal survival function P(Z > x).
func normalSF(x float64) float64 { return 0.5 * math.Erfc(x/math.Sqrt2) }

// tSF is Student's t survival function P(T > x) for df degrees of freedom,
// through the regularised incomplete beta function: P(T > x) =
// I_{df/(df+x^2)}(df/2, 1/2) / 2.
func tSF(x float64, df int64) float64 {
	if df > 1000 {
		return normalSF(x)
	}
	v := float64(df)
	return 0.5 * regIncBeta(v/(v+x*x), v/2, 0.5)
}

// regIncBeta is the regularised incomplete beta function I_x(a, b), by the
// continued fraction of Numerical Recipes (Press et al., 3rd ed., 6.4).
func regIncBeta(x, a, b float64) float64 {
	if x <= 0 {
		return 0
	}
	if x >= 1 {
		return 1
	}
	lga, _ := math.Lgamma(a)
	lgb, _ := math.Lgamma(b)
	lgab, _ := math.Lgamma(a + b)
	front := math.Exp(lgab - lga - lgb + a*math.Log(x) + b*math.Log(1-x))
	if x < (a+1)/(a+b+2) {
		return front * betaCF(x, a, b) / a
	}
	return 1 - front*betaCF(1-x, b, a)/b
}

// betaCF evaluates the continued fraction of the incomplete beta function
// by the modified Lentz method.
func betaCF(x, a, b float64) float64 {
	const eps = 1e-15
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1/nonZero(1-qab*x/qap)
	h := d
	for m := 1; m <= 300; m++ {
		mf := float64(m)
		m2 := 2 * mf
		// Even step, then odd step, of the fraction (Numerical Recipes 6.4.6).
		aa := mf * (b - mf) * x / ((qam + m2) * (a + m2))
		c, d = lentzStep(aa, c, d)
		h *= d * c
		aa = -(a + mf) * (qab + mf) * x / ((a + m2) * (qap + m2))
		c, d = lentzStep(aa, c, d)
		del := d * c
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// lentzStep advances the modified Lentz recurrences by one coefficient.
func lentzStep(aa, c, d float64) (float64, float64) {
	return nonZero(1 + aa/c), 1 / nonZero(1+aa*d)
}

// nonZero keeps a Lentz denominator away from zero.
func nonZero(v float64) float64 {
	const tiny = 1e-300
	if math.Abs(v) < tiny {
		return tiny
	}
	return v
}

// DiffWelch compares the means of two independent samples (B - A) by
// Welch's t-test with the Welch-Satterthwaite degrees of freedom.
func DiffWelch(a, b Moments) Diff {
	d := b.Mean() - a.Mean()
	if a.N < 2 || b.N < 2 {
		return Diff{Delta: d, CI: Interval{d, d}, P: 1}
	}
	va, vb := a.Var()/float64(a.N), b.Var()/float64(b.N)
	se := math.Sqrt(va + vb)
	if se == 0 {
		p := 1.0
		if d != 0 {
			p = 0
		}
		return Diff{Delta: d, CI: Interval{d, d}, P: p, Significant: p < 0.05}
	}
	df := (va + vb) * (va + vb) / (va*va/float64(a.N-1) + vb*vb/float64(b.N-1))
	dfi := int64(math.Max(1, math.Floor(df)))
	half := tQuantile975(dfi) * se
	p := 2 * tSF(math.Abs(d)/se, dfi)
	return Diff{Delta: d, CI: Interval{d - half, d + half}, P: p, Significant: p < 0.05}
}
