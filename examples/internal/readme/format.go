package readme

import (
	"fmt"
	"math"
)

// Span formats the range of the finite values of vs for a sentence:
// "lo–hi" in format, one value when both ends print alike, "–" when there
// is none.
func Span(format string, vs []float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi {
		return "–"
	}
	a, b := fmt.Sprintf(format, lo), fmt.Sprintf(format, hi)
	if a == b {
		return a
	}
	return a + "–" + b
}

// Thousands writes n with commas between groups of three digits.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
