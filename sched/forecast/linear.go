package forecast

import "math"

// linear is an online least-squares model with exponential forgetting:
// it keeps the forgetting-weighted normal equations (XᵀX, Xᵀy) and solves
// them, with a small ridge, when asked after a change — d ≤ 16, so a
// Cholesky solve costs a few hundred flops. This is recursive least
// squares without its covariance wind-up when a feature stops varying.
type linear struct {
	d      int
	xx, xy []float64
	coef   []float64
	l      []float64 // Cholesky factor scratch
	n      float64   // forgetting-weighted number of samples
	seen   int
	dirty  bool
	forget float64
}

func newLinear(d int, forget float64) *linear {
	return &linear{d: d, xx: make([]float64, d*d), xy: make([]float64, d), coef: make([]float64, d), l: make([]float64, d*d), forget: forget}
}

// add learns y at x with weight w.
func (m *linear) add(x []float64, y, w float64) {
	f := m.forget
	for i := range m.xx {
		m.xx[i] *= f
	}
	for i := range m.xy {
		m.xy[i] *= f
	}
	for i := 0; i < m.d; i++ {
		wi := w * x[i]
		row := m.xx[i*m.d:]
		for k := 0; k <= i; k++ {
			row[k] += wi * x[k]
		}
		m.xy[i] += wi * y
	}
	m.n = m.n*f + w
	m.seen++
	m.dirty = true
}

// predict returns the model's value at x.
func (m *linear) predict(x []float64) float64 {
	if m.dirty {
		m.solve()
	}
	s := 0.0
	for i, c := range m.coef {
		s += c * x[i]
	}
	return s
}

// ridge is the regularization relative to the sample weight: it keeps
// the solve defined when a feature never varies, and is negligible
// otherwise.
const ridge = 1e-3

// solve refits coef by a Cholesky factorization of XᵀX + ridge·n·I (the
// lower triangle holds XᵀX).
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
	// L z = xy, Lᵀ coef = z
	for i := 0; i < d; i++ {
		s := m.xy[i]
		for p := 0; p < i; p++ {
			s -= m.l[i*d+p] * m.coef[p]
		}
		m.coef[i] = s / m.l[i*d+i]
	}
	for i := d - 1; i >= 0; i-- {
		s := m.coef[i]
		for p := i + 1; p < d; p++ {
			s -= m.l[p*d+i] * m.coef[p]
		}
		m.coef[i] = s / m.l[i*d+i]
	}
	m.dirty = false
}
