package qbets

import (
	"cmp"
	"container/heap"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// tjob is a trace job for the in-package causal replay.
type tjob struct {
	submit, wait int64
	nodes        int
	wall         int64
}

type startHeap []tjob

func (h startHeap) Len() int           { return len(h) }
func (h startHeap) Less(i, j int) bool { return h[i].submit+h[i].wait < h[j].submit+h[j].wait }
func (h startHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *startHeap) Push(x any)        { *h = append(*h, x.(tjob)) }
func (h *startHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// replayScore is what replayJobs measured after the first train jobs.
type replayScore struct {
	scored, down, noHist, correct int
}

func (s replayScore) correctness() float64 {
	return float64(s.correct) / float64(max(1, s.scored-s.down-s.noHist))
}

// replayJobs replays jobs causally through p (spec §5.1): at each arrival
// the jobs started by then are observed in start order, then the arrival
// is submitted and forecast.
func replayJobs(p *Predictor, jobs []tjob, train int) replayScore {
	js := slices.Clone(jobs)
	slices.SortStableFunc(js, func(a, b tjob) int { return cmp.Compare(a.submit, b.submit) })
	var h startHeap
	var s replayScore
	for i, j := range js {
		for len(h) > 0 && h[0].submit+h[0].wait <= j.submit {
			d := heap.Pop(&h).(tjob)
			if err := p.Observe(Observation{Submit: d.submit, Start: d.submit + d.wait, Nodes: d.nodes, Walltime: d.wall}); err != nil {
				panic(err)
			}
		}
		if err := p.Submit(j.submit); err != nil {
			panic(err)
		}
		f := p.Forecast(Request{Nodes: j.nodes, Walltime: j.wall, At: j.submit})
		if i >= train {
			s.scored++
			switch {
			case f.Reason == MachineDown:
				s.down++
			case !f.OK:
				s.noHist++
			case j.wait <= f.Upper:
				s.correct++
			}
		}
		heap.Push(&h, j)
	}
	return s
}

func loadTrace(t testing.TB, name string) []tjob {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
	if err != nil {
		t.Fatal(err)
	}
	var out []tjob
	for _, j := range jobs {
		if j.Wait < 0 || j.Submit < 0 {
			continue
		}
		out = append(out, tjob{submit: j.Submit, wait: j.Wait, nodes: int(max(j.Size(), 0)), wall: max(j.ReqTime, 0)})
	}
	return out
}

// The share of jobs refused as DOWN on real logs under each reading of
// thesis §4.2.5 (the thesis: "usually less than 1%"), beside the BM
// correctness of full QBETS (Config{} otherwise) under that reading. The
// shares are logged as the markdown table of the package doc; correctness
// must stay ≥ 0.95. The last rows are measurement knobs, not readings.
func TestAvailabilityOnTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-log replays")
	}
	pf := AvailabilityReading{MergeReleases: true, PredictFirst: true}
	type reading struct {
		name      string
		off       bool // NoAvailability
		r         AvailabilityReading
		atRelease bool
		q         float64 // ≠ 0: both bounds at this q (C = 0.95)
		window    int
		eventGap  int64
	}
	rs := []reading{
		{name: "spec (Q11), Config{}"},
		{name: "count only", r: AvailabilityReading{NoGap: true}},
		{name: "gap only", r: AvailabilityReading{NoCount: true}},
		{name: "NoTrim", r: AvailabilityReading{NoTrim: true}},
		{name: "CountEvents", r: AvailabilityReading{CountEvents: true}},
		{name: "PredictFirst", r: AvailabilityReading{PredictFirst: true}},
		{name: "MergeReleases", r: AvailabilityReading{MergeReleases: true}},
		{name: "MergeReleases+PredictFirst", r: pf},
		{name: "MergeReleases+PredictFirst+CountEvents", r: AvailabilityReading{MergeReleases: true, PredictFirst: true, CountEvents: true}},
		{name: "CountAtRelease", atRelease: true},
		{name: "CountAtRelease+MergeReleases", r: AvailabilityReading{MergeReleases: true}, atRelease: true},
		{name: "knob: MR+PF, q = 0.99", r: pf, q: 0.99},
		{name: "knob: MR+PF, last 59-118 values", r: pf, window: 59},
		{name: "knob: MR+PF, arrivals ≤ 60 s apart = 1", r: AvailabilityReading{MergeReleases: true, PredictFirst: true, CountEvents: true}, eventGap: 60},
		{name: "NoAvailability", off: true},
	}
	logs := []string{tracetest.KTH, tracetest.CTC, tracetest.SDSCSP2, tracetest.SDSCBlue}
	cells := make([][]string, len(rs))
	for _, name := range logs {
		jobs := loadTrace(t, name)
		for i, v := range rs {
			p, err := New(Config{Withhold: true, NoAvailability: v.off, CountAtRelease: v.atRelease, Availability: v.r})
			if err != nil {
				t.Fatal(err)
			}
			if !v.off {
				if v.q != 0 {
					tab, n := newIndexTable(v.q, 0.95), minHistoryOf(v.q, 0.95)
					p.avail.cnt, p.avail.gap = testHistory(!v.r.NoTrim, n, tab), testHistory(!v.r.NoTrim, n, tab)
				}
				p.avail.window, p.avail.eventGap = v.window, v.eventGap
			}
			s := replayJobs(p, jobs, len(jobs)/10)
			st := p.Stats()
			t.Logf("%s %s: scored %d down %d excluded %d periods %d correct %.4f", name, v.name, s.scored, s.down, st.DownExcluded, st.DownPeriods, s.correctness())
			cells[i] = append(cells[i], fmt.Sprintf("%.1f%% / %.3f", 100*float64(s.down)/float64(s.scored), s.correctness()))
			if s.correctness() < 0.95 {
				t.Errorf("%s, %s: correctness %.4f < 0.95", name, v.name, s.correctness())
			}
		}
	}
	var b strings.Builder
	b.WriteString("\n| reading | KTH-SP2 | CTC-SP2 | SDSC-SP2 | SDSC-BLUE |\n|---|---|---|---|---|\n")
	for i, v := range rs {
		fmt.Fprintf(&b, "| %s | %s |\n", v.name, strings.Join(cells[i], " | "))
	}
	t.Log(b.String())
}

// Correctness of every clustering mode on real logs without availability
// (logged; the replay package asserts the acceptance numbers).
func TestClusterModesOnTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-log replays")
	}
	for _, name := range []string{tracetest.KTH, tracetest.SDSCSP2} {
		jobs := loadTrace(t, name)
		for m := ClusterMode(0); m < numClusterModes; m++ {
			p, _ := New(Config{Cluster: m, NoAvailability: true})
			s := replayJobs(p, jobs, len(jobs)/10)
			st := p.Stats()
			t.Logf("%s %v: correct %.3f nohist %d clusters %d reclust %d cp %d", name, m, s.correctness(), s.noHist, st.Clusters, st.Reclusterings, st.ChangePoints)
		}
	}
}

// feedRegular releases one job every 10 s, each submitted 5 s before its
// start, with one arrival between releases.
func feedRegular(p *Predictor, n int) int64 {
	var t int64
	for i := range n {
		t = int64(i)*10 + 10
		p.Submit(t - 5)
		p.Observe(Observation{Submit: t - 5, Start: t, Nodes: 1, Walltime: 60})
	}
	return t
}

func TestGapDetector(t *testing.T) {
	p, _ := New(Config{Cluster: ClusterNone, Withhold: true})
	last := feedRegular(p, 200)
	// Every gap was 10 s, so the bound is 10: DOWN once more than 10 s pass.
	if f := p.Forecast(Request{Nodes: 1, Walltime: 60, At: last + 10}); !f.OK {
		t.Fatalf("at +10 s: %+v", f)
	}
	f := p.Forecast(Request{Nodes: 1, Walltime: 60, At: last + 11})
	if f.OK || f.Reason != MachineDown || f.Cluster != -1 {
		t.Fatalf("at +11 s: %+v, want MachineDown", f)
	}
	if _, ok := p.Predict(1, 60); !ok {
		t.Fatal("Predict judges at the latest time seen, which is up")
	}
	// A job submitted while DOWN is left out when it starts; one submitted
	// at the release that ends the period is not.
	p.Observe(Observation{Submit: last + 50, Start: last + 100, Nodes: 1, Walltime: 60})
	p.Observe(Observation{Submit: last + 100, Start: last + 100, Nodes: 1, Walltime: 60})
	st := p.Stats()
	if st.DownExcluded != 1 || st.DownPeriods != 1 || st.Jobs != 201 {
		t.Fatalf("stats %+v", st)
	}
	if f := p.Forecast(Request{Nodes: 1, Walltime: 60, At: last + 100}); !f.OK {
		t.Fatalf("after the release: %+v", f)
	}
}

func TestArrivalCountDetector(t *testing.T) {
	for _, atRelease := range []bool{false, true} {
		p, _ := New(Config{Cluster: ClusterNone, Withhold: true, CountAtRelease: atRelease})
		last := feedRegular(p, 200)
		// One arrival per release so far: the second arrival without a
		// release exceeds the bound of 1.
		p.Submit(last + 1)
		up := p.Forecast(Request{Nodes: 1, Walltime: 60, At: last + 1})
		p.Submit(last + 2)
		f := p.Forecast(Request{Nodes: 1, Walltime: 60, At: last + 2})
		if atRelease {
			// Judged only when the count is complete, at the next release.
			if !up.OK || !f.OK {
				t.Fatalf("at release: forecasts before the release %+v %+v", up, f)
			}
			p.Observe(Observation{Submit: last + 1, Start: last + 3, Nodes: 1, Walltime: 60})
			if f := p.Forecast(Request{Nodes: 1, Walltime: 60, At: last + 4}); f.Reason != MachineDown {
				t.Fatalf("at release: after a count of 2: %+v", f)
			}
			continue
		}
		if !up.OK || f.Reason != MachineDown {
			t.Fatalf("first arrival %+v, second %+v", up, f)
		}
		p.Observe(Observation{Submit: last + 1, Start: last + 3, Nodes: 1, Walltime: 60}) // ends the DOWN period
		p.Observe(Observation{Submit: last + 2, Start: last + 5, Nodes: 1, Walltime: 60}) // submitted while DOWN
		if st := p.Stats(); st.DownExcluded != 1 {
			t.Fatalf("stats %+v", st)
		}
	}
}

// Releases sharing a timestamp are one release event.
func TestEqualTimestampReleases(t *testing.T) {
	a := newAvailability(newIndexTable(0.95, 0.95))
	for i := range 100 {
		for range 3 {
			a.release(int64(i) * 10)
		}
	}
	if a.gap.len() != 99 || a.cnt.len() != 99 {
		t.Fatalf("series %d %d, want 99 events", a.gap.len(), a.cnt.len())
	}
}
