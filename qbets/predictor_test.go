package qbets

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// testHistory is a history with the thesis's trimmer, or none.
func testHistory(trim bool, nMin int, tab *indexTable) *history {
	var tr Trimmer
	if trim {
		tr = RunLength(nMin)
	}
	return newHistory(tr, nMin, tab)
}

// trimState is the saved state of h's trimmer.
func trimState(h *history) string {
	if h.tr == nil {
		return ""
	}
	b, _ := h.tr.(*runLength).MarshalBinary()
	return string(b)
}

// feed observes one-node jobs with the given waits, each submitted at the
// previous job's start, so starts come in order.
func feed(p *Predictor, waits []int64) {
	for _, w := range waits {
		t := p.lastStart
		if err := p.Observe(Observation{Submit: t, Start: t + w, Nodes: 1}); err != nil {
			panic(err)
		}
	}
}

func TestPredictIsOrderStatistic(t *testing.T) {
	p, _ := New(Config{NoTrim: true})
	waits := make([]int64, 100)
	for i := range waits {
		waits[i] = int64(100 - i) // 1..100 shuffled by order
	}
	feed(p, waits[:58])
	if _, ok := p.Predict(1, 0); ok {
		t.Fatal("bound with 58 observations")
	}
	feed(p, waits[58:])
	// n=100 → index 99 (spec §2.1), so the bound is the 99th smallest = 99.
	if b, ok := p.Predict(1, 0); !ok || b != 99 {
		t.Fatalf("Predict = %d, %v; want 99", b, ok)
	}
	// B(0.95) = 99 ≤ 99, and B(0.97) at n=100 is the max (100) per §2.7.
	if got, ok := p.ProbWithin(1, 0, 99); !ok || got < 0.95 || got >= 0.97 {
		t.Fatalf("ProbWithin(99) = %v, %v", got, ok)
	}
	if got, ok := p.ProbWithin(1, 0, 100); !ok || got != 0.97 {
		t.Fatalf("ProbWithin(100) = %v, spec max at n=100 is 0.97", got)
	}
	if got, ok := p.ProbWithin(1, 0, 0); !ok || got != 0 {
		t.Fatalf("ProbWithin(0) = %v, %v", got, ok)
	}
	if _, ok := p.ProbWithin(-1, 0, 10); ok {
		t.Fatal("ProbWithin with negative nodes answered")
	}
}

func TestTrimAfterShift(t *testing.T) {
	p, _ := New(Config{})
	r := rand.New(rand.NewPCG(1, 1))
	waits := make([]int64, 0, 1100)
	for range 1000 {
		waits = append(waits, int64(r.ExpFloat64()*100))
	}
	for range 100 {
		waits = append(waits, 100000+int64(r.ExpFloat64()*100))
	}
	feed(p, waits)
	if p.Stats().ChangePoints == 0 || p.Len() >= 1100 || p.Len() < 59 {
		t.Fatalf("trims %d len %d", p.Stats().ChangePoints, p.Len())
	}
	if b, _ := p.Predict(1, 0); b < 100000 {
		t.Fatalf("bound %d did not follow the shift", b)
	}
}

func TestConcurrent(t *testing.T) {
	p, _ := New(Config{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 2000 {
			p.Submit(int64(i))
			if err := p.Observe(Observation{Submit: int64(97 * i), Start: int64(97*i + i%97), Nodes: 1 + i%64, Walltime: int64(60 * (i % 13))}); err != nil {
				panic(err)
			}
		}
	}()
	go func() {
		defer wg.Done()
		for i := range 2000 {
			p.Predict(1, 0)
			p.ProbWithin(1, 0, 50)
			p.Forecast(Request{Nodes: i % 64, Walltime: 600})
			if i%100 == 0 {
				p.Clusters()
				p.Stats()
			}
		}
	}()
	wg.Wait()
}

// After every re-clustering, each cluster's history is exactly what a
// fresh replay of the detector over its jobs gives (Q9), whether the
// cluster was kept or rebuilt.
func TestReclusterRebuildsState(t *testing.T) {
	p, _ := New(Config{Cluster: ClusterTwoLevel, NoAvailability: true, ReclusterEvery: 300})
	r := rand.New(rand.NewPCG(5, 5))
	for i := range 5000 {
		nodes := 1 << r.IntN(7)
		wall := int64(600 * (1 + r.IntN(12)))
		w := int64(r.ExpFloat64() * float64(nodes) * float64(wall) / 50)
		if i > 2500 {
			w *= 20 // a regime change, so trims happen
		}
		t0 := p.lastStart
		if err := p.Observe(Observation{Submit: t0, Start: t0 + w, Nodes: nodes, Walltime: wall}); err != nil {
			t.Fatal(err)
		}
		if (i+1)%300 != 0 {
			continue
		}
		l := p.levels[0]
		for c, h := range l.hists {
			fresh := testHistory(true, l.nMin, l.tab)
			for _, o := range p.all {
				if p.cluster(o.Nodes, o.Walltime) == c {
					fresh.add(o.Start - o.Submit)
				}
			}
			if !slices.Equal(fresh.recent, h.recent) || trimState(fresh) != trimState(h) {
				t.Fatalf("after %d jobs, cluster %d: live %d values, replay %d values, or trimmer states differ",
					i+1, c, len(h.recent), len(fresh.recent))
			}
		}
	}
	st := p.Stats()
	if st.Reclusterings != 16 || st.Clusters < 2 || st.ChangePoints == 0 {
		t.Fatalf("stats %+v", st)
	}
	// The clusters partition the jobs: their boxes cover every job once.
	total := 0
	for _, c := range p.Clusters() {
		total += c.Jobs
	}
	if total != 5000 {
		t.Fatalf("clusters hold %d jobs, want 5000", total)
	}
}

func TestForecastReasons(t *testing.T) {
	p, _ := New(Config{NoAvailability: true, Cluster: ClusterFixedProcs})
	if f := p.Forecast(Request{Nodes: 1}); f.OK || f.Reason != NoHistory || f.Reason.String() == "" {
		t.Fatalf("empty: %+v", f)
	}
	// 1000 one-node jobs with short waits, then 40 jobs of 128 nodes: their
	// cluster holds fewer than 59, so they fall back to the queue-level
	// history (Q13), which the run of long waits has trimmed.
	for i := range 1000 {
		p.Observe(Observation{Submit: int64(7 * i), Start: int64(7*i + i%7), Nodes: 1, Walltime: 600})
	}
	for i := range 40 {
		p.Observe(Observation{Submit: int64(7000 + i), Start: int64(7000 + i + 5000), Nodes: 128, Walltime: 600})
	}
	small := p.Forecast(Request{Nodes: 1, Walltime: 600})
	big := p.Forecast(Request{Nodes: 128, Walltime: 600})
	if !small.OK || small.Fallback || small.Upper != 6 || small.History != 1000 || !small.LowerOK || small.Lower > small.Upper {
		t.Fatalf("small job: %+v", small)
	}
	if !big.OK || !big.Fallback || big.Cluster != 3 || big.Upper != 5000 || big.History < 59 || big.History >= 1040 {
		t.Fatalf("big job: %+v", big)
	}
}

// Without Submit calls, releases drive re-clustering.
func TestReclusterWithoutSubmit(t *testing.T) {
	p, _ := New(Config{Cluster: ClusterTwoLevel, NoAvailability: true, TrainArrivals: 500})
	feed(p, make([]int64, 2600))
	if got := p.Stats().Reclusterings; got != 3 { // at 500, 1500, 2500
		t.Fatalf("reclusterings %d, want 3", got)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{
		{Quantile: 1}, {Confidence: -0.1}, {Cluster: 99}, {MaxClusters: -1}, {TrainArrivals: -1},
		{ReclusterEvery: -5}, {Cluster: ClusterFixedProcs, FixedUppers: []int64{4, 4}}, {Cluster: ClusterNone, FixedUppers: []int64{4}},
		{Quantile: math.NaN()}, {Confidence: math.NaN()},
		{Levels: []Level{{0.5, 0}}}, {Levels: []Level{{1.5, 0.9}}}, {MaxHistory: -1}, {MaxHistory: 58},
		{NoTrim: true, Trimmer: RunLength}, {Clusterer: ClusterNodes, Cluster: ClusterNodes},
		{Clusterer: ClusterNodes, MaxClusters: 3},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%+v: no error", c)
		} else {
			t.Log(err)
		}
	}
}

func TestFixedProcs(t *testing.T) {
	p, _ := New(Config{Cluster: ClusterFixedProcs, NoAvailability: true})
	cs := p.Clusters()
	if len(cs) != 4 || cs[0].Nodes.Hi != 4 || cs[1].Nodes != (KeyRange{5, 16}) || cs[3].Nodes.Hi != full.Hi {
		t.Fatalf("fixed partition %+v", cs)
	}
	if f := p.Forecast(Request{Nodes: 20}); f.Cluster != 2 {
		t.Fatalf("20 nodes in cluster %d", f.Cluster)
	}
}
