package convert

import (
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
	if loc == time.UTC {
		return 0, false, false
	}
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
// default "2006-01-02T15:04:05", from one with its offset or epoch
// seconds, which name one moment.
func isLocalStamp(s string) bool { return len(s) == 19 && s[10] == 'T' }

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
	times := [3]*int64{&r.submit, &r.start, &r.end}
	var alt [3]int64
	var twins []int
	for i, p := range times {
		if *p < 0 || !isLocalStamp(stamps[i]) {
			continue
		}
		v, ok, near := localTwin(*p, loc)
		switch {
		case ok:
			alt[i] = v
			twins = append(twins, i)
		case near && time.Unix(*p, 0).In(loc).Format("2006-01-02T15:04:05") != stamps[i]:
			// A wall clock the zone skips (02:30 on the night the
			// clocks go forward), which time.ParseInLocation moved an
			// hour without a word: no Slurm of that zone prints one.
			r.note(noteSkippedHour)
		}
	}
	if len(twins) == 0 {
		return
	}
	var found [3]int64
	n := 0
	for mask := 0; mask < 1<<len(twins); mask++ {
		t := [3]int64{r.submit, r.start, r.end}
		for k, i := range twins {
			if mask&(1<<k) != 0 {
				t[i] = alt[i]
			}
		}
		submit, start, end := t[0], t[1], t[2]
		switch {
		case submit >= 0 && start >= 0 && submit > start,
			submit >= 0 && end >= 0 && submit > end,
			start >= 0 && end >= 0 && start > end,
			start >= 0 && end >= 0 && r.elapsed >= 0 && end-start != r.elapsed+max(r.suspended, 0):
			continue
		}
		if n++; n == 1 {
			found = t
		}
	}
	if n != 1 {
		r.note(noteRepeatedHour)
		return
	}
	r.submit, r.start, r.end = found[0], found[1], found[2]
	r.note(noteRepeatedHourTold)
}
