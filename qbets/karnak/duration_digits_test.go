package karnak

import (
	"strings"
	"testing"
)

// Whole seconds of 10 digits and more, up to 2^40, are read as the
// shorter ones are: "1099511627776" (the largest a within or a wall time
// may be, as the range errors say) was refused "want hh:mm:ss"; an hour
// field past 2^40 names the bound, a malformed one the form.
func TestParseDurationLongSeconds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  string
	}{
		{"1099511627776", 1 << 40, ""},
		{"99999999999", 99999999999, ""},
		{"305419897:00:00", 305419897 * 3600, ""},
		{"1099511627777", 0, "want at most 1099511627776 s"},
		{"99999999999999999999", 0, "want hh:mm:ss"},
		{"01:60:00", 0, "want hh:mm:ss"},
		{"-1", 0, "want hh:mm:ss"},
	} {
		n, err := parseDuration(c.in)
		switch {
		case c.err == "" && (err != nil || n != c.want):
			t.Errorf("%q: %d, %v; want %d", c.in, n, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %d, %v; want an error %q", c.in, n, err, c.err)
		}
	}
}
