package karnak

import "testing"

// MaxBackstep < 0, -1 included (what qserve -max-backstep -1s sets), is
// strict time order; 0 is the default, MaxSkew.
func TestMaxBackstepNegativeIsStrict(t *testing.T) {
	for _, c := range []struct{ skew, backstep, want int64 }{
		{0, 0, defaultSkew},
		{600, 0, 600},
		{600, -1, 0},
		{600, -2, 0},
		{600, 30, 30},
	} {
		o, err := Config{MaxSkew: c.skew, MaxBackstep: c.backstep}.withDefaults()
		if err != nil {
			t.Fatal(err)
		}
		if o.MaxBackstep != c.want {
			t.Errorf("MaxSkew %d, MaxBackstep %d: effective backstep %d, want %d", c.skew, c.backstep, o.MaxBackstep, c.want)
		}
	}
}
