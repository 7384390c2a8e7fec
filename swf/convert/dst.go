package convert

import (
	"slices"
	"strings"
	"time"
)

// Anomalies of local times at a daylight-saving change.
const (
	noteRepeatedHourTold = "local time in the hour repeated at a daylight-saving change, told by the other times"
	noteRepeatedHour     = "local time in the hour repeated at a daylight-saving change, ambiguous"
	noteSkippedHour      = "local time in the hour skipped at a daylight-saving change (none in Location: the log's zone?)"
)

// localTwin returns the other moment that the wall-clock time of u in
// loc names, when it falls in the hour a daylight-saving change repeats
// (the clocks going back: 01:30 on such a night in New York is 05:30 and
// 06:30 UTC). ok is false for any other time; near says a change is
// within 12 hours.
func localTwin(u int64, loc *time.Location) (twin int64, ok, near bool) {
	_, off := time.Unix(u, 0).In(loc).Zone()
	// A change within 12 hours either side gives the other offset.
	for _, d := range []int64{-12 * 3600, 12 * 3600} {
		_, o := time.Unix(u+d, 0).In(loc).Zone()
		if o == off {
			continue
		}
		near = true
		v := u + int64(off-o) // the same wall clock at offset o
		if _, vo := time.Unix(v, 0).In(loc).Zone(); vo == o {
			return v, true, true
		}
	}
	return 0, false, near
}

// isLocalStamp tells a time stamp read in Options.Location, Slurm's
// default "2006-01-02T15:04:05" or a table's "2006-01-02 15:04:05" (with
// or without a fraction), from one with its offset or epoch seconds,
// which name one moment.
func isLocalStamp(s string) bool {
	if len(s) < 19 || s[10] != 'T' && s[10] != ' ' {
		return false
	}
	rest := s[19:]
	if len(rest) > 0 && rest[0] == '.' {
		rest = strings.TrimLeft(rest[1:], "0123456789")
	}
	return strings.TrimSpace(rest) == ""
}

// sameClock tells whether u in loc is the wall clock of the local stamp s.
func sameClock(u int64, s string, loc *time.Location) bool {
	f := time.Unix(u, 0).In(loc).Format("2006-01-02 15:04:05")
	return f[:10] == s[:10] && f[11:] == s[11:19]
}

// settleRepeatedHour chooses the moments of r's submit, start and end
// printed as local times (stamps, Slurm's default) in the hour a
// daylight-saving change repeats, each of which names two moments an hour
// apart: time.ParseInLocation took either (the earlier in New York, the
// later in Paris), a job submitted or ended in the repeated hour an hour
// off, its wait or run time an hour long or short, without a word. Of the
// choices, those with submit ≤ start ≤ end and, where r's elapsed time is
// known, end − start = Elapsed + Suspended are kept: one left is taken
// (noted as told); several or none leave the reader's choice, noted as
// ambiguous. SLURM_TIME_FORMAT=%s prints epoch seconds, which have none.
func settleRepeatedHour(r *record, stamps [3]string, loc *time.Location) {
	settleLocal([3]*int64{&r.submit, &r.start, &r.end}, stamps, r.elapsed, r.suspended, &r.notes, loc)
}

// settleLocal is settleRepeatedHour for any reader's submit, start and
// end (times, -1 unknown) read from stamps in loc, with the run time
// elapsed and suspended (-1 unknown), noting in n: the GPU traces, job
// tables and queue snapshots read the same wall clocks.
func settleLocal(times [3]*int64, stamps [3]string, elapsed, suspended int64, n *notes, loc *time.Location) {
	if loc == time.UTC {
		return // (before the call: every record of a log in UTC comes here)
	}
	settleChain(times[:], stamps[:], func(t []int64) bool {
		return elapsed < 0 || t[1] < 0 || t[2] < 0 || t[2]-t[1] == elapsed+max(suspended, 0)
	}, n, loc) // (3 times: never more than maxTwins)
}

// maxTwins bounds the times of one job in a repeated hour settled
// together: each doubles the choices tried (2^12, 4,096 at most).
// settleChain leaves a job with more (a Philly job of a hundred attempts
// in that hour) to its caller.
const maxTwins = 12

// settleChain settles times (-1 unknown) read from stamps in loc that
// follow one another, each known one at or after every known one before
// it (submit, start, end; Philly's submit and each attempt's start and
// end), and for which fits (nil: any) holds: of the choices of the times
// in a repeated hour, the one left is taken, noted as told; several or
// none leave them as read, noted ambiguous. It reports false, and
// changes nothing, when more than maxTwins times are in a repeated hour,
// or when no choice puts more than three times in order: the caller
// settles fewer.
func settleChain(times []*int64, stamps []string, fits func([]int64) bool, n *notes, loc *time.Location) (settled bool) {
	if loc == time.UTC {
		return true
	}
	var alt []int64
	var twins []int
	for i, p := range times {
		if *p < 0 || !isLocalStamp(stamps[i]) {
			continue
		}
		v, ok, near := localTwin(*p, loc)
		switch {
		case ok:
			alt = append(alt, v)
			twins = append(twins, i)
		case near && !sameClock(*p, stamps[i], loc):
			// A wall clock the zone skips (02:30 on the night the
			// clocks go forward), which time.ParseInLocation moved an
			// hour without a word: no Slurm of that zone prints one.
			n.note(noteSkippedHour)
		}
	}
	if len(twins) == 0 {
		return true
	}
	if len(twins) > maxTwins {
		return false
	}
	t := make([]int64, len(times))
	var found []int64
	k := 0
	for mask := 0; mask < 1<<len(twins); mask++ {
		for i, p := range times {
			t[i] = *p
		}
		for b, i := range twins {
			if mask&(1<<b) != 0 {
				t[i] = alt[b]
			}
		}
		if !inOrder(t) || fits != nil && !fits(t) {
			continue
		}
		if k++; k == 1 {
			found = slices.Clone(t)
		}
	}
	switch {
	case k == 0 && len(times) > 3:
		// No choice puts a chain longer than submit, start and end in
		// order (a Philly attempt that ends before it starts, away from
		// the repeated hour): the caller settles its three.
		return false
	case k != 1:
		n.note(noteRepeatedHour)
		return true
	}
	for i, p := range times {
		*p = found[i]
	}
	n.note(noteRepeatedHourTold)
	return true
}

// inOrder reports whether each known time of t (-1 unknown) is at or
// after every known one before it.
func inOrder(t []int64) bool {
	last := int64(-1)
	for _, v := range t {
		if v < 0 {
			continue
		}
		if v < last {
			return false
		}
		last = v
	}
	return true
}
