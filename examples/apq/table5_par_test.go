package main

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
)

// runTables5 replays the logs at once; each run must be the one runTable5
// makes alone (nothing shared between the goroutines, each result in its
// log's place): the paper's four logs cut to their first 3,000 jobs, -quick
// (jobs #1501–2500 predicted, the last 500 scored), about 8 s of CPU each
// way. The times measured (elapsed, APQ's CPU) are left out.
func TestTables5AtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("replays four logs' first 3,000 jobs twice; skipped in -short mode")
	}
	e := &env{Quick: true, Log: io.Discard, Par: len(paperTraces)} // all four at once
	for _, pt := range paperTraces {
		tr, err := loadTrace(tracetest.Path(t, pt.File), pt.Name, filterRan, 3000)
		if err != nil {
			t.Fatal(err)
		}
		e.Traces = append(e.Traces, tr)
	}
	runs, err := runTables5(e)
	if err != nil {
		t.Fatal(err)
	}
	for i, tr := range e.Traces {
		alone, err := runTable5(e, tr)
		if err != nil {
			t.Fatal(err)
		}
		// The naive baseline answers every test job, as APQ does: the
		// table's AAEs are over the same jobs.
		if r := alone; r.naive.Scored != r.to-r.from || r.naive.Answered() != r.apqTest[r.chosen].Answered() || r.ibl.Answered() != r.naive.Answered() {
			t.Errorf("%s: naive answered %d of %d, APQ %d, IBL %d of the %d test jobs", tr.Name, r.naive.Answered(), r.naive.Scored, r.apqTest[r.chosen].Answered(), r.ibl.Answered(), r.to-r.from)
		}
		for _, r := range []*v5Run{runs[i], alone} {
			r.elapsed, r.apqTime = 0, [2]time.Duration{}
		}
		// (printed, not reflect.DeepEqual: the naive answers' bounds are NaN)
		if x, y := fmt.Sprintf("%+v", *runs[i]), fmt.Sprintf("%+v", *alone); x != y {
			t.Errorf("%s: the run beside the others differs from the run alone:\n%.500s\n%.500s", tr.Name, x, y)
		}
	}
}
