package forecast

import "testing"

// TestRunSumsHuge checks that the running jobs' processors saturate at
// maxMachine, as the loop over them did, however many run: 2^23 jobs of
// 2^40 processors sum to 2^63, which an int64 sum wrapped to a negative
// busy count; and that their ends bring the sum back.
func TestRunSumsHuge(t *testing.T) {
	var r runSums
	const n = 1 << 23
	for range n {
		r.start(maxMachine, 0, runEnd{})
	}
	if got := r.busy(); got != maxMachine {
		t.Fatalf("%d jobs of 2^40 processors: busy %d, want %d", n, got, int64(maxMachine))
	}
	for range n - 1 {
		r.end(maxMachine, 0)
	}
	r.end(maxMachine, 0)
	r.start(5, 1, runEnd{})
	if got := r.busy(); got != 5 {
		t.Fatalf("after every end and a job of 5: busy %d, want 5", got)
	}
}
