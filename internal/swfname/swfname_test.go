package swfname

import (
	"fmt"
	"math"
	"testing"
)

// Known is the prefix and number, as fmt.Sprint(prefix, v) wrote it in
// both copies it replaces, and "" for a missing value.
func TestKnown(t *testing.T) {
	for _, v := range []int64{0, 1, 7, 12345, math.MaxInt64} {
		if got, want := Known("u", v), fmt.Sprint("u", v); got != want {
			t.Errorf("Known(u, %d) = %q, want %q", v, got, want)
		}
	}
	for _, v := range []int64{-1, -2, math.MinInt64} {
		if got := Known("g", v); got != "" {
			t.Errorf("Known(g, %d) = %q, want \"\"", v, got)
		}
	}
}
