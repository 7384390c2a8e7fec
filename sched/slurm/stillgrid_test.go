package slurm

import (
	"math/rand/v2"
	"testing"
)

// TestCalcOnGrid: calcOnGrid (the first calculation on a grid of checks or
// ticks, by modular arithmetic and its shortcuts) is the first found by
// stepping through the calculations.
func TestCalcOnGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400000 {
		P := 1 + rng.Int64N(60)
		step := 1 + rng.Int64N(60)
		if rng.IntN(3) == 0 {
			step = P * (1 + rng.Int64N(5))
		}
		if rng.IntN(3) == 0 {
			P = step * (1 + rng.Int64N(5))
		}
		off := rng.Int64N(5000) - 100
		if rng.IntN(2) == 0 {
			off = off / P * P
		}
		p := &Policy{calcPeriod: P, nextCalc: P * (1 + rng.Int64N(50))}
		got := p.calcOnGrid(step, off)
		want := int64(never)
		for c := p.nextCalc; c < p.nextCalc+P*step*2; c += P {
			if ((c-off)%step+step)%step == 0 {
				want = c
				break
			}
		}
		if got != want {
			t.Fatalf("P %d step %d off %d next %d: got %d want %d", P, step, off, p.nextCalc, got, want)
		}
	}
}
