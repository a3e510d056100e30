package tenhou

// MT19937 is Matsumoto and Nishimura's Mersenne Twister, 32-bit, as in
// their reference mt19937ar.c (2002): init_genrand, init_by_array and
// genrand_int32. Tenhou seeds one per game with init_by_array over the 624
// words of the game seed.
//
// The zero value is not seeded; use [NewMT19937] or [NewMT19937Array]. An
// MT19937 is not safe for concurrent use.
type MT19937 struct {
	mt  [mtN]uint32
	mti int
}

const (
	mtN         = 624
	mtM         = 397
	mtMatrixA   = 0x9908b0df
	mtUpperMask = 0x80000000
	mtLowerMask = 0x7fffffff
)

// NewMT19937 returns the generator seeded by init_genrand(s).
func NewMT19937(s uint32) *MT19937 {
	m := &MT19937{}
	m.initGenrand(s)
	return m
}

// NewMT19937Array returns the generator seeded by init_by_array(key). key
// may have any length, including more than 624 words; an empty key is
// treated as the one-word key {0}, where the C code would read past the end.
func NewMT19937Array(key []uint32) *MT19937 {
	if len(key) == 0 {
		key = []uint32{0}
	}
	m := &MT19937{}
	m.initGenrand(19650218)
	i, j := 1, 0
	for k := max(mtN, len(key)); k > 0; k-- {
		m.mt[i] = (m.mt[i] ^ (m.mt[i-1]^m.mt[i-1]>>30)*1664525) + key[j] + uint32(j)
		i++
		j++
		if i >= mtN {
			m.mt[0] = m.mt[mtN-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := mtN - 1; k > 0; k-- {
		m.mt[i] = (m.mt[i] ^ (m.mt[i-1]^m.mt[i-1]>>30)*1566083941) - uint32(i)
		i++
		if i >= mtN {
			m.mt[0] = m.mt[mtN-1]
			i = 1
		}
	}
	m.mt[0] = 0x80000000 // MSB is 1, assuring a non-zero initial array
	return m
}

func (m *MT19937) initGenrand(s uint32) {
	m.mt[0] = s
	for i := 1; i < mtN; i++ {
		m.mt[i] = 1812433253*(m.mt[i-1]^m.mt[i-1]>>30) + uint32(i)
	}
	m.mti = mtN
}

// Uint32 returns the next word (genrand_int32).
func (m *MT19937) Uint32() uint32 {
	if m.mti >= mtN {
		m.twist()
	}
	y := m.mt[m.mti]
	m.mti++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// twist regenerates all 624 words at once.
func (m *MT19937) twist() {
	mag := func(y uint32) uint32 { return (y & 1) * mtMatrixA }
	var kk int
	for ; kk < mtN-mtM; kk++ {
		y := m.mt[kk]&mtUpperMask | m.mt[kk+1]&mtLowerMask
		m.mt[kk] = m.mt[kk+mtM] ^ y>>1 ^ mag(y)
	}
	for ; kk < mtN-1; kk++ {
		y := m.mt[kk]&mtUpperMask | m.mt[kk+1]&mtLowerMask
		m.mt[kk] = m.mt[kk+mtM-mtN] ^ y>>1 ^ mag(y)
	}
	y := m.mt[mtN-1]&mtUpperMask | m.mt[0]&mtLowerMask
	m.mt[mtN-1] = m.mt[mtM-1] ^ y>>1 ^ mag(y)
	m.mti = 0
}
