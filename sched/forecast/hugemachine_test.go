package forecast

import (
	"context"
	"testing"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// Running jobs that together hold more than 2^40 processors (each sane, on
// a machine of 2^40) grew the simulated machine past what sched takes, and
// the whole forecast failed ("MachineSize above 2^40"). The machine stops
// at 2^40; the running jobs that do not fit wait, as on nodes.
func TestRunningPastMaxMachine(t *testing.T) {
	const huge = sanitize.MaxTime // 2^40 processors
	f, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{Now: 100, MachineSize: huge}
	for i := range int64(3) {
		s.Running = append(s.Running, job(i+1, 0, 0, 1000, huge, 1000, 1))
	}
	s.Waiting = []swf.Job{job(4, 50, -1, 10, 1, 10, 1)}
	starts, err := f.Forecast(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if len(starts) != 1 || starts[0] < s.Now {
		t.Fatalf("starts %v, want one start at or after %d", starts, s.Now)
	}
}

// A running job holding more processors than sched takes (2^41: no sane
// log has one, a hostile snapshot may) holds the whole pool of 2^40 to its
// predicted end; sched dropped it as larger than the machine, and a
// waiting job started at once beside it.
func TestRunningAboveMaxMachine(t *testing.T) {
	f, err := New(Config{Estimates: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int64{sanitize.MaxTime + 1, 1 << 41, 1 << 62} {
		s := &Snapshot{Now: 100, MachineSize: sanitize.MaxTime}
		s.Running = []swf.Job{job(1, 0, 0, 1000, size, 1000, 1)} // its estimate ends at 1000
		s.Waiting = []swf.Job{job(2, 50, -1, 10, 1, 10, 1)}
		starts, err := f.Forecast(context.Background(), s)
		if err != nil || len(starts) != 1 || starts[0] != 1000 {
			t.Errorf("running job of %d processors: starts %v, %v; want [1000] (after it ends)", size, starts, err)
		}
	}
}
