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
	for _, size := range []int64{-1, 1, 2, 3, 4, 5, 32, 33} {
		j := swf.NewJob()
		j.ID, j.AllocProcs = 1<<40+size, size
		want := int64(0)
		for s := int64(1); s < size; s *= 2 {
			want++
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
