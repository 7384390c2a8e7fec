// Package load measures and changes the load of a workload (Tsafrir's
// thesis §3.6 and §4): Offered is the load a log's own schedule put on
// its machine, Scale stretches or compresses its arrivals to reach
// another load, as the thesis's load sweeps do.
//
//	rho, _ := load.Offered(jobs, 100)
//	heavier, err := load.Scale(jobs, rho/0.9) // arrivals closer: load about 0.9
package load

import (
	"fmt"
	"math"
	"slices"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Offered is the §3.6 load of a log's own schedule (S8): each job runs
// from submit+wait for its runtime; the window starts at the end of the
// first 1% of jobs in termination order and ends at the last arrival. Jobs
// without a logged wait, runtime or size are skipped and counted. A
// machine of P ≤ 0 processors holds no load: the answer is 0, as
// sched.Result.Utilization's, and a caller taking P from a log's header
// checks it first (sweep refuses such a machine, and a load of 0 to scale).
func Offered(jobs []swf.Job, P int64) (load float64, skipped int) {
	recs := make([]sched.Record, 0, len(jobs))
	var last int64
	first := int64(math.MaxInt64)
	for i := range jobs {
		j := &jobs[i]
		if j.Submit < 0 || j.Wait < 0 || j.RunTime < 0 || j.Size() <= 0 {
			skipped++
			continue
		}
		last = max(last, j.Submit)
		first = min(first, j.Submit)
		// A start or end past 2^63 − 1 is held there rather than
		// wrapped: a wrapped end sorted first in termination order and
		// moved the window's start before the log's.
		st, end := satAdd(j.Submit, j.Wait), satAdd(satAdd(j.Submit, j.Wait), j.RunTime)
		recs = append(recs, sched.Record{Job: j, Size: j.Size(), RunTime: j.RunTime, Start: st, End: end})
	}
	if len(recs) == 0 {
		return 0, skipped
	}
	ends := make([]int64, len(recs))
	for i := range recs {
		ends[i] = recs[i].End
	}
	slices.Sort(ends)
	start := first // the first arrival, in whatever order jobs come
	if w := len(ends) / 100; w > 0 {
		start = ends[w-1]
	}
	return (&sched.Result{Records: recs}).Utilization(P, start, last), skipped
}

// satAdd is a + b for a, b ≥ 0, held at 2^63 − 1.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Scale multiplies every inter-arrival time by c (§4):
// t' = t0 + c·(t − t0), t0 the first submit time. Runtimes, sizes,
// estimates and unknown submit times (−1) are untouched. It returns a new
// slice.
//
// A factor that is not finite and positive, or a scaled submit time
// beyond ±2^62 (far past any trace; the simulator adds run times to it),
// is an error: the conversion from float would otherwise wrap to −2^63.
func Scale(jobs []swf.Job, c float64) ([]swf.Job, error) {
	if !(c > 0) || math.IsInf(c, 1) {
		return nil, fmt.Errorf("load: scale factor %v must be finite and positive", c)
	}
	out := slices.Clone(jobs)
	// t0 is the first known submit time: an unknown one (−1) is no time,
	// and taken as the first it moved every other job (c = 0.5 made
	// 1000 and 2000 into 500 and 1000). Unknown submit times stay unknown.
	t0 := int64(-1)
	for i := range out {
		if s := out[i].Submit; s >= 0 && (t0 < 0 || s < t0) {
			t0 = s
		}
	}
	const limit = 1 << 62
	for i := range out {
		if out[i].Submit < 0 {
			continue
		}
		d := out[i].Submit - t0 // ≥ 0
		x := math.Floor(float64(d)*c + 0.5)
		if d < 0 || !(x < limit) || math.Abs(float64(t0)+x) >= limit {
			return nil, fmt.Errorf("load: job %d: submit time %d scaled by %v about %d leaves ±2^62 s",
				out[i].ID, out[i].Submit, c, t0)
		}
		out[i].Submit = t0 + int64(x)
	}
	return out, nil
}
