package swf

import "math"

// parseTime reads a time field's token that is not a plain integer (the
// caller's one pass takes those). A decimal with a fraction ("20.5",
// "100.6", "5.", ".5"), which the SWF definition allows in a time field
// ("it is permissible to use floating point values for time fields"), is
// rounded to the nearest second, halves away from zero, and reported as
// rounded unless its fraction is zero ("100.0" is 100, unchanged). Any
// other token goes to parseInt, as in the other integer fields ("1e3",
// "0x10", "inf" and "nan" stay not a number).
//
// Halves away from zero, as math.Round, rather than to even: the rule
// needs the first digit of the fraction only, so a fraction of any length
// is read exactly, without a float conversion; it is the rounding a reader
// of the log expects of "the nearest second"; and the bias that rounding
// to even avoids is half a second on a value ending in exactly ".5", which
// logs of millisecond resolution write once in a thousand values.
//
// Negative values: -1 means unknown, and "-1.0" is -1 (and "-0.0" 0); a
// value below -1 ("-1.5", "-2.0") is returned as -2, which the caller
// reads as unknown, as in whole seconds; "-0.5" is neither unknown nor 0
// (ErrRange). A value past math.MaxInt64 after
// rounding is ErrRange; one past 2^40 s is read, as a whole one is, and
// left to sanitize (TimeOutOfRange).
func parseTime(b []byte) (v int64, rounded bool, err error) {
	i := 0
	neg := b[0] == '-'
	if neg || b[0] == '+' {
		i++
	}
	var u uint64
	nd, big := 0, false
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		c := uint64(b[i] - '0')
		if u > (math.MaxInt64-c)/10 {
			big = true // (digits go on being checked: "9…9x" is not a number)
		} else {
			u = u*10 + c
		}
		nd++
	}
	if i == len(b) || b[i] != '.' {
		x, err := parseInt(b) // not a decimal with a point: parseInt decides
		return x, false, err
	}
	i++
	up := i < len(b) && b[i] >= '5' && b[i] <= '9'
	whole := true
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			x, err := parseInt(b) // (an exponent, "1.5e3": parseInt decides, as before)
			return x, false, err
		}
		whole = whole && c == 0
		nd++
	}
	switch {
	case nd == 0: // ".", "-."
		return 0, false, ErrSyntax
	case big:
		return 0, false, ErrRange
	case neg && u == 0 && !whole: // ("-0.5": neither unknown nor 0)
		return 0, false, ErrRange
	case neg && (!whole || u > 1):
		return -2, false, nil // (below -1: the caller reads it as unknown, Stats.BelowUnknown)
	case neg:
		return -int64(u), false, nil
	}
	if up {
		if u == math.MaxInt64 {
			return 0, false, ErrRange
		}
		u++
	}
	return int64(u), !whole, nil
}
