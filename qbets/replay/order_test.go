package replay

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/batchq/batchq/swf"
)

// recorder logs what it is told and asked.
type recorder struct{ log []string }

func (r *recorder) Observe(ev Event, j *swf.Job) error {
	r.log = append(r.log, fmt.Sprintf("%c%d", "ASE"[ev], j.ID))
	return nil
}

func (r *recorder) Predict(j *swf.Job, now int64) (Prediction, error) {
	r.log = append(r.log, fmt.Sprintf("P%d@%d", j.ID, now))
	return bound(0), nil
}

// The causal order at equal times: ends, then starts, then the arrival;
// a job that started at t (even one submitted at t just before) is
// visible to an arrival at t; a job's own start and end follow its
// arrival and prediction; the replay ends with the last arrival.
func TestRunOrder(t *testing.T) {
	job := func(id, submit, wait, run int64) swf.Job {
		return swf.Job{ID: id, Submit: submit, Wait: wait, RunTime: run}
	}
	for _, c := range []struct {
		jobs []swf.Job
		want []string
	}{
		{
			[]swf.Job{job(1, 0, 0, 10), job(2, 10, 0, 0), job(3, 5, 5, 5)},
			[]string{"A1", "P1@0", "S1", "A3", "P3@5", "E1", "S3", "A2", "P2@10"},
		},
		{ // the thesis's tie rule: submit_j + wait_j ≤ submit_i
			[]swf.Job{job(1, 0, 0, -1), job(2, 0, 3, -1), job(3, 0, 0, -1), job(4, 3, 0, -1)},
			[]string{"A1", "P1@0", "S1", "A2", "P2@0", "A3", "P3@0", "S3", "S2", "A4", "P4@3"},
		},
	} {
		var r recorder
		if _, err := Run(context.Background(), c.jobs, Options{From: 0, To: len(c.jobs)}, &r); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.log, c.want) {
			t.Errorf("events\n got %v\nwant %v", r.log, c.want)
		}
	}
}

// Snapshots: a job still waiting at the first snapshot after its
// submission is asked again, with the time; one submitted at the snapshot
// instant waits for the next; one started by then is not asked.
func TestRunSnapshots(t *testing.T) {
	jobs := []swf.Job{
		{ID: 1, Submit: 0, Wait: 1000, RunTime: 5},   // waiting at 300
		{ID: 2, Submit: 500, Wait: 50, RunTime: 5},   // started at 550 < 600
		{ID: 3, Submit: 900, Wait: 500, RunTime: 5},  // submitted at the 900 snapshot: asked at 1200
		{ID: 4, Submit: 2000, Wait: 100, RunTime: 5}, // the last arrival: started by the 2100 snapshot (a start at s is seen)
	}
	var r recorder
	s, err := Run(context.Background(), jobs, Options{From: 0, To: len(jobs), Snapshot: 300}, &r)
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	for _, l := range r.log {
		if l[0] == 'P' {
			asked = append(asked, l)
		}
	}
	want := []string{"P1@0", "P1@300", "P2@500", "P3@900", "P3@1200", "P4@2000"}
	if !slices.Equal(asked, want) {
		t.Errorf("asked %v, want %v", asked, want)
	}
	if s[0].Scored != 4 || s[0].Queued.Scored != 2 || s[0].Queued.Answers[0].Wait != 700 || s[0].Queued.Answers[1].Wait != 200 {
		t.Errorf("scores %+v, queued %+v", s[0], s[0].Queued)
	}
}

// Bad input is an error: unknown waits, an empty or inverted range.
func TestRunErrors(t *testing.T) {
	ok := []swf.Job{{ID: 1, Submit: 0, Wait: 5}}
	for _, c := range []struct {
		jobs []swf.Job
		opt  Options
	}{
		{nil, Options{}},
		{[]swf.Job{{ID: 1, Submit: 0, Wait: -1}}, Options{}},
		{ok, Options{From: 1, To: 1}},
		{ok, Options{From: 0, To: 2}},
		{ok, Options{Train: 1}},
		{ok, Options{Snapshot: -1}},
	} {
		if _, err := Run(context.Background(), c.jobs, c.opt, &recorder{}); err == nil {
			t.Errorf("%+v %+v: no error", c.jobs, c.opt)
		}
	}
}
