package forecast

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// A NaN forgetting factor passed Validate (NaN is neither < 0 nor > 1) and
// made every answer of Online a minute.
func TestForgetNaN(t *testing.T) {
	if err := (Config{Forget: math.NaN()}).Validate(); err == nil {
		t.Error("Forget NaN: Validate accepted it")
	}
	if _, err := NewOnline(Config{Forget: math.NaN()}, 64); err == nil {
		t.Error("Forget NaN: NewOnline accepted it")
	}
}

// Snapshots whose times sched cannot play are errors, not forecasts: a
// running job whose submit + wait passes 2^63 − 1 wrapped below Now and
// ran from there (its forecast was 160), and at a Now past sanitize's 2^40
// s every job arrived too late for sched, which dropped them all: every
// start −1, "cannot run", with a nil error.
func TestSnapshotTimesOutOfRange(t *testing.T) {
	wait := []swf.Job{job(2, 50, -1, 10, 10, 100, 1)}
	cases := []Snapshot{
		{Now: 100, MachineSize: 10, Running: []swf.Job{job(1, 1<<62, 1<<62, 10, 5, 100, 1)}, Waiting: wait},
		{Now: 100, MachineSize: 10, Running: []swf.Job{job(1, math.MaxInt64, math.MaxInt64, 10, 5, 100, 1)}, Waiting: wait},
		{Now: sanitize.MaxTime + 1, MachineSize: 10, Running: []swf.Job{job(1, 0, 0, 10, 5, 100, 1)}, Waiting: wait},
		{Now: math.MaxInt64, MachineSize: 10, Waiting: wait},
		{Now: -5, MachineSize: 10, Waiting: wait},
	}
	for i, s := range cases {
		f, err := New(Config{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Forecast(context.Background(), &s)
		if !errors.Is(err, errSnapshot) {
			t.Errorf("case %d: %v, %v; want a bad snapshot", i, got, err)
		}
	}
	// At Now = 2^40 itself the forecast runs.
	f, _ := New(Config{Estimates: true})
	s := Snapshot{Now: sanitize.MaxTime, MachineSize: 10, Waiting: wait}
	if got, err := f.Forecast(context.Background(), &s); err != nil || got[0] != sanitize.MaxTime {
		t.Errorf("now 2^40: %v, %v; want [2^40]", got, err)
	}
}

// An estimate past sanitize.MaxTime is held there, as sched holds
// predictions: sched dropped the simulated job, so a waiting job forecast
// −1 ("larger than the machine") though it fits, and a running job's
// processors were free at once.
func TestHugeEstimates(t *testing.T) {
	for _, e := range []int64{sanitize.MaxTime + 1, 1 << 62, math.MaxInt64} {
		for _, est := range []bool{false, true} {
			// Waiting job only: the machine frees at 110 (the running
			// job's estimate 10 from its start at 100).
			f, _ := New(Config{Estimates: est})
			s := Snapshot{Now: 100, MachineSize: 10, Running: []swf.Job{job(1, 0, 100, 10, 5, 10, 1)}, Waiting: []swf.Job{job(2, 50, -1, 10, 10, e, 1)}}
			if got, err := f.Forecast(context.Background(), &s); err != nil || got[0] != 110 {
				t.Errorf("estimates %v, waiting job's estimate %d: %v, %v; want [110]", est, e, got, err)
			}
			// Running job only: it holds its processors to its estimate,
			// at most 2^40 s.
			f, _ = New(Config{Estimates: est})
			s = Snapshot{Now: 100, MachineSize: 10, Running: []swf.Job{job(1, 0, 100, 10, 5, e, 1)}, Waiting: []swf.Job{job(2, 50, -1, 10, 10, 10, 1)}}
			if got, err := f.Forecast(context.Background(), &s); err != nil || got[0] != 100+sanitize.MaxTime {
				t.Errorf("estimates %v, running job's estimate %d: %v, %v; want [100 + 2^40]", est, e, got, err)
			}
		}
	}
}

// Running jobs of a corrupt 2^62 processors hold the whole pool, as ones
// of 2^40 (sched's largest machine) do: three of them summed to −2^62
// busy processors, and a one-processor job was "started now" (forecast 0)
// on the full machine.
func TestOnlineBusyNoWrap(t *testing.T) {
	answers := func(size int64) []replay.Prediction {
		jobs := []swf.Job{job(1, 0, 0, 5000, size, 6000, 1), job(2, 0, 0, 5000, size, 6000, 1), job(3, 0, 0, 5000, size, 6000, 1), job(4, 10, 4990, 10, 1, 100, 2)}
		o, err := NewOnline(Config{NoCorrection: true}, 64)
		if err != nil {
			t.Fatal(err)
		}
		var got []replay.Prediction
		_, err = replay.Run(context.Background(), jobs, replay.Options{PredictAll: true, OnPredict: func(_ int, j *swf.Job, now int64, p []replay.Prediction) {
			if j.ID == 4 {
				got = append(got, p[0])
			}
		}}, o)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := answers(sanitize.MaxTime)
	if len(want) != 1 || !(want[0].Point > 0) {
		t.Fatalf("2^40 processors running: job 4 answered %+v, want a wait", want)
	}
	for _, size := range []int64{1 << 41, 1 << 62, math.MaxInt64 / 3} {
		if got := answers(size); len(got) != 1 || got[0].Point != want[0].Point {
			t.Errorf("%d processors running: job 4 answered %+v, want %+v as with 2^40", size, got, want)
		}
	}
}

// A running job's predicted end is held at 2^40 s from its start, as the
// simulation holds it: with an estimate of 2^63 − 1 started at 3 the end
// wrapped to −2^63 + 2, and "the first end of the class" came out 2^62 s
// away only because its distance from now wrapped back.
func TestOnlineRunEndNoWrap(t *testing.T) {
	for _, est := range []int64{sanitize.MaxTime, 1 << 62, math.MaxInt64} {
		o, err := NewOnline(Config{Estimates: true, NoCorrection: true}, 8)
		if err != nil {
			t.Fatal(err)
		}
		r, w := job(1, 3, 0, 100, 8, est, 1), job(2, 5, 10, 10, 8, 100, 2)
		for _, e := range []struct {
			ev replay.Event
			j  *swf.Job
		}{{replay.Arrive, &r}, {replay.Start, &r}, {replay.Arrive, &w}} {
			if err := o.Observe(e.ev, e.j); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := o.Predict(&w, 5); err != nil {
			t.Fatal(err)
		}
		// x[25] is ln(time to the first end of the class + 60 s).
		if soon := math.Exp(o.x[25]) - floor; math.Abs(soon-sanitize.MaxTime) > 10 {
			t.Errorf("estimate %d: the running job ends in %v s, want about 2^40", est, soon)
		}
	}
}

// A question asked past 2^40 s (a corrupt submit time in a log) is
// declined, counted by its Reason, and the replay goes on: the snapshot
// it would simulate is an error (TestSnapshotTimesOutOfRange).
func TestOnlineDeclinesTimeOutOfRange(t *testing.T) {
	// (Job 1 fills the machine past 2^40 s, so job 3's question is
	// simulated, not answered "starts now".)
	jobs := []swf.Job{job(1, 0, 0, 1<<41, 8, 1<<41, 1), job(2, 10, 0, 100, 1, 200, 1), job(3, sanitize.MaxTime+1, 0, 100, 1, 200, 1)}
	o, err := NewOnline(Config{}, 8)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := replay.Run(context.Background(), jobs, replay.Options{From: 0, To: 3}, o)
	if err != nil {
		t.Fatal(err)
	}
	if n := sc[0].Refused["time outside 0..2^40 s"]; n != 1 {
		t.Errorf("refused %v, want job 3's question declined", sc[0].Refused)
	}
}
