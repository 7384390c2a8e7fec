package slurm

import (
	"fmt"
	"math"
	"strings"
)

// Slurm's times and small counts in slurm.conf, read the way Slurm 22.05
// reads them, so that a file Slurm accepts is read with the value Slurm
// runs with, and a file Slurm refuses is refused.
//
// A time (MaxTime, DefaultTime, PriorityMaxAge, PriorityDecayHalfLife,
// PriorityCalcPeriod) goes through time_str2mins (src/common/parse_time.c):
// "-1", INFINITE and UNLIMITED are unlimited; otherwise the string must
// pass _is_valid_timespec (digits, at most one '-' before any ':', at most
// two ':', enough digit groups for its separators), then sscanf reads
// "%d-%d:%d:%d" or "%d:%d:%d" (one or two numbers without '-' are minutes
// and seconds) into C ints, and the seconds d*86400+h*3600+m*60+s are
// rounded up to minutes by (s+59)/60, all in 32-bit int arithmetic. The
// fields are not range-checked: "1-99:99:99" is 1 day + 99 h + 99 min +
// 99 s, 7481 minutes (scontrol shows 5-04:41:00). The caller refuses a
// negative result other than INFINITE ("Bad value ... for MaxTime"). A
// time over 2^31-1 seconds overflows: Slurm 22.05.8 (Debian 12, gcc)
// wraps it, so "24856-0" is refused and "49711-0" runs as 1052 minutes;
// "2-" is two days, "-0" is 0. All of these were checked against that
// Slurm (slurmctld and scontrol on a slurm.conf, scripts/slurm-cluster.sh).
const (
	slurmInfinite = -1 // INFINITE (0xffffffff) as a C int
	slurmNoVal    = -2 // NO_VAL (0xfffffffe) as a C int
)

// slurmTimeMins is time_str2mins(v) as Slurm 22.05 computes it, in 32-bit
// wrapping arithmetic, and exact, the same in 64-bit arithmetic (what the
// file means when nothing overflows).
func slurmTimeMins(v string) (mins int32, exact int64) {
	secs, exact := slurmTimeSecs(v)
	if secs == slurmInfinite || secs == slurmNoVal {
		if int64(secs) != exact {
			// a sum that wrapped onto INFINITE or NO_VAL, which Slurm
			// then takes for them: exact says it overflowed
			return secs, (exact + 59) / 60
		}
		return secs, exact
	}
	return (secs + 59) / 60, (exact + 59) / 60
}

// slurmTimeSecs is time_str2secs(v), in 32-bit and in 64-bit arithmetic.
func slurmTimeSecs(v string) (int32, int64) {
	if v == "" {
		return slurmNoVal, slurmNoVal
	}
	if v == "-1" || strings.EqualFold(v, "INFINITE") || strings.EqualFold(v, "UNLIMITED") {
		return slurmInfinite, slurmInfinite
	}
	if !slurmTimespec(v) {
		return slurmNoVal, slurmNoVal
	}
	var f [4]int64 // the fields sscanf fills; the others stay 0
	if strings.Contains(v, "-") {
		// sscanf("%d-%d:%d:%d"): a number (a leading '-' is its sign,
		// "-5" is d = -5), then each separator and number while they
		// match ("2-" stops after d).
		s := v
		for i, sep := range []string{"", "-", ":", ":"} {
			if !strings.HasPrefix(s, sep) {
				break
			}
			n, rest, ok := cScanInt(s[len(sep):])
			if !ok {
				break
			}
			f[i], s = n, rest
		}
		return slurmSum(f, [4]int64{86400, 3600, 60, 1})
	}
	// sscanf("%d:%d:%d"): three numbers are hours, minutes and seconds;
	// one or two are minutes and seconds (_is_valid_timespec leaves no
	// empty field here).
	parts := strings.Split(v, ":")
	for i, p := range parts {
		f[i], _, _ = cScanInt(p)
	}
	if len(parts) == 3 {
		return slurmSum(f, [4]int64{3600, 60, 1, 0})
	}
	return slurmSum(f, [4]int64{60, 1, 0, 0})
}

// slurmSum is the sum of f[i]*k[i], each f[i] a C long that Slurm keeps
// in a C int (its low 32 bits), in 32-bit wrapping arithmetic, and in
// 64-bit arithmetic that saturates at ±2^61 (far beyond any time Slurm
// stores), to tell whether the 32 bits overflowed.
func slurmSum(f, k [4]int64) (int32, int64) {
	const bound = 1 << 61
	var w int32
	var x int64
	for i := range f {
		w += int32(f[i]) * int32(k[i])
		t := f[i] * k[i]
		if k[i] != 0 && (f[i] > bound/k[i] || f[i] < -bound/k[i]) {
			t = bound
			if f[i] < 0 {
				t = -bound
			}
		}
		x = max(min(x+t, bound), -bound)
	}
	return w, x
}

// cScanInt reads what glibc's scanf("%d") reads at the start of s: an
// optional sign and decimal digits, converted by strtol (clamped to the
// 64-bit long range); the caller keeps its low 32 bits, as scanf stores it
// in an int. ok is false when s starts with no number.
func cScanInt(s string) (n int64, rest string, ok bool) {
	neg := false
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	j := i
	var u uint64
	over := false
	for ; j < len(s) && s[j] >= '0' && s[j] <= '9'; j++ {
		if u > (math.MaxUint64-9)/10 {
			over = true
		} else {
			u = u*10 + uint64(s[j]-'0')
		}
	}
	switch {
	case j == i:
		return 0, s, false
	case !neg && (over || u > math.MaxInt64):
		return math.MaxInt64, s[j:], true
	case neg && (over || u > 1<<63):
		return math.MinInt64, s[j:], true
	case neg:
		return -int64(u), s[j:], true // -(1<<63) wraps to MinInt64, as it should
	}
	return int64(u), s[j:], true
}

// slurmTimespec is _is_valid_timespec: only digits, '-' and ':'; at most
// one '-', never after a ':'; at most two ':'; at least one group of
// digits, and with one ':' at least 2 groups (3 after a '-'), with two at
// least 3 (4 after a '-').
func slurmTimespec(v string) bool {
	groups, dash, colon := 0, 0, 0
	inDigits := false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			if !inDigits {
				groups++
				inDigits = true
			}
		case c == '-':
			inDigits = false
			dash++
			if colon > 0 {
				return false
			}
		case c == ':':
			inDigits = false
			colon++
		default:
			return false
		}
	}
	if groups == 0 || dash > 1 || colon > 2 {
		return false
	}
	need := colon + 1 // groups needed without a '-'
	if dash > 0 && colon > 0 {
		need++
	}
	return colon == 0 || groups >= need
}

// confUint16 reads a uint16 key (OverTimeLimit) as Slurm's
// s_p_handle_uint16 does: UNLIMITED or INFINITE, or what strtoul(v, 0)
// reads to the end of v (leading blanks, a sign, 0x for hexadecimal, a
// leading 0 for octal: "010" is 8), refused when v starts with '-' or it
// is over 65535. 65535 is Slurm's INFINITE16: unlimited, as is UNLIMITED.
func confUint16(v string) (n int64, unlimited bool, err error) {
	if strings.EqualFold(v, "UNLIMITED") || strings.EqualFold(v, "INFINITE") {
		return 0, true, nil
	}
	u, ok := cStrtoul(v)
	switch {
	case !ok:
		return 0, false, fmt.Errorf("%q is not a valid number", confClip(v))
	case strings.HasPrefix(v, "-"):
		return 0, false, fmt.Errorf("%q is less than zero", confClip(v))
	case u > math.MaxUint16:
		return 0, false, fmt.Errorf("%q is greater than 65535", confClip(v))
	case u == math.MaxUint16:
		return 0, true, nil
	}
	return int64(u), false, nil
}

// cStrtoul is strtoul(v, &end, 0) with *end == '\0' required: false when
// v holds anything after the number, or the number is out of range
// (ERANGE). An empty v (or blanks) converts nothing and is 0, as in C.
func cStrtoul(v string) (uint64, bool) {
	s := strings.TrimLeft(v, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := uint64(10)
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && hexDigit(s[2]) >= 0:
		base, s = 16, s[2:]
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	if s == "" {
		return 0, v == "" // C converts nothing: only an empty v ends there
	}
	var u uint64
	over := false
	for i := 0; i < len(s); i++ {
		d := hexDigit(s[i])
		if d < 0 || uint64(d) >= base {
			return 0, false
		}
		if u > (math.MaxUint64-uint64(d))/base {
			over = true
		}
		u = u*base + uint64(d)
	}
	if over {
		return 0, false
	}
	if neg {
		u = -u
	}
	return u, true
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
