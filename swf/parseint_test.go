package swf

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
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

// parseJob's one-pass conversion gives, in every field, what parseInt or
// parseFloat gives for the same token, value and error alike, on plain
// tokens (its fast path) and on the others (cut out and handed to them).
func TestParseJobMatchesParseFields(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tokens := []string{"0", "-0", "-1", "-2", "+7", "1.", "-1.", ".5", "142.00", "-0.00", "35100.00", "1e3", "-",
		"999999999999999999", "9999999999999999999", "123456789012345", "1234567890123456", "12345678901234.5",
		"1234567890123.45", "1.2.3", "1a", "0x10", "--1", "-1.5",
		// a time field's fraction (parseTime)
		"20.5", "100.6", "0.5", "-0.5", "-1.0", "-1.00", "-0.0", "5.", "-.5", "inf", "nan", "1.5e3", "1.55e1",
		"1099511627776.5", "9223372036854775807.5", "9223372036854775806.5", "99999999999999999999.5",
		"1." + strings.Repeat("0", 55) + "1", strings.Repeat("9", 60) + ".5", "2." + strings.Repeat("9", 60)} // (under 64 bytes, as an error quotes them whole)
	for range 5000 {
		digits := strconv.FormatInt(r.Int64N(1<<62)>>r.IntN(62), 10)
		switch r.IntN(4) {
		case 0:
			digits = "-" + digits
		case 1:
			k := r.IntN(len(digits) + 1)
			digits = digits[:k] + "." + digits[k:]
		}
		tokens = append(tokens, digits)
	}
	for field := range NumFields {
		for _, tok := range tokens {
			fields := make([]string, NumFields)
			for i := range fields {
				fields[i] = "1"
			}
			fields[field] = tok
			// separators of 1 to 20 spaces and tabs
			var line []byte
			for i, f := range fields {
				if i > 0 {
					for range 1 + r.IntN(20) {
						line = append(line, " \t"[min(r.IntN(8), 1)])
					}
				}
				line = append(line, f...)
			}
			var j Job
			_, perr := parseJob(line, &j, stale())
			want, err := slowParse(fields)
			switch {
			case err != nil:
				if perr == nil || !errors.Is(perr, err) || perr.Field != field+1 || perr.Value != tok {
					t.Errorf("field %d %q: %v, want %v", field+1, tok, perr, err)
				}
			case perr != nil:
				t.Errorf("field %d %q: %v, want %+v", field+1, tok, perr, want)
			case fmt.Sprintf("%#v", j) != fmt.Sprintf("%#v", want): // %#v tells -0 from 0
				t.Errorf("field %d %q: %+v, want %+v", field+1, tok, j, want)
			}
		}
	}
}

// slowParse converts each field with parseInt or parseFloat, or, for a
// time field's plain decimal, with roundDecimal.
func slowParse(fields []string) (Job, error) {
	var ints [NumFields]int64
	var floats [NumFields]float64
	for n, tok := range fields {
		var err error
		if floatField[n] {
			floats[n], err = parseFloat([]byte(tok))
		} else if timeField[n] && plainDecimal.MatchString(tok) {
			ints[n], err = roundDecimal(tok)
		} else {
			ints[n], err = parseInt([]byte(tok))
		}
		if err == nil && floats[n] < -1 {
			floats[n] = -1 // (read as unknown, Stats.BelowUnknown)
		}
		if err == nil && ints[n] < -1 && n != statusField {
			ints[n] = -1
		}
		if err != nil {
			return Job{}, err
		}
	}
	return Job{
		ID: ints[0], Submit: ints[1], Wait: ints[2], RunTime: ints[3], AllocProcs: ints[4],
		AvgCPUTime: floats[5], UsedMemory: floats[6], ReqProcs: ints[7], ReqTime: ints[8],
		ReqMemory: floats[9], Status: Status(ints[10]), User: ints[11], Group: ints[12],
		Executable: ints[13], Queue: ints[14], Partition: ints[15], PrecedingJob: ints[16],
		ThinkTime: ints[17],
	}, nil
}

// plainDecimal is a decimal with a point and a digit at least, the form
// parseTime rounds.
var plainDecimal = regexp.MustCompile(`^[-+]?([0-9]+\.[0-9]*|\.[0-9]+)$`)

// roundDecimal is parseTime's value of a plainDecimal, computed in big
// integers: the nearest whole number, halves away from zero; a negative
// value is -1 or 0 when it is one exactly, -2 (below -1: unknown to the
// caller) when its whole part is 1 or more, and ErrRange otherwise
// ("-0.5"); a value past int64 is ErrRange.
func roundDecimal(tok string) (int64, error) {
	neg := strings.HasPrefix(tok, "-")
	whole, frac, _ := strings.Cut(strings.TrimLeft(tok, "+-"), ".")
	num, _ := new(big.Int).SetString("0"+whole+frac, 10)
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(len(frac))), nil)
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Lsh(m, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	w, _ := new(big.Int).SetString("0"+whole, 10)
	fracZero := strings.Trim(frac, "0") == ""
	switch {
	case w.Cmp(big.NewInt(math.MaxInt64)) > 0 || !neg && q.Cmp(big.NewInt(math.MaxInt64)) > 0:
		return 0, ErrRange
	case neg && w.Sign() == 0 && !fracZero:
		return 0, ErrRange
	case neg && (w.Cmp(big.NewInt(1)) > 0 || !fracZero):
		return -2, nil
	case neg:
		return -q.Int64(), nil
	}
	return q.Int64(), nil
}
