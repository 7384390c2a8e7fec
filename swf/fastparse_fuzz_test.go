package swf

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// FuzzParseFastMatchesScan holds parseJob (parseFast, else parseJobScan)
// to parseJobScan on any bytes: the same 18 fields (floats compared by
// their bits: -0 is not 0, and a NaN is itself) or the same error. Every
// field is checked as written: parseJob's job starts as garbage. Without
// -fuzz it runs the seeds: lines of the archive's logs and tokens at
// parseFast's bounds.
func FuzzParseFastMatchesScan(f *testing.F) {
	real := []string{
		"   15   599850 192180   3477    4     -1    -1    4  53940    -1  1  12  12  -1 -1 -1 -1 -1",
		" 1485   733164     12    236   32 163.38    -1   32   3600    -1  1 233  -1  -1  0 -1 -1 -1",
		" 5000  1776359      0     32   32     -1   380   -1     -1    -1  1  20  -1  11  6 -1 -1 -1",
		"1 0 10 3600 16 142.00 35100.00 16 7200 -1 1 1 1 -1 -1 -1 -1 -1",
	}
	for _, line := range real {
		f.Add([]byte(line))
	}
	tokens := []string{
		"123456789012345", "1234567890123456", "123456789012345678", "1234567890123456789",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"99999999999999999999", "999999999999999", "1099511627775", "1099511627776", "-1099511627776", // 15 digits, 2^40
		"-", "--1", "-0", "-1", "-2", "-1.5", "-.5", "-0.5", "-0.0", "-1.0", "+1", "+0",
		"1e3", "1E3", "0x10", "NaN", "nan", "Inf", "-Inf", "+Inf", "1.", "5.", ".5", ".", "1.2.3",
		"12345678901234.5", "1234567890123.45", "123456789012345.0", "0.000000000000001", "0.0000000000000001",
		"902.5921008501867", "9491468.468752951", // 16 digits: float64(v)/1e13 rounds twice, off strconv's
		"1\r", "\r", "\v1", "1\f", "\x00", "1\x00", "\xff", "\xc2\xa0", "١", "1\n",
		// next to parseFast's "-1 " taken whole
		"-10", "-11", "-1e3", "-1-", "-1\t", "-1\r", "-1\x00", "-1;", "-1.", "-1\n",
		// a time field's fraction, rounded (parseTime)
		"20.5", "100.6", "100.4", "0.5", "0.49999999999999999999", "-1.00", "-1.01", "+2.5", "1.5e3", "1.55e1",
		"1099511627775.5", "1099511627776.5", "9223372036854775806.5", "9223372036854775807.4", "9223372036854775807.5",
		"99999999999999999999.5", "5.000000000000000000000000001",
	}
	for _, tok := range tokens {
		for _, field := range []int{0, 1, 3, 5, 8, 9, 10, 17} {
			fields := strings.Fields(real[1])
			fields[field] = tok
			f.Add([]byte(strings.Join(fields, " ")))
		}
	}
	fields := strings.Fields(real[1])
	f.Add([]byte(strings.Join(fields[:17], " ")))                         // 17 fields
	f.Add([]byte(strings.Join(append(fields, "1"), " ")))                 // 19
	f.Add([]byte(strings.Join(append(fields, "1", "2"), " ")))            // 20
	f.Add([]byte(strings.Join(fields, " ") + " \t \t"))                   // trailing blanks
	f.Add([]byte(strings.Join(fields, " ") + "\r"))                       // a CRLF log's line
	f.Add([]byte("\t " + strings.Join(fields, "\t")))                     // a blank first
	f.Add([]byte(strings.Join(fields, " ") + " ;"))                       // a comment after
	f.Add([]byte(strings.Join(fields, " ") + "\x00"))                     // the buffer's own end mark
	f.Add([]byte(strings.Join(fields[:17], " ") + " \x00 " + fields[17])) // inside
	f.Add([]byte{})
	f.Add([]byte(" "))
	// Lines of 239 to 241, 255 to 259 bytes: padded with blanks, or with
	// a long last field, or ending in a '-' or "-1" (parseLine loads the
	// two bytes after a '-' at once, b[256] at most).
	base := strings.Join(fields, " ")
	for _, n := range []int{239, 240, 241, 242, 255, 256, 257, 258, 259} {
		padded := []byte(base + strings.Repeat(" ", n-len(base)))
		var j Job
		if len(padded) != n || parseFast(padded, &j, stale()) != (n <= maxFastLine) {
			f.Fatalf("parseFast on a blank-padded line of %d bytes (want %d): took it %v", len(padded), n, !(n <= maxFastLine))
		}
		f.Add(padded)
		f.Add([]byte(strings.Repeat("\t", n-len(base)) + base))
		f.Add([]byte(base[:len(base)-2] + strings.Repeat("0", n-len(base)+1) + "1")) // a long last field
		head := strings.Join(fields[:17], " ") + " "
		f.Add([]byte(head + strings.Repeat("1", n-len(head))))
		f.Add([]byte(head + strings.Repeat(" ", n-len(head)-1) + "-"))
		f.Add([]byte(head + strings.Repeat(" ", n-len(head)-2) + "-1"))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast, scan Job
		took := parseFast(line, &fast, stale())
		srounded, serr := parseJobScan(line, &scan)
		got := poison()
		grounded, gerr := parseJob(line, &got, stale())
		if grounded != srounded || took && srounded != 0 || !onlyTimeFields(srounded) || serr != nil && srounded != 0 {
			t.Fatalf("%q: rounded fields %b, parseJobScan %b (parseFast took it: %v; error %v)", line, grounded, srounded, took, serr)
		}
		// The bytes after the line's '\n' in the scratch are another
		// line's: what they hold changes nothing (parseLine reads the
		// two after a '-' in one load, past the '\n' after a "-\n").
		var odd Job
		if oddTook := parseFast(line, &odd, staleWith("1\n-1 ")); oddTook != took || diffJob(odd, fast) != "" {
			t.Fatalf("%q: parseFast took it %v, %+v, and %v, %+v after another line", line, took, fast, oddTook, odd)
		}
		if !took && diffJob(fast, Job{}) != "" {
			t.Fatalf("%q: parseFast refused the line but wrote %+v", line, fast)
		}
		if took {
			if serr != nil {
				t.Fatalf("%q: parseFast took a line parseJobScan refuses (%v): %+v", line, serr, fast)
			}
			if d := diffJob(fast, scan); d != "" {
				t.Fatalf("%q: parseFast and parseJobScan differ in %s: %+v, %+v", line, d, fast, scan)
			}
		}
		switch {
		case (gerr == nil) != (serr == nil):
			t.Fatalf("%q: parseJob error %v, parseJobScan %v", line, gerr, serr)
		case gerr != nil:
			if gerr.Error() != serr.Error() || gerr.Field != serr.Field || gerr.Value != serr.Value ||
				!errors.Is(gerr, errors.Unwrap(serr)) {
				t.Fatalf("%q: parseJob error %#v, parseJobScan %#v", line, gerr, serr)
			}
		default:
			if d := diffJob(got, scan); d != "" {
				t.Fatalf("%q: parseJob and parseJobScan differ in %s: %+v, %+v", line, d, got, scan)
			}
		}
	})
}

// poison is a job whose every field differs from any a line gives (a
// NaN in the floats, -77 elsewhere), so that a field parseJob leaves
// unwritten shows.
func poison() Job {
	nan := math.Float64frombits(0x7ff8dead00000000)
	return Job{ID: -77, Submit: -77, Wait: -77, RunTime: -77, AllocProcs: -77, AvgCPUTime: nan, UsedMemory: nan,
		ReqProcs: -77, ReqTime: -77, ReqMemory: nan, Status: -77, User: -77, Group: -77, Executable: -77,
		Queue: -77, Partition: -77, PrecedingJob: -77, ThinkTime: -77}
}

// diffJob names the first of the 18 fields in which a and b differ
// (floats by their bits), or "".
func diffJob(a, b Job) string {
	ints := func(j Job) [15]int64 {
		return [...]int64{j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, int64(j.Status),
			j.User, j.Group, j.Executable, j.Queue, j.Partition, j.PrecedingJob, j.ThinkTime}
	}
	floats := func(j Job) [3]uint64 {
		return [...]uint64{math.Float64bits(j.AvgCPUTime), math.Float64bits(j.UsedMemory), math.Float64bits(j.ReqMemory)}
	}
	if ia, ib := ints(a), ints(b); ia != ib {
		for k := range ia {
			if ia[k] != ib[k] {
				return "integer field " + []string{"ID", "Submit", "Wait", "RunTime", "AllocProcs", "ReqProcs",
					"ReqTime", "Status", "User", "Group", "Executable", "Queue", "Partition", "PrecedingJob",
					"ThinkTime"}[k]
			}
		}
	}
	if fa, fb := floats(a), floats(b); fa != fb {
		for k := range fa {
			if fa[k] != fb[k] {
				return []string{"AvgCPUTime", "UsedMemory", "ReqMemory"}[k] + " (bits)"
			}
		}
	}
	if a.Demand != b.Demand {
		return "Demand"
	}
	return ""
}

// onlyTimeFields reports whether a mask of rounded fields names time
// fields alone.
func onlyTimeFields(mask uint64) bool {
	for k := range NumFields {
		if mask&(1<<k) != 0 && !timeField[k] || mask&(1<<(32+k)) != 0 && k == statusField {
			return false
		}
	}
	return mask&^(1<<NumFields-1|(1<<NumFields-1)<<32) == 0
}
