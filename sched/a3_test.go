package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// S3: a running job outlived its prediction. EASY keeps its holder at the
// head of the queue and backfills nothing by its time behind it (the
// shadow is in the past); conservative backfilling, re-placing the
// reservation the overrun made impossible, lets the jobs whose
// reservations still hold go first. P = 4.
//
// A long overrun freezes EASY's queue:
//
//	t=0   1 (2 procs, estimate 10) starts and runs until 10,000.
//	t=5   2 (4 procs) waits for 1's processors: EASY's shadow is 10, in
//	      the past from t=10 on; conservative reserves t+1.
//	t=20  3 (2 procs, 50 s) arrives. EASY: it cannot end by a past shadow
//	      and there are no extra processors: it waits behind 2 until 2 has
//	      run (10,100). Conservative: reserved after 2 (t=121).
//	t=200 4 (1 proc) arrives; conservative's pass finds 3's reservation
//	      due and 2's slot gone: 2 is re-placed after 3, 3 starts; at 250
//	      4 starts in the slot it was promised. EASY: 4 waits for 2 as 3
//	      does.
//
// A short overrun demotes conservative's holder:
//
//	t=0   1 (2 procs, estimate 100) runs until 110.
//	t=1   2 (4 procs) reserved at 100 by both.
//	t=50  3 (2 procs, 100 s) reserved at 200 (after 2) by conservative.
//	t=105 4 (4 procs, 10 s) arrives, 1 has outlived its estimate.
//	      Conservative re-places 2 after 3's reservation (at 300), and 3
//	      starts now on the 2 free processors; 4 is placed between them
//	      (205). At 110 1 ends and 2 is re-placed after 4 (215). EASY: 2
//	      is still the holder, 3 and 4 still fail both tests, and 2
//	      starts at 110, when 1 ends.
func TestA3ExpiredPrediction(t *testing.T) {
	long := []swf.Job{job(1, 0, 10000, 2, 10), job(2, 5, 100, 4, 100), job(3, 20, 50, 2, 50), job(4, 200, 10, 1, 10)}
	check(t, "long overrun, EASY", sched.EASY(4), long, want{1: 0, 2: 10000, 3: 10100, 4: 10100})
	check(t, "long overrun, conservative", conservative(4), long, want{1: 0, 2: 10000, 3: 200, 4: 250})

	short := []swf.Job{job(1, 0, 110, 2, 100), job(2, 1, 100, 4, 100), job(3, 50, 100, 2, 100), job(4, 105, 10, 4, 10)}
	check(t, "short overrun, EASY", sched.EASY(4), short, want{1: 0, 2: 110, 3: 210, 4: 310})
	check(t, "short overrun, conservative", conservative(4), short, want{1: 0, 3: 105, 4: 205, 2: 215})
}

// The S3 figures of docs/decisions.md: mean waits of EASY and conservative
// backfilling, with logged run times and with KillAtEstimate (no job
// outlives a user estimate), on LANL-CM5 (15,723 jobs ran more than twice
// their estimate) and LLNL-Atlas (3,351 jobs a little past it), and on
// KTH with one job added that overran its 20-minute estimate by 76 days.
// About 6 s of CPU; not in -short.
func TestA3Logs(t *testing.T) {
	if testing.Short() {
		t.Skip("about 6 s of CPU")
	}
	wait := func(cfg sched.Config, jobs []swf.Job) string {
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%.1f", res.Summary.MeanWait/60)
	}
	for _, c := range []struct {
		trace string
		want  [4]string // EASY, conservative; then both with KillAtEstimate (minutes)
	}{
		{tracetest.LANLCM5, [4]string{"433.4", "188.9", "27.0", "26.5"}},
		{tracetest.LLNL, [4]string{"0.5", "8.7", "0.5", "0.5"}},
	} {
		h, jobs, err := swf.ReadFile(tracetest.Path(t, c.trace))
		if err != nil {
			t.Fatal(err)
		}
		P, _ := h.MachineSize()
		var got [4]string
		for i, cfg := range []sched.Config{sched.EASY(P), conservative(P)} {
			got[i] = wait(cfg, jobs)
			cfg.KillAtEstimate = true
			got[i+2] = wait(cfg, jobs)
		}
		if got != c.want {
			t.Errorf("%s: mean waits (EASY, conservative, both killing) %v min, docs/decisions.md says %v", c.trace, got, c.want)
		}
	}

	// KTH and one job of 8 processors submitted at 5,000,000 s with a
	// 20-minute estimate, running 76 days longer.
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if jobs[i].Submit >= 5_000_000 {
			j := job(999999, jobs[i].Submit, 1200+76*86400, 8, 1200)
			jobs = append(jobs[:i], append([]swf.Job{j}, jobs[i:]...)...)
			break
		}
	}
	if e, c := wait(sched.EASY(100), jobs), wait(conservative(100), jobs); e != "14173.7" || c != "407.9" {
		t.Errorf("KTH with a 76-day overrun: EASY %s min, conservative %s min; docs/decisions.md says 14173.7 and 407.9", e, c)
	}
}

// conservative is the conservative-backfilling preset on P processors.
func conservative[T int | int64](P T) sched.Config {
	p, _ := sched.LookupPreset("conservative")
	return p.New(int64(P))
}
