package forecast

import "math"

// linear is online least squares with exponential forgetting for several
// outputs over the same features: it keeps the forgetting-weighted normal
// equations (one XᵀX, one Xᵀy per output) and solves them, with a small
// ridge, when asked after a change. The outputs share XᵀX, so one Cholesky
// factorization serves them all: d ≤ 20 features cost a few thousand
// flops per solve, and each output adds two triangular solves. This is
// recursive least squares without its covariance wind-up when a feature
// stops varying.
type linear struct {
	d, k   int
	xx     []float64   // lower triangle of XᵀX, d×d
	xy     [][]float64 // Xᵀy per output
	coef   [][]float64
	l      []float64 // Cholesky factor scratch
	n      float64   // forgetting-weighted number of samples
	dirty  bool
	forget float64
}

func newLinear(d, k int, forget float64) *linear {
	m := &linear{d: d, k: k, xx: make([]float64, d*d), l: make([]float64, d*d), forget: forget}
	for range k {
		m.xy = append(m.xy, make([]float64, d))
		m.coef = append(m.coef, make([]float64, d))
	}
	return m
}

// add learns the outputs y at x.
func (m *linear) add(x, y []float64) {
	f := m.forget
	for i := 0; i < m.d; i++ {
		row := m.xx[i*m.d : i*m.d+i+1]
		for k := range row {
			row[k] = row[k]*f + x[i]*x[k]
		}
	}
	for o, xy := range m.xy {
		for i := range xy {
			xy[i] = xy[i]*f + x[i]*y[o]
		}
	}
	m.n = m.n*f + 1
	m.dirty = true
}

// predict writes the model's outputs at x into out.
func (m *linear) predict(x, out []float64) {
	if m.dirty {
		m.solve()
	}
	for o, c := range m.coef {
		s := 0.0
		for i, v := range c {
			s += v * x[i]
		}
		out[o] = s
	}
}

// ridge is the regularization relative to the sample weight: it keeps
// the solve defined when a feature never varies, and is negligible
// otherwise.
const ridge = 1e-3

// solve refits coef by a Cholesky factorization of XᵀX + ridge·n·I.
func (m *linear) solve() {
	d := m.d
	lam := ridge * max(m.n, 1)
	for i := 0; i < d; i++ {
		for k := 0; k <= i; k++ {
			s := m.xx[i*d+k]
			if i == k {
				s += lam
			}
			for p := 0; p < k; p++ {
				s -= m.l[i*d+p] * m.l[k*d+p]
			}
			if i == k {
				if s <= 0 {
					s = lam
				}
				m.l[i*d+i] = math.Sqrt(s)
			} else {
				m.l[i*d+k] = s / m.l[k*d+k]
			}
		}
	}
	for o, c := range m.coef {
		// L z = xy, Lᵀ coef = z
		xy := m.xy[o]
		for i := 0; i < d; i++ {
			s := xy[i]
			for p := 0; p < i; p++ {
				s -= m.l[i*d+p] * c[p]
			}
			c[i] = s / m.l[i*d+i]
		}
		for i := d - 1; i >= 0; i-- {
			s := c[i]
			for p := i + 1; p < d; p++ {
				s -= m.l[p*d+i] * c[p]
			}
			c[i] = s / m.l[i*d+i]
		}
	}
	m.dirty = false
}
