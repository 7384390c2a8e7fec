package forecast

import (
	"context"
	"errors"
	"math"
	"testing"

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
