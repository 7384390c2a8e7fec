package convert

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/internal/slurmjson"
)

// Errors wrapped by ParseError.
var (
	errNumber   = errors.New("not a number")
	errDuration = errors.New("not a duration ([D-]HH:MM:SS, MM:SS[.mmm] or seconds)")
	errSize     = errors.New("not a size (a number and an optional unit K, M, G, T, P, or kb, mb, gb ...)")
	errTime     = errors.New("not a time (YYYY-MM-DDTHH:MM:SS with an optional offset, epoch seconds, Unknown or None)")
	errRange    = errors.New("value out of range")
	errFuture   = errors.New("a time after the year 2200")
	errEarly    = errors.New("a time before 1990 (an unset or zeroed field; no batch log is older)")
	errProcs    = errors.New("more than 16777216 processors (no machine has as many)")
)

// maxSeconds bounds any count read (about 35,000 years in seconds), so
// that sums, differences and products of two of them never overflow an
// int64.
const maxSeconds = 1 << 40

// Bounds of plausible values (issue 31): a value past them is not taken
// as it is but read as an unreadable field (-1, counted as an anomaly with
// its error), so that a corrupt line cannot stretch a log over centuries
// or make a job larger than any machine.
const (
	// maxTime is 2200-01-01T00:00:00Z: a later time stamp (sacct's year
	// 9999, say) is corrupt, and no duration is longer.
	maxTime = 7258118400
	// minTime is 1990-01-01T00:00:00Z: an earlier absolute time stamp is
	// no time a batch log holds but an unset or zeroed field printed as
	// a date (1970-01-01, or a few hours off it in another time zone, or
	// epoch seconds 1): it was taken as a real time, a job submitted in
	// 1970 stretching the log over 54 years.
	minTime = 631152000
	// maxProcs bounds the processors (and nodes) of one job: 2^24, more
	// than the largest machine has cores.
	maxProcs = 1 << 24
	// maxMemKB bounds memory per processor: 1 PiB in kilobytes.
	maxMemKB = 1 << 40
)

// parseCount reads a non-negative integer.
func parseCount(s string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, errRange
		}
		return 0, errNumber
	}
	if n < 0 || n > maxSeconds {
		return 0, errRange
	}
	return n, nil
}

// parseProcs reads a processor or node count, at most maxProcs. A
// negative count is out of range, not "more than 16777216 processors".
func parseProcs(s string) (int64, error) {
	n, err := parseCount(s)
	if err == nil && n > maxProcs || err == errRange && !strings.HasPrefix(s, "-") {
		return 0, errProcs
	}
	return n, err
}

// parseDuration reads Slurm's and PBS's clock durations: "D-HH:MM:SS",
// "HH:MM:SS", "MM:SS", "MM:SS.mmm" (sacct's TotalCPU), PBS's
// "[[HH:]MM:]SS" with unnormalized hours ("100:00:00"), and plain seconds.
// Fractions of a second are kept.
func parseDuration(s string) (float64, error) {
	days := 0.0
	d, rest, hasDays := strings.Cut(s, "-")
	if hasDays {
		n, err := parseCount(d)
		if err != nil || rest == "" {
			return 0, errDuration
		}
		days, s = float64(n), rest
	}
	parts := strings.Split(s, ":")
	if len(parts) > 4 || len(parts) == 4 && hasDays {
		return 0, errDuration
	}
	total := 0.0
	for i, p := range parts {
		var v float64
		if i == len(parts)-1 && strings.Contains(p, ".") {
			whole, frac, _ := strings.Cut(p, ".")
			n, err := parseCount(whole)
			if err != nil || frac == "" || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
				return 0, errDuration
			}
			f, _ := strconv.ParseFloat("0."+frac, 64)
			v = float64(n) + f
		} else {
			n, err := parseCount(p)
			if err != nil {
				return 0, errDuration
			}
			v = float64(n)
		}
		total = total*60 + v
		if i == 0 && len(parts) == 4 { // PBS "D:HH:MM:SS": days then hours
			total = total * 24 / 60
		}
	}
	if hasDays {
		// "D-HH", "D-HH:MM" and "D-HH:MM:SS": the first part is hours,
		// with 0 days too ("0-05:00", Slurm's --time for 5 hours, was
		// 5 minutes, "0-05" 5 seconds).
		total *= math.Pow(60, float64(3-len(parts)))
		total += days * 86400
	}
	if total > maxTime {
		return 0, errRange
	}
	return total, nil
}

// sizeUnits are the multipliers of memory units, in bytes. Slurm writes
// K, M, G, T, P (powers of 1024); PBS writes b, kb, mb, gb, tb and words.
var sizeUnits = map[string]float64{
	"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "t": 1 << 40, "tb": 1 << 40, "p": 1 << 50, "pb": 1 << 50,
	"w": 8, "kw": 8 << 10, "mw": 8 << 20, "gw": 8 << 30, "tw": 8 << 40,
}

// parseSize reads a memory size such as "4000M", "3.91G", "1234kb" and
// returns it in bytes. A bare number is in units of bare bytes (so
// sacct's ReqMem "4000" in megabytes needs bare = 1<<20).
func parseSize(s string, bare float64) (float64, error) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.ToLower(s[i:])
	if num == "" || len(num) > 24 {
		return 0, errSize
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, errSize
	}
	mult, ok := sizeUnits[unit]
	if !ok {
		return 0, errSize
	}
	if unit == "" {
		mult = bare
	}
	v *= mult
	if v > 1<<62 || math.IsNaN(v) {
		return 0, errRange
	}
	return v, nil
}

// checkTime says whether epoch seconds u are a plausible absolute time:
// errRange below 0, errEarly before minTime, errFuture after maxTime.
func checkTime(u int64) error {
	switch {
	case u < 0:
		return errRange
	case u < minTime:
		return errEarly
	case u > maxTime:
		return errFuture
	}
	return nil
}

// parseTime reads a Slurm timestamp: the default "2006-01-02T15:04:05" in
// loc, the same with its own offset or Z (SLURM_TIME_FORMAT="%FT%T%z":
// "2024-03-01T08:00:00+0100", "+01:00"), which loc does not change, or
// epoch seconds (SLURM_TIME_FORMAT=%s). "Unknown", "None", "N/A", "" and
// 0 mean unknown (-1), and "unknown", jobcomp/filetxt's SubmitTime and
// EligibleTime of a job without one; another time before 1990 is
// unreadable (errEarly).
func parseTime(s string, loc *time.Location) (int64, error) {
	switch s {
	case "", "Unknown", "unknown", "None", "N/A", "0", "(null)":
		return -1, nil
	}
	if s[0] >= '0' && s[0] <= '9' && !strings.ContainsAny(s, "-:T") {
		n, err := parseCount(s)
		switch {
		case err == errRange || err == nil && n > maxTime:
			return 0, errFuture
		case err != nil:
			return 0, errTime
		}
		if err := checkTime(n); err != nil {
			return 0, err
		}
		return n, nil
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05", s, loc)
	for _, zoned := range []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05Z0700"} {
		if err != nil {
			// A time with its offset was every job's "no submit time":
			// a log of 0 jobs.
			t, err = time.Parse(zoned, s)
		}
	}
	if err != nil {
		return 0, errTime
	}
	u := t.Unix()
	if err := checkTime(u); err != nil {
		return 0, err
	}
	return u, nil
}

// clip cuts s to about 64 bytes at a rune boundary, marking the cut with
// "…", so that an error never quotes a hostile line whole (the live
// feed's rule, shared).
func clip(s string) string { return slurmjson.Clip(s) }
