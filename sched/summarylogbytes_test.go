package sched

import (
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// TestSummaryLogBytes pins the size of Config.SummaryOnly's
// termination-order log that summaryonly.go and examples/simulate's README
// quote ("about 15 bytes a job"), EASY: 15.5 on KTH-SP2 (100 processors)
// and 15.4 on SDSC-BLUE (1,152) since a job writes its reservation offset
// and run-span difference only when it has them (17.4 and 17.3 before).
func TestSummaryLogBytes(t *testing.T) {
	for _, c := range []struct {
		name    string
		machine int64
	}{{tracetest.KTH, 100}, {tracetest.SDSCBlue, 1152}} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, c.name))
		if err != nil {
			t.Fatal(err)
		}
		cfg := EASY(c.machine)
		cfg.SummaryOnly = true
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Load(jobs); err != nil {
			t.Fatal(err)
		}
		if err := s.RunUntil(1 << 62); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, b := range s.summ.log {
			n += len(b)
		}
		per := float64(n) / float64(s.summ.jobs)
		t.Logf("%s: %d bytes for %d jobs, %.2f a job", c.name, n, s.summ.jobs, per)
		if per < 14 || per > 16 {
			t.Errorf("%s: the summary log takes %.2f bytes a job, the docs say about 15", c.name, per)
		}
	}
}
