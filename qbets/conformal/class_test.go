package conformal

import (
	"context"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// fixed answers the same point for every job.
type fixed float64

func (f fixed) Predict(*swf.Job, int64) (replay.Prediction, error) {
	return replay.Prediction{OK: true, Point: float64(f)}, nil
}

// Wrapper.Class is the class the Wrapper calibrates a job under, so that
// the calibrator's interval for a job asked about some other way (a
// hypothetical job) is the one the Wrapper would give it: the caller
// copied the size-class rule to find it.
func TestWrapperClass(t *testing.T) {
	var jobs []swf.Job
	for i := range int64(2000) {
		j := swf.NewJob()
		j.ID, j.Submit, j.Wait, j.RunTime = i+1, i*100, (i*7919)%5000, 50
		j.AllocProcs = 1 << (i % 6)
		jobs = append(jobs, j)
	}
	c, err := NewCalibrator(Config{MinClass: 10})
	if err != nil {
		t.Fatal(err)
	}
	w := Wrap(fixed(600), c, nil)
	if _, err := replay.Run(context.Background(), jobs, replay.Options{}, w); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{-1, 0, 1, 2, 3, 4, 5, 32, 33} {
		j := swf.NewJob()
		j.ID, j.AllocProcs = 1<<40+size, size
		want := int64(0)
		for s := int64(1); s < size; s *= 2 {
			want++
		}
		if size <= 0 {
			want = 64 // its own class, as sched/forecast numbers it
		}
		if got := w.Class(&j); got != want {
			t.Errorf("size %d: class %d, want %d", size, got, want)
		}
		if _, err := w.Predict(&j, 1<<30); err != nil {
			t.Fatal(err)
		}
		for i := range c.Levels() {
			lo, hi := w.Interval(i)
			clo, chi := c.Interval(w.Class(&j), 600, i)
			if lo != clo || hi != chi {
				t.Errorf("size %d, level %d: the Wrapper's interval [%v, %v], the calibrator's for its class [%v, %v]", size, i, lo, hi, clo, chi)
			}
		}
	}
	byQueue := Wrap(fixed(600), c, func(j *swf.Job) int64 { return j.Queue })
	j := swf.NewJob()
	j.Queue = 7
	if got := byQueue.Class(&j); got != 7 {
		t.Errorf("a Wrapper by queue: class %d, want 7", got)
	}
}

// A job without a size calibrates no one-processor job's interval: the
// same one-processor jobs, replayed alone and with a job of unknown size
// (SWF's −1) that waits 100 times longer between every two of them, get
// the same intervals from the MinClass-th on (before it, their class
// borrows the common window, which has every class's residuals).
func TestWrapUnknownSizeOwnClass(t *testing.T) {
	intervals := func(unknown bool) (got [][2]float64) {
		var jobs []swf.Job
		for i := range int64(3000) {
			j := swf.NewJob()
			j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs = 2*i+1, i*100, 60+(i*7919)%1200, 50, 1
			jobs = append(jobs, j)
			if unknown {
				j.ID, j.Submit, j.Wait, j.AllocProcs = 2*i+2, i*100+50, 100*j.Wait, -1
				jobs = append(jobs, j)
			}
		}
		c, err := NewCalibrator(Config{MinClass: 10})
		if err != nil {
			t.Fatal(err)
		}
		opt := replay.Options{PredictAll: true, OnPredict: func(_ int, j *swf.Job, _ int64, p []replay.Prediction) {
			if j.Size() == 1 {
				got = append(got, [2]float64{p[0].Lower, p[0].Upper})
			}
		}}
		if _, err := replay.Run(context.Background(), jobs, opt, Wrap(fixed(600), c, nil)); err != nil {
			t.Fatal(err)
		}
		return got
	}
	alone, mixed := intervals(false), intervals(true)
	if len(alone) != 3000 || len(mixed) != 3000 {
		t.Fatalf("%d and %d one-processor questions, want 3000", len(alone), len(mixed))
	}
	differ := 0
	for i := 100; i < len(alone); i++ {
		if alone[i] != mixed[i] {
			if differ++; differ == 1 {
				t.Errorf("one-processor job %d: 90%% interval %v beside jobs of unknown size, %v alone", i, mixed[i], alone[i])
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of the last %d one-processor jobs' intervals moved with the jobs of unknown size", differ, len(alone)-100)
	}
}
