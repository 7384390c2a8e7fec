package swf

import (
	"errors"
	"math/rand/v2"
	"strconv"
	"testing"
)

// parseInt agrees with strconv.ParseInt on both of its paths (up to 18
// digits without an overflow check, longer with one), and accepts a
// zero fraction as converted logs write it.
func TestParseIntMatchesStrconv(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := []string{"0", "-1", "+7", "999999999999999999", "-999999999999999999", "1000000000000000000",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
		"00000000000000000000012", "-", "+", "1a", "35100.00"}
	for range 20000 {
		n := r.Int64N(1 << 62)
		if r.IntN(2) == 0 {
			n = -n
		}
		cases = append(cases, strconv.FormatInt(n>>r.IntN(62), 10))
	}
	for _, c := range cases {
		got, err := parseInt([]byte(c))
		want, werr := strconv.ParseInt(c, 10, 64)
		switch {
		case c == "35100.00":
			if err != nil || got != 35100 {
				t.Errorf("%q: %d, %v", c, got, err)
			}
		case werr != nil:
			if err == nil {
				t.Errorf("%q: %d, want an error (%v)", c, got, werr)
			} else if errors.Is(werr, strconv.ErrRange) != errors.Is(err, ErrRange) {
				t.Errorf("%q: error %v, strconv %v", c, err, werr)
			}
		case err != nil || got != want:
			t.Errorf("%q: %d, %v; want %d", c, got, err, want)
		}
	}
}
