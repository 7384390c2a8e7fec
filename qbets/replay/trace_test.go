package replay

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/swf"
)

func load(t testing.TB, name string) map[int64][]swf.Job {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	q, skipped := Queues(jobs)
	t.Logf("%s: %d jobs, %d skipped (unknown wait), %d queues", name, len(jobs), skipped, len(q))
	return q
}

func mustAll(t testing.TB, q map[int64][]swf.Job) []swf.Job {
	js, err := All(q)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// namedJobs is one queue history of the acceptance set.
type namedJobs struct {
	name string
	jobs []swf.Job
}

// acceptanceSet is issue 4's acceptance set: CTC, KTH and SDSC-SP2 as
// whole logs, then every SDSC-BLUE queue with ≥ 2000 jobs, by queue.
func acceptanceSet(t testing.TB) []namedJobs {
	var set []namedJobs
	for _, name := range []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2} {
		set = append(set, namedJobs{name, mustAll(t, load(t, name))})
	}
	blue := load(t, tracetest.SDSCBlue)
	for _, q := range slices.Sorted(maps.Keys(blue)) {
		if len(blue[q]) >= 2000 {
			set = append(set, namedJobs{"SDSC-BLUE/" + strconv.FormatInt(q, 10), blue[q]})
		}
	}
	return set
}

func logResult(t *testing.T, label string, r Result) {
	t.Helper()
	t.Logf("%s: BM %.3f (RMS %.0f s, %d change points, %d clusters, no prediction %d short history + %d down of %d scored)",
		label, r.Correctness(), r.RMS(), r.ChangePoints, len(r.Clusters), r.NoHistory, r.Down, r.Scored)
	for k := range r.Methods {
		m := Method(k)
		s := r.Of(m)
		t.Logf("  %-4v %.3f RMS %.0f ratio %.2f (%d change points)", m, s.Correctness(), s.RMS(), r.Ratio(m), r.Trims[k])
	}
}

// Acceptance (issue 4): full QBETS with BM is correct (≥ 0.95, q = C =
// 0.95) on CTC, KTH and SDSC-SP2 as whole logs (the thesis's ctc/ALL), and
// trimming raises correctness over the same pipeline without trimming on
// SDSC-SP2 and CTC.
func TestRealTracesFullQBETS(t *testing.T) {
	if testing.Short() {
		t.Skip("three whole-log replays (~10 s)")
	}
	for _, name := range []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2} {
		jobs := mustAll(t, load(t, name))
		full, err := Replay(jobs, Config{})
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, name+" full QBETS", full)
		if full.Correctness() < 0.95 {
			t.Errorf("%s: full QBETS BM correctness %.3f < 0.95%s", name, full.Correctness(), diagnose(jobs))
		}
		if name == tracetest.KTH {
			continue
		}
		noTrim, _ := Replay(jobs, Config{Predictor: qbets.Config{NoTrim: true}})
		logResult(t, name+" QBETS without trimming", noTrim)
		if full.Correctness() <= noTrim.Correctness() {
			t.Errorf("%s: trimming %.3f does not beat no trimming %.3f", name, full.Correctness(), noTrim.Correctness())
		}
	}
}

// Acceptance: each SDSC-BLUE queue with ≥ 2000 jobs is predicted correctly
// by full QBETS.
func TestSDSCBlueQueues(t *testing.T) {
	byQ := load(t, tracetest.SDSCBlue)
	for _, q := range slices.Sorted(maps.Keys(byQ)) {
		jobs := byQ[q]
		if len(jobs) < 2000 {
			t.Logf("queue %d: %d jobs, below 2000, not asserted", q, len(jobs))
			continue
		}
		if testing.Short() && len(jobs) > 20000 {
			continue // the race run: keep the small queues only
		}
		r, err := Replay(jobs, Config{})
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, "SDSC-BLUE queue "+strconv.FormatInt(q, 10), r)
		if r.Correctness() < 0.95 {
			t.Errorf("SDSC-BLUE queue %d: correctness %.3f < 0.95%s", q, r.Correctness(), diagnose(jobs))
		}
	}
}

// diagnose replays a failing queue with one QBETS feature at a time, so
// the failure message says which feature costs the correctness.
func diagnose(jobs []swf.Job) string {
	out := "; BM correctness by feature:"
	for _, c := range []struct {
		label string
		cfg   qbets.Config
	}{
		{"trimming only", qbets.Config{Cluster: qbets.ClusterNone, NoAvailability: true}},
		{"+availability", qbets.Config{Cluster: qbets.ClusterNone}},
		{"+two-level clustering", qbets.Config{Cluster: qbets.ClusterTwoLevel, NoAvailability: true}},
		{"+fixed processor ranges", qbets.Config{NoAvailability: true}},
		{"+node clustering", qbets.Config{Cluster: qbets.ClusterNodes, NoAvailability: true}},
	} {
		r, err := Replay(jobs, Config{Predictor: c.cfg})
		if err != nil {
			return out + " " + err.Error()
		}
		out += fmt.Sprintf(" %s %.3f (%d clusters);", c.label, r.Correctness(), len(r.Clusters))
	}
	return out
}

// Acceptance: where BM and log-uniform are both correct under full QBETS,
// BM has the lower RMS over-prediction on most traces (the thesis: on all
// 21 of its 21 such traces). Traces: CTC, KTH, SDSC-SP2 whole logs and the
// SDSC-BLUE queues with ≥ 2000 jobs.
func TestBMTighterThanLogUniform(t *testing.T) {
	if testing.Short() {
		t.Skip("comparator replays of four logs (~30 s)")
	}
	traces := acceptanceSet(t)
	both, bmWins := 0, 0
	for _, x := range traces {
		r, err := Replay(x.jobs, Config{Comparators: true})
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, x.name, r)
		bm, lu := r.Of(BM), r.Of(LogUniform)
		if bm.Correctness() >= 0.95 && lu.Correctness() >= 0.95 {
			both++
			if bm.RMS() < lu.RMS() {
				bmWins++
			}
		}
	}
	t.Logf("BM and LogU both correct on %d traces; BM tighter on %d", both, bmWins)
	if both == 0 || 2*bmWins <= both {
		t.Errorf("BM tighter than LogU on %d of %d traces where both are correct", bmWins, both)
	}
}

// The mirror pipeline's BM reproduces the qbets.Predictor exactly: same
// clusters, same fallback, same exclusions, same trimming. This validates
// the pipeline the comparators run in.
func TestMirrorMatchesPredictorKTH(t *testing.T) {
	jobs := mustAll(t, load(t, tracetest.KTH))
	if testing.Short() {
		jobs = jobs[:8000]
	}
	for _, plain := range []bool{true, false} {
		e := map[bool]string{true: "plain (Table 4.1)", false: "QBETS (Table 4.2)"}[plain]
		r, err := Replay(jobs, Config{Plain: plain, Comparators: true})
		if err != nil {
			t.Fatal(err)
		}
		logResult(t, "KTH "+e, r)
		if m := &r.Methods[BM]; m.Correct() != r.Correct() || m.Answered() != r.Answered() || m.RMS() != r.RMS() {
			t.Errorf("%v: mirror BM %d/%d RMS %.1f, Predictor %d/%d RMS %.1f", e, m.Correct(), m.Answered(), m.RMS(), r.Correct(), r.Answered(), r.RMS())
		}
	}
}
