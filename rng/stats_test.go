package rng_test

import (
	"testing"

	"github.com/fairboard/fairboard/rng"
)

// Statistical smoke tests (the spec's "assertUnbiasedDice" and friends).
// Each runs on a fixed seed, so it is deterministic: a pass is a pass
// forever, and a change of arithmetic that biased a draw would show up as a
// statistic over its critical value.
//
// Pearson's chi-square goodness of fit, significance level alpha = 0.001.
// Critical values chi2_{1-alpha}(df), df = cells - 1:
//
//	df  2: 13.816    df  3: 16.266    df  5: 20.515
//	df  6: 22.458    df 23: 49.728
const (
	chi2Crit2  = 13.816
	chi2Crit3  = 16.266
	chi2Crit5  = 20.515
	chi2Crit6  = 22.458
	chi2Crit23 = 49.728
)

// chiSquare returns sum (obs-exp)^2/exp over the cells, where the expected
// counts are total * p[i] / sum(p).
func chiSquare(obs []int, p []float64) float64 {
	total, psum := 0, 0.0
	for i := range obs {
		total += obs[i]
		psum += p[i]
	}
	x := 0.0
	for i := range obs {
		exp := float64(total) * p[i] / psum
		d := float64(obs[i]) - exp
		x += d * d / exp
	}
	return x
}

func equalCells(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1
	}
	return p
}

// permIndex returns the rank of a permutation of 0..3 in 0..23 (Lehmer code).
func permIndex(a [4]int) int {
	idx := 0
	for i := range 4 {
		smaller := 0
		for j := i + 1; j < 4; j++ {
			if a[j] < a[i] {
				smaller++
			}
		}
		idx = idx*(4-i) + smaller
	}
	return idx
}

// TestStatsShuffleAllPermutations: every one of the 24 orders of a 4-item
// array is equally likely under Shuffle (chi-square, 24 cells, df 23).
func TestStatsShuffleAllPermutations(t *testing.T) {
	const draws = 480_000
	s := seeded(t, "stats-shuffle")
	obs := make([]int, 24)
	for range draws {
		a := [4]int{0, 1, 2, 3}
		rng.Shuffle(s, a[:], rng.TagTestOnly, nil)
		obs[permIndex(a)]++
	}
	for i, c := range obs {
		if c == 0 {
			t.Fatalf("permutation %d never appeared", i)
		}
	}
	if x := chiSquare(obs, equalCells(24)); x > chi2Crit23 {
		t.Errorf("shuffle permutations: chi-square %.2f > %.3f (df 23, alpha 0.001); counts %v", x, chi2Crit23, obs)
	}
}

// TestStatsDetectsNaiveShuffle shows the permutation test has power: the
// classic wrong shuffle (j drawn from the whole array at every step, 4^4 =
// 256 equally likely paths onto 24 orders) fails it.
func TestStatsDetectsNaiveShuffle(t *testing.T) {
	const draws = 480_000
	s := seeded(t, "stats-shuffle")
	obs := make([]int, 24)
	for range draws {
		a := [4]int{0, 1, 2, 3}
		for i := range a {
			j, _ := s.UniformInt(0, 3, rng.TagTestOnly, nil)
			a[i], a[j] = a[j], a[i]
		}
		obs[permIndex(a)]++
	}
	if x := chiSquare(obs, equalCells(24)); x <= chi2Crit23 {
		t.Errorf("naive shuffle passed: chi-square %.2f <= %.3f; the test has no power", x, chi2Crit23)
	}
}

// TestStatsUniformInt: UniformInt over 1..6 (df 5) and 1..4 (df 3), and
// Dice, are uniform.
func TestStatsUniformInt(t *testing.T) {
	const draws = 480_000
	for _, c := range []struct {
		sides int
		crit  float64
	}{{6, chi2Crit5}, {4, chi2Crit3}} {
		s := seeded(t, "stats-uniform")
		ints := make([]int, c.sides)
		dice := make([]int, c.sides)
		for range draws {
			v, err := s.UniformInt(1, int64(c.sides), rng.TagTestOnly, nil)
			if err != nil || v < 1 || v > int64(c.sides) {
				t.Fatalf("UniformInt(1, %d) = %d, %v", c.sides, v, err)
			}
			ints[v-1]++
			d, err := s.Dice(c.sides, rng.TagMoveRoll, nil)
			if err != nil {
				t.Fatal(err)
			}
			dice[d.Value-1]++
		}
		if x := chiSquare(ints, equalCells(c.sides)); x > c.crit {
			t.Errorf("UniformInt(1, %d): chi-square %.2f > %.3f (df %d); counts %v", c.sides, x, c.crit, c.sides-1, ints)
		}
		if x := chiSquare(dice, equalCells(c.sides)); x > c.crit {
			t.Errorf("Dice(%d): chi-square %.2f > %.3f (df %d); counts %v", c.sides, x, c.crit, c.sides-1, dice)
		}
	}
}

// TestStatsWeightedPick: the spec's E3 composition [70,20,10] and T2 loot
// [70,15,15] tables come out in proportion to their weights (df 2).
func TestStatsWeightedPick(t *testing.T) {
	const draws = 500_000
	for _, w := range [][]float64{{70, 20, 10}, {70, 15, 15}} {
		items := make([]rng.Weighted[int], len(w))
		for i := range w {
			items[i] = rng.Weighted[int]{Item: i, Weight: w[i]}
		}
		s := seeded(t, "stats-weighted")
		obs := make([]int, len(w))
		for range draws {
			p, err := rng.WeightedPick(s, items, rng.TagTestOnly, nil)
			if err != nil {
				t.Fatal(err)
			}
			obs[p.Index]++
		}
		if x := chiSquare(obs, w); x > chi2Crit2 {
			t.Errorf("WeightedPick(%v): chi-square %.2f > %.3f (df 2); counts %v", w, x, chi2Crit2, obs)
		}
		// And a wrong table (uniform) is rejected, so the test has power.
		if x := chiSquare(obs, equalCells(len(w))); x <= chi2Crit2 {
			t.Errorf("WeightedPick(%v) also fits a uniform table (chi-square %.2f)", w, x)
		}
	}
}

// TestStatsChooseOne: ChooseOne among 7 candidates is uniform (df 6).
func TestStatsChooseOne(t *testing.T) {
	const draws = 350_000
	cands := []string{"a", "b", "c", "d", "e", "f", "g"}
	s := seeded(t, "stats-choose")
	obs := make([]int, len(cands))
	for range draws {
		_, i, err := rng.ChooseOne(s, cands, rng.TagTieBreakNearest, nil)
		if err != nil {
			t.Fatal(err)
		}
		obs[i]++
	}
	if x := chiSquare(obs, equalCells(len(cands))); x > chi2Crit6 {
		t.Errorf("ChooseOne(7): chi-square %.2f > %.3f (df 6); counts %v", x, chi2Crit6, obs)
	}
}
