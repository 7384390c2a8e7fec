package sched_test

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// want is a job ID's expected start time, worked out by hand (see comments).
type want map[int64]int64

func check(t *testing.T, name string, cfg sched.Config, jobs []swf.Job, w want) *sched.Result {
	t.Helper()
	res, err := sched.Run(context.Background(), cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Records {
		if s, ok := w[r.Job.ID]; ok && r.Start != s {
			t.Errorf("%s: job %d started at %d, want %d", name, r.Job.ID, r.Start, s)
		}
	}
	return res
}

// Scenario 1, P = 10 (id, submit, run, procs, estimate):
//
//	t=0   1 and 2 start (6+4 procs).
//	t=10  3 (8 procs) waits: shadow 100 (2 ends by estimate at 60 → 4 free,
//	      1 at 100 → 10), extra 2.
//	t=50  2 ends; 4 (2 procs, e=40) backfills by condition (i): 50+40 ≤ 100.
//	t=60  6 (2 procs, e=200) backfills by condition (ii): extra = 2 (5, 3 procs,
//	      does not fit the 2 free).
//	t=100 1 ends, 3 starts. t=200 3 ends, 5 and 7 start (4 free).
//	t=205 8 (6 procs) waits: shadow 220 (7 at 210 → 5, 5 at 220 → 8), extra 2.
//	t=206 9 (3 procs, e=50) cannot: 256 > 220 and 3 > extra 2.
//	t=207 10 (2 procs, e=10) backfills by (i): 217 ≤ 220.
//	t=220 5 ends, 8 starts (2 free); 9 holds: shadow 260 (6 ends), extra 1.
//	t=230 11 (1 proc, e=20) backfills by (i): 250 ≤ 260.
//	t=240 12 (2 procs) does not fit the 1 free; at 250 (11 ends) it backfills
//	      by (i): 255 ≤ 260. t=260 6 ends, 9 starts.
//
// Conservative gives the same starts: 4 fits [50,90) before 3's reservation,
// 6 fits 2 procs beside 3 over [100,200) and beside 5 at 200; 8 is reserved
// at 220, 9 at 260 (only 2 free over [220,260) beside 8); 10 fits [207,217),
// 11 [230,250) with 1 proc beside 8 and 6, and 12 is reserved at 250.
func scenario1() []swf.Job {
	return []swf.Job{
		job(1, 0, 100, 6, 100), job(2, 0, 50, 4, 60), job(3, 10, 100, 8, 100),
		job(4, 20, 30, 2, 40), job(5, 55, 20, 3, 20), job(6, 60, 200, 2, 200),
		job(7, 110, 10, 1, 10), job(8, 205, 100, 6, 100), job(9, 206, 50, 3, 50),
		job(10, 207, 10, 2, 10), job(11, 230, 20, 1, 20), job(12, 240, 5, 2, 5),
	}
}

var scenario1Starts = want{1: 0, 2: 0, 3: 100, 4: 50, 5: 200, 6: 60, 7: 200, 8: 220, 9: 260, 10: 207, 11: 230, 12: 250}

// Scenario 2, P = 6: EASY backfills E by extra processors at t=3 (C holds
// the reservation at 100 and leaves 2 extra), which delays D (not the head
// then) from 200 to 253; conservative keeps D's reservation at 200 and
// pushes E to 300. FCFS runs them in order.
func scenario2() []swf.Job {
	return []swf.Job{
		job(1, 0, 100, 4, 100), // A
		job(2, 1, 100, 4, 100), // C
		job(3, 2, 100, 6, 100), // D
		job(4, 3, 250, 2, 250), // E
	}
}

func TestHandEASY(t *testing.T) {
	res := check(t, "scenario1", sched.EASY(10), scenario1(), scenario1Starts)
	for _, r := range res.Records {
		bf := r.Job.ID == 4 || r.Job.ID == 6 || r.Job.ID >= 10
		if r.Backfilled != bf {
			t.Errorf("job %d backfilled=%v", r.Job.ID, r.Backfilled)
		}
	}
	check(t, "scenario2", sched.EASY(6), scenario2(), want{1: 0, 2: 100, 3: 253, 4: 3})
}

func TestHandConservative(t *testing.T) {
	check(t, "scenario1", preset("Conservative")(10), scenario1(), scenario1Starts)
	check(t, "scenario2", preset("Conservative")(6), scenario2(), want{1: 0, 2: 100, 3: 200, 4: 300})
}

func TestHandFCFS(t *testing.T) {
	check(t, "scenario2", preset("FCFS")(6), scenario2(), want{1: 0, 2: 100, 3: 200, 4: 300})
}

// Scenario 3, P = 4, EASY+ correction: job 1 (4 procs, r=300, e=1000) is
// predicted 100 from its user's history (two earlier jobs of 100 s each on
// another machine share nothing; we use Perfect-like history by running two
// 100 s jobs first). At start+p it is corrected to e.
func TestHandCorrection(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 100, 1, 1000), job(2, 0, 100, 1, 1000), // history: 100, 100
		job(3, 200, 300, 4, 1000), // predicted (100+100)/2 = 100, corrected at 300 to 1000
		job(4, 210, 100, 4, 2000), // waits for 3: ends at 500
	}
	res := check(t, "correction", preset("EASY+")(4), jobs, want{1: 0, 2: 0, 3: 200, 4: 500})
	r := res.Records[2]
	if r.Prediction != 100 || r.Final != 1000 || r.Corrections != 1 || r.PostEstimate != 0 {
		t.Errorf("job 3: prediction %d final %d corrections %d/%d, want 100 1000 1/0", r.Prediction, r.Final, r.Corrections, r.PostEstimate)
	}
	// accuracy over [submit 200, end 500]: 100 s of p=100 (100/300), then
	// 200 s of p=1000 (300/1000).
	if got, want := r.Accuracy, (100*(100.0/300)+200*(300.0/1000))/300; abs(got-want) > 1e-9 {
		t.Errorf("accuracy %v, want %v", got, want)
	}
}

func TestEstimateCorrectorSteps(t *testing.T) {
	c := sched.EstimateCorrector{}
	steps := []struct {
		p, e int64
		n, k int
		want int64
	}{
		{30, 100, 0, 0, 100},           // pre-estimate: jump to e
		{100, 100, 1, 0, 160},          // 1st post-estimate: +1 min
		{160, 100, 2, 1, 160 + 900},    // 2nd: +15 min
		{1060, 100, 3, 2, 1060 + 1800}, // 3rd: +30 min
		{0, 100, 0, 0, 100},
	}
	for _, s := range steps {
		if got := c.Correct(s.p, s.e, s.n, s.k); got != s.want {
			t.Errorf("Correct(%d,%d,%d,%d) = %d, want %d", s.p, s.e, s.n, s.k, got, s.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
