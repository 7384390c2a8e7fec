package synth

// drand48 is the POSIX drand48 generator (X ← 0x5DEECE66D·X + 0xB mod 2^48)
// as a math/rand/v2 Source. Its Uint64 returns X<<5, so rand.Rand.Float64
// yields exactly X/2^48, drand48's value. With CompatClock it reproduces the
// reference C's output (spec §5, §10.3). It is for golden tests; PCG is the
// default.
type drand48 struct{ x uint64 }

// newDrand48 returns the generator as seeded by srand48(seed).
func newDrand48(seed int64) *drand48 {
	return &drand48{x: (uint64(seed)&0xFFFFFFFF)<<16 | 0x330E}
}

// Uint64 advances the generator and returns the 48-bit state shifted left by 5.
func (d *drand48) Uint64() uint64 {
	d.x = (0x5DEECE66D*d.x + 0xB) & (1<<48 - 1)
	return d.x << 5
}
