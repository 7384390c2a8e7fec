package qbets

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// queueJobs splits a log by queue (field 15), keeping queues of ≥ 2000
// jobs, as qbets/replay's acceptance set does.
func queueJobs(t testing.TB, name string) (all []tjob, byQ map[int64][]tjob) {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	byQ = map[int64][]tjob{}
	for _, j := range jobs {
		if j.Wait < 0 || j.Submit < 0 {
			continue
		}
		tj := tjob{submit: j.Submit, wait: j.Wait, nodes: int(max(j.Size(), 0)), wall: max(j.ReqTime, 0)}
		all = append(all, tj)
		byQ[j.Queue] = append(byQ[j.Queue], tj)
	}
	for q, js := range byQ {
		if len(js) < 2000 {
			delete(byQ, q)
		}
	}
	return all, byQ
}

// machineRefused judges the arrivals of queue (its jobs) against the
// releases of the whole machine (all): the per-machine reading of Q11 for
// a per-queue predictor. It returns the refused share after train
// arrivals of the queue.
func machineRefused(a *availability, all, queue []tjob, train int) float64 {
	qs := slices.Clone(queue)
	slices.SortStableFunc(qs, func(x, y tjob) int { return cmp.Compare(x.submit, y.submit) })
	starts := make([]int64, len(all))
	for i, j := range all {
		starts[i] = j.submit + j.wait
	}
	slices.Sort(starts)
	k, refused := 0, 0
	for i, j := range qs {
		for k < len(starts) && starts[k] <= j.submit {
			a.release(starts[k])
			k++
		}
		a.arrive(j.submit)
		if i >= train && a.downAt(j.submit) {
			refused++
		}
	}
	return float64(refused) / float64(max(1, len(qs)-train))
}

// Per queue or per machine (Q11): each queue of ≥ 2000 jobs with its own
// Predictor (refused share and BM correctness), and its arrivals judged
// against the releases of the whole machine (refused share only). Logged;
// the package doc quotes the totals. Correctness must stay ≥ 0.95 under
// MergeReleases+PredictFirst (under the spec's reading CTC queue 3 is at
// 0.949, as the examples/qbets README reports).
func TestAvailabilityPerQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-log replays")
	}
	for _, name := range []string{tracetest.CTC, tracetest.SDSCSP2, tracetest.SDSCBlue} {
		all, byQ := queueJobs(t, name)
		qs := slices.Sorted(maps.Keys(byQ))
		for _, v := range []struct {
			name string
			r    AvailabilityReading
		}{{"spec", AvailabilityReading{}}, {"MR+PF", AvailabilityReading{MergeReleases: true, PredictFirst: true}}} {
			var down, scored int
			line := ""
			for _, q := range qs {
				js := byQ[q]
				p, err := New(Config{Withhold: true, Availability: v.r})
				if err != nil {
					t.Fatal(err)
				}
				s := replayJobs(p, js, len(js)/10)
				if v.r.MergeReleases && s.correctness() < 0.95 {
					t.Errorf("%s queue %d, %s: correctness %.4f < 0.95", name, q, v.name, s.correctness())
				}
				down += s.down
				scored += s.scored
				a := newAvailability(newIndexTable(0.95, 0.95))
				a.setReading(v.r)
				m := machineRefused(a, all, js, len(js)/10)
				line += fmt.Sprintf(" q%d(%d jobs): own %.1f%% corr %.3f, machine releases %.1f%%;", q, len(js), 100*float64(s.down)/float64(s.scored), s.correctness(), 100*m)
			}
			t.Logf("%s %s: per queue total %.1f%%;%s", name, v.name, 100*float64(down)/float64(scored), line)
		}
	}
}
