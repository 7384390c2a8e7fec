package replay_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/swf"
)

// quiet answers 1 s to every question and keeps the events it is told.
type quiet struct{ events []string }

func (q *quiet) Observe(ev replay.Event, j *swf.Job) error {
	q.events = append(q.events, fmt.Sprintf("%v %d", ev, j.ID))
	return nil
}

func (*quiet) Predict(*swf.Job, int64) (replay.Prediction, error) {
	return replay.Prediction{OK: true, Point: 1}, nil
}

func rj(id, submit, wait, run int64) swf.Job {
	j := swf.NewJob()
	j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs = id, submit, wait, run, 1
	return j
}

// A start or end past 2^63 − 1 is an error: job 2's start (2^62 + 2^62)
// wrapped to −2^63 and it was told as started and ended before job 3
// arrived, 2^62 s before its time.
func TestRunTimesPastInt64(t *testing.T) {
	for _, jobs := range [][]swf.Job{
		{rj(1, 0, 0, 1), rj(2, 1<<62, 1<<62, 5), rj(3, 1<<62+20, 5, 5)},
		{rj(1, 0, 1<<62, 1<<62), rj(2, 10, 5, 5)},
		{rj(1, math.MaxInt64, 1, -1)},
	} {
		q := &quiet{}
		if _, err := replay.Run(context.Background(), jobs, replay.Options{}, q); err == nil {
			t.Errorf("%v: nil error, events %v", jobs, q.events)
		}
	}
}

// A start at 2^63 − 1 itself is a time (an empty heap's minimum is too):
// releasing it with no job running took an end from the empty heap and
// panicked.
func TestRunStartAtEndOfTime(t *testing.T) {
	for _, opt := range []replay.Options{{}, {Snapshot: 600}} {
		q := &quiet{}
		jobs := []swf.Job{rj(1, 0, math.MaxInt64, -1), rj(2, math.MaxInt64, 0, 0)}
		if _, err := replay.Run(context.Background(), jobs, opt, q); err != nil {
			t.Fatal(err)
		}
		// Job 1 starts at 2^63 − 1, at or before job 2's arrival; job 2's
		// own start is told only by a replay that goes on while events
		// are due (Snapshot).
		want := []string{"arrive 1", "start 1", "arrive 2"}
		if opt.Snapshot > 0 {
			want = append(want, "start 2", "end 2")
		}
		if !slices.Equal(q.events, want) {
			t.Errorf("snapshot %d: events %v, want %v", opt.Snapshot, q.events, want)
		}
	}
}

// Snapshots are taken where a job waits to be asked, not every Snapshot
// seconds over the log: Snapshot 1 between two jobs 2^33 s apart (or one
// job waiting 2^33 s) looped 2^33 times, and near 2^63 the next snapshot
// wrapped to a negative instant and the loop never ended.
func TestSnapshotSparse(t *testing.T) {
	for _, jobs := range [][]swf.Job{
		{rj(1, 0, 0, 1), rj(2, 1<<33, 0, 5)},
		{rj(1, 0, 1<<33, 1)},
		{rj(1, 0, 0, 1), rj(2, 1<<62, 1<<62-1, 0)},
		{rj(1, math.MaxInt64-3, 1, 1), rj(2, math.MaxInt64-3, 2, 0)},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := replay.Run(context.Background(), jobs, replay.Options{PredictAll: true, Snapshot: 1}, &quiet{})
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("%v: %v", jobs, err)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%v: no answer in 20 s", jobs)
		}
	}
}

// The questions of a replay with snapshots, job by job: at its arrival,
// and at the first multiple of Snapshot after it if the job still waits
// then (the Options doc), however far apart the jobs are.
func TestSnapshotQuestions(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap := rapid.Int64Range(1, 50).Draw(t, "snapshot")
		n := rapid.IntRange(1, 8).Draw(t, "n")
		var jobs []swf.Job
		for i := range n {
			jobs = append(jobs, rj(int64(i+1), rapid.Int64Range(0, 300).Draw(t, "submit"), rapid.Int64Range(0, 200).Draw(t, "wait"), rapid.Int64Range(-1, 100).Draw(t, "run")))
		}
		type question struct{ id, now int64 }
		var got, want []question
		_, err := replay.Run(context.Background(), jobs, replay.Options{PredictAll: true, Snapshot: snap, OnPredict: func(_ int, j *swf.Job, now int64, _ []replay.Prediction) {
			got = append(got, question{j.ID, now})
		}}, &quiet{})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range jobs {
			want = append(want, question{j.ID, j.Submit})
			if s := j.Submit - j.Submit%snap + snap; s < j.Submit+j.Wait {
				want = append(want, question{j.ID, s})
			}
		}
		order := func(a, b question) int {
			if a.id != b.id {
				return int(a.id - b.id)
			}
			return int(a.now - b.now)
		}
		slices.SortFunc(got, order)
		slices.SortFunc(want, order)
		if !slices.Equal(got, want) {
			t.Fatalf("questions %v, want %v", got, want)
		}
	})
}

// Near the end of time the questions are still the Options doc's: the
// first multiple of Snapshot after an arrival at 2^63 − 4 is 2^63 − 2 for
// a snapshot of 2, and none fits in int64 for 2^62 (the first snapshot's
// instant wrapped to −2^63 and was walked back up harmlessly; it is now
// held at 2^63 − 1).
func TestSnapshotEndOfTime(t *testing.T) {
	for _, c := range []struct {
		snap int64
		want []int64
	}{{2, []int64{math.MaxInt64 - 3, math.MaxInt64 - 3, math.MaxInt64 - 1}}, {1 << 62, []int64{math.MaxInt64 - 3, math.MaxInt64 - 3}}} {
		var asked []int64
		jobs := []swf.Job{rj(1, math.MaxInt64-3, 3, 0), rj(2, math.MaxInt64-3, 1, 0)}
		_, err := replay.Run(context.Background(), jobs, replay.Options{PredictAll: true, Snapshot: c.snap, OnPredict: func(_ int, _ *swf.Job, now int64, _ []replay.Prediction) {
			asked = append(asked, now)
		}}, &quiet{})
		if err != nil || !slices.Equal(asked, c.want) {
			t.Errorf("snapshot %d: questions at %v (%v), want %v", c.snap, asked, err, c.want)
		}
	}
}
