package forecast

import "math"

// linear is online least squares with exponential forgetting for several
// outputs over the same features: it keeps the forgetting-weighted normal
// equations (one XᵀX, one Xᵀy per output) and solves them, with a small
// ridge, when asked after a change. The outputs share XᵀX, so one Cholesky
// factorization serves them all, and a prediction at x needs no
// coefficients: output o is Xᵀy_o · (XᵀX)⁻¹x, so two triangular solves
// for x serve every output (d ≈ 25 features: a few thousand flops per
// factorization, d² per prediction and d per output, where solving every
// output's coefficients would cost 2d² per output). This is recursive
// least squares without its covariance wind-up when a feature stops
// varying.
type linear struct {
	d, k   int
	xx     []float64   // lower triangle of XᵀX, d×d
	xy     [][]float64 // Xᵀy per output
	v      []float64   // (XᵀX)⁻¹x at the last prediction
	l      []float64   // Cholesky factor of XᵀX (+ ridge)
	n      float64     // forgetting-weighted number of samples
	dirty  bool
	forget float64
}

func newLinear(d, k int, forget float64) *linear {
	m := &linear{d: d, k: k, xx: make([]float64, d*d), l: make([]float64, d*d), v: make([]float64, d), forget: forget}
	for range k {
		m.xy = append(m.xy, make([]float64, d))
	}
	return m
}

// grow adds features, up to d, that every sample so far had at 0: their
// rows of XᵀX and Xᵀy are 0, so the fit is the one those samples give
// with d features from the start. x may then be longer than the features
// in use: add and predict read x[:d].
func (m *linear) grow(d int) {
	if d <= m.d {
		return
	}
	xx := make([]float64, d*d)
	for i := range m.d {
		copy(xx[i*d:i*d+m.d], m.xx[i*m.d:(i+1)*m.d])
	}
	m.xx, m.l, m.v = xx, make([]float64, d*d), make([]float64, d)
	for o := range m.xy {
		m.xy[o] = append(m.xy[o], make([]float64, d-m.d)...)
	}
	m.d, m.dirty = d, true
}

// reset forgets every sample (the factor and v are recomputed from XᵀX
// at the next prediction).
func (m *linear) reset() {
	clear(m.xx)
	for _, xy := range m.xy {
		clear(xy)
	}
	m.n, m.dirty = 0, true
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
		m.factor()
	}
	// L z = x, Lᵀ v = z: v = (XᵀX + ridge)⁻¹ x.
	d, v := m.d, m.v
	for i := 0; i < d; i++ {
		s := x[i]
		for p := 0; p < i; p++ {
			s -= m.l[i*d+p] * v[p]
		}
		v[i] = s / m.l[i*d+i]
	}
	for i := d - 1; i >= 0; i-- {
		s := v[i]
		for p := i + 1; p < d; p++ {
			s -= m.l[p*d+i] * v[p]
		}
		v[i] = s / m.l[i*d+i]
	}
	for o, xy := range m.xy {
		s := 0.0
		for i, c := range xy {
			s += c * v[i]
		}
		out[o] = s
	}
}

// ridge is the regularization relative to the sample weight: it keeps
// the solve defined when a feature never varies, and is negligible
// otherwise.
const ridge = 1e-3

// factor refits the Cholesky factor of XᵀX + ridge·n·I.
func (m *linear) factor() {
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
	m.dirty = false
}
