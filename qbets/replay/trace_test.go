package replay

import (
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

func load(t *testing.T, name string) map[int64][]Job {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	q, skipped := Queues(jobs)
	t.Logf("%s: %d jobs, %d skipped (unknown wait), %d queues", name, len(jobs), skipped, len(q))
	return q
}

func all(q map[int64][]Job) []Job {
	var out []Job
	for _, js := range q {
		out = append(out, js...)
	}
	return out
}

// Acceptance (issue 4): BM with trimming is correct (≥ 0.95) on CTC, KTH,
// SDSC-SP2 (whole log, the thesis's ctc/ALL), and trimming raises
// correctness on SDSC-SP2 and CTC.
func TestRealTraces(t *testing.T) {
	for _, name := range []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2} {
		jobs := all(load(t, name))
		trim, err := Replay(jobs, Config{})
		if err != nil {
			t.Fatal(err)
		}
		plain, _ := Replay(jobs, Config{Predictor: qbets.Config{NoTrim: true}})
		t.Logf("%s: trimmed %.3f (RMS %.0f s, %d change points, %d no-pred) | full history %.3f (RMS %.0f s)",
			name, trim.Correctness(), trim.RMS, trim.ChangePoints, trim.NoPrediction, plain.Correctness(), plain.RMS)
		if trim.Correctness() < 0.95 {
			t.Errorf("%s: trimmed BM correctness %.3f < 0.95", name, trim.Correctness())
		}
		if name != tracetest.KTH && trim.Correctness() <= plain.Correctness() {
			t.Errorf("%s: trimming %.3f does not beat full history %.3f", name, trim.Correctness(), plain.Correctness())
		}
	}
}

// Acceptance: each SDSC-BLUE queue with ≥ 2000 jobs is predicted correctly.
func TestSDSCBlueQueues(t *testing.T) {
	for q, jobs := range load(t, tracetest.SDSCBlue) {
		if len(jobs) < 2000 {
			t.Logf("queue %d: %d jobs, below 2000, not asserted", q, len(jobs))
			continue
		}
		r, _ := Replay(jobs, Config{})
		t.Logf("queue %d: %d jobs, correct %.3f, RMS %.0f s, %d change points", q, len(jobs), r.Correctness(), r.RMS, r.ChangePoints)
		if r.Correctness() < 0.95 {
			t.Errorf("SDSC-BLUE queue %d: correctness %.3f < 0.95", q, r.Correctness())
		}
	}
}
