package benchdata

// pyRandom reproduces the draws of CPython's random.Random (MT19937) that
// gen_infotable.py makes: seeding from an integer, random(), getrandbits
// of at most 32 bits, randrange and choice.
type pyRandom struct {
	mt  [624]uint32
	idx int
}

// newPyRandom returns the generator of random.Random(seed).
func newPyRandom(seed int64) *pyRandom {
	n := uint64(seed)
	if seed < 0 {
		n = uint64(-seed)
	}
	key := []uint32{uint32(n)}
	if hi := uint32(n >> 32); hi != 0 {
		key = append(key, hi)
	}
	r := &pyRandom{}
	r.initByArray(key)
	return r
}

func (r *pyRandom) initGenrand(s uint32) {
	r.mt[0] = s
	for i := 1; i < len(r.mt); i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^r.mt[i-1]>>30) + uint32(i)
	}
	r.idx = len(r.mt)
}

func (r *pyRandom) initByArray(key []uint32) {
	const n = 624
	r.initGenrand(19650218)
	i, j := 1, 0
	k := max(n, len(key))
	for ; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ (r.mt[i-1]^r.mt[i-1]>>30)*1664525) + key[j] + uint32(j)
		i++
		j++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = n - 1; k > 0; k-- {
		r.mt[i] = (r.mt[i] ^ (r.mt[i-1]^r.mt[i-1]>>30)*1566083941) - uint32(i)
		i++
		if i >= n {
			r.mt[0] = r.mt[n-1]
			i = 1
		}
	}
	r.mt[0] = 0x80000000
}

// uint32 is genrand_uint32.
func (r *pyRandom) uint32() uint32 {
	const n, m = 624, 397
	if r.idx >= n {
		for k := 0; k < n; k++ {
			y := r.mt[k]&0x80000000 | r.mt[(k+1)%n]&0x7fffffff
			v := r.mt[(k+m)%n] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			r.mt[k] = v
		}
		r.idx = 0
	}
	y := r.mt[r.idx]
	r.idx++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// random is random.random(): a float64 in [0, 1) with 53 random bits.
func (r *pyRandom) random() float64 {
	a, b := r.uint32()>>5, r.uint32()>>6
	return (float64(a)*67108864 + float64(b)) * (1.0 / 9007199254740992.0)
}

// below is random._randbelow(n) for 0 < n < 2**32.
func (r *pyRandom) below(n int) int {
	k := 0
	for v := n; v > 0; v >>= 1 {
		k++
	}
	for {
		v := int(r.uint32() >> (32 - k))
		if v < n {
			return v
		}
	}
}

// randrange is random.randrange(start, stop).
func (r *pyRandom) randrange(start, stop int) int { return start + r.below(stop-start) }

// choice is random.choice over a string's bytes.
func (r *pyRandom) choiceByte(s string) byte { return s[r.below(len(s))] }
