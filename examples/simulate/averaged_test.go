package main

import (
	"fmt"
	"strings"
	"testing"
)

// A log whose jobs are all submitted at one instant (a burst, a snapshot
// dumped as a log) has every job excluded by S7's window (each ends after
// the last arrival), so the headline figures average no job: "mean wait
// 0 s, mean bsld 0.00, utilization 0.000 (over an empty window)" while
// the "simulated wait" line of the same run says a mean of hours. Only the
// "averaged 0 jobs" line hinted at it; a warning now says that the means
// are empty, not zero.
func TestNothingAveragedWarns(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 4\n")
	for i := range 20 {
		fmt.Fprintf(&b, "%d 0 -1 600 2 -1 -1 2 900 -1 1 1 1 1 1 -1 -1 -1\n", i+1)
	}
	p := writeTrace(t, t.TempDir(), "burst.swf", b.String())
	code, out, errs := runCmd(t, p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "averaged          0 jobs") {
		t.Fatalf("the log no longer exercises an empty S7 window:\n%s", out)
	}
	warned := false
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "warning") && strings.Contains(l, "averag") {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning that the means average no job (every job excluded by S7):\n%s", out)
	}
}

// The same burst in -json: the utilization over an empty window is null,
// not a 0 that reads as an idle machine; the window's bounds stay as S7
// computes them, end before start.
func TestEmptyWindowUtilizationNull(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 4\n")
	for i := range 20 {
		fmt.Fprintf(&b, "%d 0 -1 600 2 -1 -1 2 900 -1 1 1 1 1 1 -1 -1 -1\n", i+1)
	}
	m := runJSON(t, writeTrace(t, t.TempDir(), "burst.swf", b.String()))
	u, ok := m["utilization"]
	if !ok || u != nil {
		t.Errorf("utilization %v (present %v), want null", u, ok)
	}
	if s, e := m["window_start_s"].(float64), m["window_end_s"].(float64); e > s {
		t.Errorf("window [%v, %v] is not empty: the log no longer exercises an empty S7 window", s, e)
	}
}
