package sim

import "math"

// numClasses is the number of classes (engine.Classes): the class edges
// below are indexed like it.
const numClasses = 4

// An edge is a class's win rate less the fair share (both estimated from
// the same games). The tools that read edges across runs (--by-skill, the
// tuner) need more than each rate's own interval: the variance of an edge
// (the fair share moves with the games too), of a sum of squared edges,
// and of a difference of edges between two runs on the same seeds. All
// come from one linearisation (the delta method): with n games, class c's
// rate r_c = W_c / S_c (wins over seats) and the fair share f = H / (n·P)
// (games with a winner over games times players), a game g contributes
//
//	φ_c(g) = (w_c(g) − r_c·s_c(g)) / (S_c/n) − (h(g) − H/n) / P
//
// to the edge e_c = r_c − f, where w_c(g), s_c(g) are the game's wins and
// seats of class c and h(g) = Σ_c w_c(g) whether it had a winner; then
// Var(ê_c) ≈ Var(φ_c) / n, and a statistic linear in the edges has the
// variance of the same combination of the φ's.

// ClassMoments are the exact integer sums from which the edges of a set
// of games and their variances follow: the number of games, and the sums
// and cross products of each game's vector z = (w_0..w_3, s_0..s_3). They
// merge exactly (games played in any order, by any worker, give the same
// sums), so a candidate evaluated on several sets of games pools them.
type ClassMoments struct {
	Players int         `json:"players"`
	N       int64       `json:"n"`
	Sum     [8]int64    `json:"sum"`
	Cross   [8][8]int64 `json:"cross"`
}

// gameVector returns a game's z vector; ok is false for a failed game.
func gameVector(r *GameRecord) (z [8]int64, ok bool) {
	if r.Failed {
		return z, false
	}
	if r.WinnerClass >= 0 && int(r.WinnerClass) < numClasses {
		z[r.WinnerClass] = 1
	}
	for c := range numClasses {
		z[numClasses+c] = int64(r.ClassSeats[c])
	}
	return z, true
}

// Add adds one game (a failed game is left out).
func (m *ClassMoments) Add(r *GameRecord) {
	z, ok := gameVector(r)
	if !ok {
		return
	}
	m.N++
	for i := range z {
		m.Sum[i] += z[i]
		for j := range z {
			m.Cross[i][j] += z[i] * z[j]
		}
	}
}

// Merge adds another set of games' sums.
func (m *ClassMoments) Merge(o *ClassMoments) {
	m.N += o.N
	for i := range m.Sum {
		m.Sum[i] += o.Sum[i]
		for j := range m.Sum {
			m.Cross[i][j] += o.Cross[i][j]
		}
	}
}

// Played reports whether class c had a seat in any game.
func (m *ClassMoments) Played(c int) bool { return m.Sum[numClasses+c] > 0 }

// Rate returns class c's win rate (0 if it never played).
func (m *ClassMoments) Rate(c int) float64 {
	if !m.Played(c) {
		return 0
	}
	return float64(m.Sum[c]) / float64(m.Sum[numClasses+c])
}

// Fair returns the fair share: games with a winner over games × players.
func (m *ClassMoments) Fair() float64 {
	if m.N == 0 || m.Players < 1 {
		return 0
	}
	var h int64
	for c := range numClasses {
		h += m.Sum[c]
	}
	return float64(h) / float64(m.N) / float64(m.Players)
}

// edgeCoef returns α_c: φ_c(g) = α_c · z(g) + constant.
func (m *ClassMoments) edgeCoef(c int) (a [8]float64) {
	n := float64(m.N)
	for d := range numClasses {
		a[d] = -1 / float64(m.Players)
	}
	if !m.Played(c) {
		return a
	}
	sbar := float64(m.Sum[numClasses+c]) / n
	a[c] += 1 / sbar
	a[numClasses+c] -= m.Rate(c) / sbar
	return a
}

// variance returns Var(a · z) over the games (the unbiased sample variance).
func (m *ClassMoments) variance(a [8]float64) float64 {
	if m.N < 2 {
		return 0
	}
	n := float64(m.N)
	var mean, sq float64
	for i := range a {
		mean += a[i] * float64(m.Sum[i])
		for j := range a {
			sq += a[i] * a[j] * float64(m.Cross[i][j])
		}
	}
	mean /= n
	return math.Max(0, (sq-n*mean*mean)/(n-1))
}

// Edge returns class c's edge over the fair share and the variance of its
// estimate (delta method).
func (m *ClassMoments) Edge(c int) (edge, variance float64) {
	if m.N == 0 || !m.Played(c) {
		return 0, 0
	}
	return m.Rate(c) - m.Fair(), m.variance(m.edgeCoef(c)) / float64(m.N)
}

// Objective returns the sum of the squared edges of the classes played,
// corrected for noise: Σ (ê_c² − Var(ê_c)), an unbiased estimate of
// Σ e_c² where the raw sum of squares would be inflated by the sampling
// variance, with its 95% interval (delta method: the variance of
// Σ 2·ê_c·φ_c). All in fractions squared.
func (m *ClassMoments) Objective() (s, lo, hi float64) {
	var beta [8]float64
	for c := range numClasses {
		if !m.Played(c) {
			continue
		}
		e, v := m.Edge(c)
		s += e*e - v
		a := m.edgeCoef(c)
		for i := range beta {
			beta[i] += 2 * e * a[i]
		}
	}
	h := z975 * math.Sqrt(m.variance(beta)/float64(max(m.N, 1)))
	return s, s - h, s + h
}

// edgeTerms returns each game's φ_c for the classes (0 for a failed game,
// which the caller leaves out), computed with m's rates: the per-game
// terms whose paired differences give the variance of a difference of
// edges between two runs on the same games.
func (m *ClassMoments) edgeTerms(recs []GameRecord) [][numClasses]float64 {
	out := make([][numClasses]float64, len(recs))
	var coef [numClasses][8]float64
	var mean [numClasses]float64
	for c := range numClasses {
		coef[c] = m.edgeCoef(c)
		for i := range coef[c] {
			mean[c] += coef[c][i] * float64(m.Sum[i]) / float64(max(m.N, 1))
		}
	}
	for g := range recs {
		z, ok := gameVector(&recs[g])
		if !ok {
			continue
		}
		for c := range numClasses {
			v := -mean[c]
			for i := range z {
				v += coef[c][i] * float64(z[i])
			}
			out[g][c] = v
		}
	}
	return out
}

// momentsOf returns the class moments of the games of recs, skipping
// those failed in skip (if not nil) too, so that two runs compared game by
// game cover the same games.
func momentsOf(recs, skip []GameRecord, players int) *ClassMoments {
	m := &ClassMoments{Players: players}
	for g := range recs {
		if skip != nil && skip[g].Failed {
			continue
		}
		m.Add(&recs[g])
	}
	return m
}
