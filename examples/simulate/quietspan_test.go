package main

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// -slurm-conf on a log whose jobs run (or arrive) near 2^40 seconds ends
// at once: the policy stepped through every PriorityCalcPeriod (and, with
// a job waiting, every BackfillInterval) of the span in one instant, about
// a minute of CPU for one job running 2^40 seconds; one submitted near
// 2^40 did not end, and a SIGTERM was not heard (the instant never ended,
// so the context was never looked at). Each run has 10 seconds.
func TestSlurmQuietSpan(t *testing.T) {
	dir := t.TempDir()
	conf := writeTrace(t, dir, "slurm.conf", "PriorityWeightAge=1000\n")
	for _, body := range []string{
		"1 0 -1 1099511627776 8 -1 -1 8 1099511627776 -1 1 1 1 1 1 -1 -1 -1\n",
		"1 1099511627000 -1 1099511627776 8 -1 -1 8 1099511627776 -1 1 1 1 1 1 -1 -1 -1\n",
		"1 0 -1 10000000000 8 -1 -1 8 10000000000 -1 1 1 1 1 1 -1 -1 -1\n" +
			"2 1 -1 10 8 -1 -1 8 10 -1 1 1 1 1 1 -1 -1 -1\n",
	} {
		tr := writeTrace(t, dir, "t.swf", body)
		done := make(chan struct{})
		var code int
		var out, errs string
		go func() {
			code, out, errs = runCmd(t, "-machine", "8", "-slurm-conf", conf, tr)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: -slurm-conf did not end in 10 s", body)
		}
		if code != 0 || !strings.Contains(out, "jobs") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", body, code, errs, out)
		}
		// An interrupt once the run is past its last arrival is heard.
		o, err := parse([]string{"-machine", "8", "-slurm-conf", conf, tr}, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if err := simulate(cancelledInFinish{context.Background()}, o, nil, io.Discard, io.Discard); err == nil || err.Error() != "interrupted" {
			t.Errorf("%q: an interrupt after the last arrival: %v, want interrupted", body, err)
		}
	}
}
