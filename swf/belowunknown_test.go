package swf

import (
	"strings"
	"testing"
)

// A number below -1 in any field but the status — whole, decimal or in a
// time field with a fraction — is read as -1, unknown, the job kept and
// the field counted; in strict and lenient mode alike. SWF has no such
// value; pyss and predictsim simulate such a job as one with -1 there
// (examples/simulate's TestBelowUnknownPeers); the line was refused
// (ErrRange), so a log with one clock-skewed wait failed without
// -lenient and lost the job with it.
func TestBelowUnknownRead(t *testing.T) {
	log := "1 0 -5 100 4 -2.5 -1 4 300 -1 1 7 -1 -1 1 -1 -1 -9\n" + // wait, average CPU time, think time
		"2 10 0 -3.0 4 -1 -1 4 -1.5 -7.25 1 7 -1 -1 1 -1 -1 -1\n" + // run time, requested time (fractions), requested memory
		"3 20 0 100 4 -1 -1 4 300 -1 -4 7 -1 -1 1 -1 -1 -1\n" // a status code: kept, not counted
	for _, lenient := range []bool{false, true} {
		r := NewReader(strings.NewReader(log))
		r.Lenient = lenient
		jobs, err := r.ReadAll()
		if err != nil || len(jobs) != 3 {
			t.Fatalf("lenient=%v: %d jobs, %v; want 3", lenient, len(jobs), err)
		}
		j0, j1 := jobs[0], jobs[1]
		if j0.Wait != -1 || j0.AvgCPUTime != -1 || j0.ThinkTime != -1 || j1.RunTime != -1 || j1.ReqTime != -1 || j1.ReqMemory != -1 || jobs[2].Status != -4 {
			t.Errorf("lenient=%v: %+v %+v %+v; want -1 in every field written below -1, the status kept", lenient, j0, j1, jobs[2])
		}
		st := r.Stats()
		want := [NumFields]int{2: 1, 3: 1, 5: 1, 8: 1, 9: 1, 17: 1}
		if st.BelowUnknown != 6 || st.BelowUnknownFields != want || st.Skipped != 0 || st.Rounded != 0 {
			t.Errorf("lenient=%v: BelowUnknown %d by field %v, skipped %d, rounded %d; want 6 %v, 0, 0", lenient, st.BelowUnknown, st.BelowUnknownFields, st.Skipped, st.Rounded, want)
		}
	}
}
