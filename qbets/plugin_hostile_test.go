package qbets

import (
	"math"
	"strings"
	"testing"
	"time"
)

// nilFit is a user's Clusterer with a bug: after the first fits calls it
// returns no Partition (a nil interface, or a nil pointer when typed).
type nilFit struct {
	good  int // calls that return a real partition
	typed bool
	calls *int
}

type myPart struct{ boxes []Box }

func (m *myPart) Cluster(int, int64) int { return 0 }
func (m *myPart) Boxes() []Box           { return m.boxes }

func (c nilFit) Fit(jobs []Observation, minSize int) Partition {
	*c.calls++
	if *c.calls <= c.good {
		return ClusterNone.Fit(jobs, minSize)
	}
	if c.typed {
		var p *myPart
		return p
	}
	return nil
}

// A Clusterer whose Fit returns a nil Partition makes New fail (it used
// to panic on a nil dereference); a later nil re-fit keeps the previous
// partition and is counted; a restore that would need it fails.
func TestNilPartition(t *testing.T) {
	for _, typed := range []bool{false, true} {
		calls := 0
		if _, err := New(Config{Clusterer: nilFit{typed: typed, calls: &calls}}); err == nil || !strings.Contains(err.Error(), "nil Partition") {
			t.Errorf("typed %v: New: %v, want a nil-Partition error", typed, err)
		}
		calls = 0
		p, err := New(Config{Clusterer: nilFit{good: 1, typed: typed, calls: &calls}, ReclusterEvery: 100})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range synthFeed(600, 3) {
			apply(t, p, e)
		}
		st := p.Stats()
		if st.NilFits == 0 || st.NilFits != st.Reclusterings {
			t.Errorf("typed %v: stats %+v: every re-fit returned nil", typed, st)
		}
		if f := p.Forecast(Request{Nodes: 4, Walltime: 600}); !f.OK {
			t.Errorf("typed %v: no bound after nil re-fits: %+v", typed, f)
		}
		state, err := p.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		calls = 0
		q, _ := New(Config{Clusterer: nilFit{good: 1, typed: typed, calls: &calls}, ReclusterEvery: 100})
		if err := q.UnmarshalBinary(state); err == nil {
			t.Errorf("typed %v: restored with a Clusterer that returns no Partition", typed)
		}
		calls = 0
		r, _ := New(Config{Clusterer: nilFit{good: 3, typed: typed, calls: &calls}, ReclusterEvery: 100})
		if err := r.UnmarshalBinary(state); err != nil {
			t.Fatal(err)
		}
		if r.Stats() != st {
			t.Errorf("restored stats %+v, want %+v", r.Stats(), st)
		}
	}
}

type nilTrimmerClus struct{}

func (*nilTrimmerClus) Fit([]Observation, int) Partition { return nil }

// A nil-pointer Clusterer and a Trimmer factory that returns nil are
// configuration errors, not panics or silently untrimmed histories.
func TestNilPlugins(t *testing.T) {
	var c *nilTrimmerClus
	if _, err := New(Config{Clusterer: c}); err == nil {
		t.Error("a nil-pointer Clusterer was accepted")
	}
	if _, err := New(Config{Trimmer: func(int) Trimmer { return nil }}); err == nil {
		t.Error("a Trimmer factory returning nil was accepted")
	}
	var rl *runLength
	if _, err := New(Config{Trimmer: func(int) Trimmer { return rl }}); err == nil {
		t.Error("a Trimmer factory returning a nil pointer was accepted")
	}
}

// A level whose minimum history no queue reaches is a configuration
// error (q = 1−2^−53 made New loop for minutes building its index table),
// and RunLength with a huge minimum history does not allocate it up front
// (a makeslice panic).
func TestExtremeLevels(t *testing.T) {
	near1 := math.Nextafter(1, 0)
	for _, cfg := range []Config{{Quantile: near1}, {Quantile: 1 - 1e-12, Confidence: 0.99},
		{Levels: []Level{{0.5, 0.95}, {near1, 0.5}}}} {
		done := make(chan error, 1)
		go func() { _, err := New(cfg); done <- err }()
		select {
		case err := <-done:
			if err == nil {
				t.Errorf("%+v: accepted", cfg.levels())
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%+v: New did not return in 10 s", cfg.levels())
		}
	}
	if _, err := New(Config{Quantile: 0.99999, Confidence: 0.99}); err != nil {
		t.Errorf("q = 0.99999, C = 0.99 (460,515 jobs): %v", err)
	}
	// The figure maxMinHistory's comment gives: the smallest n with
	// q^n ≤ 1−C, in closed form, well inside the bound.
	if n, want := minHistoryOf(0.99999, 0.99), int(math.Ceil(math.Log(0.01)/math.Log(0.99999))); n != want || want != 460515 || n > maxMinHistory {
		t.Errorf("minHistoryOf(0.99999, 0.99) = %d, closed form %d (the comment says 460,515), bound %d", n, want, maxMinHistory)
	}
	tr := RunLength(math.MaxInt)
	for i := range 100 {
		tr.Observe(int64(i), i%2 == 0)
	}
}
