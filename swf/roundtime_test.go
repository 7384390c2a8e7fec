package swf

import (
	"errors"
	"strings"
	"testing"
)

// A time field written with a fraction, as the SWF definition allows, is
// read rounded to the nearest second (halves away from zero) and counted
// in Stats.Rounded, in strict mode; a whole value with a zero fraction,
// the float field 6 and an integer-only line are not counted. Before,
// "20.5" and "100.6" were "not a number": the log failed, and with
// Lenient each such line was skipped.
func TestFractionalTimesRounded(t *testing.T) {
	log := "; MaxProcs: 8\n" +
		"1 0 0 100 4 12.5 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10 0 100.6 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"3 20.5 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"4 30.0 0.4 99.5 4 -1 -1 4 .5 -1 1 1 1 -1 1 -1 -1 2.\n" +
		"5 -1.0 -1.0 -1.00 4 -1 -1 4 -1.0 -1 1 1 1 -1 1 -1 -1 7.49\n"
	for _, lenient := range []bool{false, true} {
		r := NewReader(strings.NewReader(log))
		r.Lenient = lenient
		jobs, err := r.ReadAll()
		if err != nil {
			t.Fatalf("lenient %v: %v", lenient, err)
		}
		got := make([][5]int64, len(jobs))
		for i, j := range jobs {
			got[i] = [5]int64{j.Submit, j.Wait, j.RunTime, j.ReqTime, j.ThinkTime}
		}
		want := [][5]int64{{0, 0, 100, 200, -1}, {10, 0, 101, 200, -1}, {21, 0, 100, 200, -1}, {30, 0, 100, 1, 2}, {-1, -1, -1, -1, 7}}
		if len(got) != len(want) {
			t.Fatalf("lenient %v: %d jobs, want %d", lenient, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("lenient %v: job %d: submit, wait, run, requested, think %v, want %v", lenient, i+1, got[i], want[i])
			}
		}
		if jobs[0].AvgCPUTime != 12.5 {
			t.Errorf("field 6 %v, want 12.5", jobs[0].AvgCPUTime)
		}
		// 100.6, 20.5, 0.4, 99.5, .5 and 7.49; not 30.0, 2. or -1.0
		if st := r.Stats(); st.Rounded != 6 || st.Skipped != 0 {
			t.Errorf("lenient %v: Rounded %d, Skipped %d; want 6, 0", lenient, st.Rounded, st.Skipped)
		}
		// by field: 20.5 in field 2, 0.4 in 3, 100.6 and 99.5 in 4, .5 in
		// 9, 7.49 in 18
		var byField [NumFields]int
		byField[1], byField[2], byField[3], byField[8], byField[17] = 1, 1, 2, 1, 1
		if st := r.Stats(); st.RoundedFields != byField {
			t.Errorf("lenient %v: RoundedFields %v, want %v", lenient, st.RoundedFields, byField)
		}
	}
}

// What parseTime takes and refuses, at the edges: -1 is the only negative
// value (unknown), a value past int64 after rounding is out of range, one
// past 2^40 s is read (sanitize refuses it, as a whole one), other
// notations are not numbers, and a long fraction or integer part is read
// exactly. Processors and job numbers stay whole.
func TestParseTimeEdges(t *testing.T) {
	cases := []struct {
		tok     string
		want    int64
		rounded bool
		err     error
	}{
		{"20.5", 21, true, nil}, {"100.6", 101, true, nil}, {"100.4", 100, true, nil}, {"0.5", 1, true, nil},
		{"2.5", 3, true, nil}, {"0.49999999999999999999", 0, true, nil}, {".5", 1, true, nil}, {"5.", 5, false, nil},
		{"100.0", 100, false, nil}, {"+2.5", 3, true, nil}, {"-1.0", -1, false, nil}, {"-0.0", 0, false, nil},
		{"1099511627776.5", 1<<40 + 1, true, nil}, {"9223372036854775806.5", 9223372036854775807, true, nil},
		{"9223372036854775807.4", 9223372036854775807, true, nil}, {"2076494515587941762.", 2076494515587941762, false, nil},
		{"1." + strings.Repeat("0", 1000) + "1", 1, true, nil}, {"2." + strings.Repeat("9", 1000), 3, true, nil},
		{"-0.5", 0, false, ErrRange}, {"-1.5", -2, false, nil}, {"-0.4", 0, false, ErrRange}, {"-2.0", -2, false, nil},
		{"9223372036854775807.5", 0, false, ErrRange}, {strings.Repeat("9", 1000) + ".5", 0, false, ErrRange},
		{"1e3", 0, false, ErrSyntax}, {"0x10", 0, false, ErrSyntax}, {"inf", 0, false, ErrSyntax}, {"nan", 0, false, ErrSyntax},
		{"1.55e1", 0, false, ErrSyntax}, {".", 0, false, ErrSyntax}, {"-.", 0, false, ErrSyntax}, {"1.2.3", 0, false, ErrSyntax},
		{"--0.5", 0, false, ErrSyntax}, {"1.5x", 0, false, ErrSyntax},
	}
	for _, c := range cases {
		v, rounded, err := parseTime([]byte(c.tok))
		if v != c.want || rounded != c.rounded || !errors.Is(err, c.err) || (err == nil) != (c.err == nil) {
			t.Errorf("%.40q: %d, rounded %v, %v; want %d, %v, %v", c.tok, v, rounded, err, c.want, c.rounded, c.err)
		}
	}
	for _, f := range []int{1, 5, 8} { // job number, processors, requested processors
		fields := strings.Fields("1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 -1 -1 -1")
		fields[f-1] = "4.5"
		var j Job
		if _, err := parseJob([]byte(strings.Join(fields, " ")), &j, stale()); err == nil || err.Field != f || !errors.Is(err, ErrSyntax) {
			t.Errorf("field %d \"4.5\": %v, want not a number", f, err)
		}
	}
}
