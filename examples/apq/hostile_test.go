package main

import "testing"

// -quick on a short log (-jobs 500) put the validation start before the
// first job (-167): replay's "scored range [-167, 500) is empty". The
// ranges stay inside the log, and a long log's are unchanged.
func TestTestRangeInsideTheLog(t *testing.T) {
	for _, n := range []int{3, 10, 500, 1000, 5000, 100000} {
		for _, quick := range []bool{false, true} {
			v, f, to := testRange(n, quick)
			if v < 0 || v >= f || f >= to || to > n {
				t.Errorf("n %d quick %v: [%d, %d, %d)", n, quick, v, f, to)
			}
		}
	}
	if v, f, to := testRange(100000, true); v != paperTestFrom-500 || f != paperTestFrom || to != paperTestFrom+500 {
		t.Errorf("long log, quick: [%d, %d, %d)", v, f, to)
	}
}
