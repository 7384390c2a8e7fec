package apq

import (
	"os"
	"testing"
	"time"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// loadTrace reads a shared trace and keeps the completed jobs as the paper
// does (status 1, or a positive run time when the log has no status).
func loadTrace(tb testing.TB, name string) []TraceJob {
	tb.Helper()
	_, jobs, err := swf.ReadFile(tracetest.Path(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	var out []TraceJob
	for _, j := range jobs {
		if !(j.Status == 1 || (j.Status == swf.StatusUnknown && j.RunTime > 0)) || j.Submit < 0 || j.Wait < 0 || j.RunTime < 0 {
			continue
		}
		out = append(out, TraceJob{Job: Job{ID: j.ID, Submit: j.Submit, Start: j.Submit + j.Wait,
			Req: j.Size(), ERT: j.ReqTime, User: j.User, Queue: j.Queue}, Run: j.RunTime})
	}
	return out
}

func TestEvaluateScratch(t *testing.T) {
	if os.Getenv("APQ_SCRATCH") == "" {
		t.Skip()
	}
	jobs := loadTrace(t, tracetest.SDSCSP2)
	for _, rep := range []Representation{Summary, Distribution} {
		t0 := time.Now()
		res, err := Evaluate(jobs, EvalConfig{Config: Config{Rep: rep, WeightRefresh: 50}, TestFrom: 20000, TestTo: 22000})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %d jobs AAE %.2f h scaled %.2f meanwait %.2f methods %v cases %v (%v)", rep, res.Jobs, res.AAE(), res.ScaledAAE(), res.MeanWait(), res.Methods, res.Cases, time.Since(t0))
	}
}
