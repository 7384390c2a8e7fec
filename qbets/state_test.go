package qbets

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// synthFeed is a causal feed of n jobs: arrivals and starts in time order.
type synthEvent struct {
	submit bool
	t      int64
	o      Observation
}

func synthFeed(n int, seed uint64) []synthEvent {
	r := rand.New(rand.NewPCG(seed, 7))
	var evs []synthEvent
	var pend []Observation // pending, sorted by start
	t := int64(0)
	for range n {
		t += r.Int64N(300)
		for len(pend) > 0 && pend[0].Start <= t {
			evs = append(evs, synthEvent{o: pend[0]})
			pend = pend[1:]
		}
		nodes := 1 << r.IntN(8)
		wall := int64(600 * (1 + r.IntN(24)))
		w := int64(r.ExpFloat64() * float64(wall) / 8)
		if r.IntN(50) == 0 {
			w *= 30
		}
		o := Observation{Submit: t, Start: t + w, Nodes: nodes, Walltime: wall}
		evs = append(evs, synthEvent{submit: true, t: t})
		i := len(pend)
		for i > 0 && pend[i-1].Start > o.Start {
			i--
		}
		pend = append(pend, Observation{})
		copy(pend[i+1:], pend[i:])
		pend[i] = o
	}
	for _, o := range pend {
		evs = append(evs, synthEvent{o: o})
	}
	return evs
}

func apply(tb testing.TB, p *Predictor, e synthEvent) {
	var err error
	if e.submit {
		err = p.Submit(e.t)
	} else {
		err = p.Observe(e.o)
	}
	if err != nil {
		tb.Fatal(err)
	}
}

// A restored Predictor answers exactly as the one that kept running, for
// the default, the model-based clusterings, several levels and a history
// cap.
func TestSaveRestore(t *testing.T) {
	evs := synthFeed(6000, 1)
	for _, cfg := range []Config{
		{},
		{Cluster: ClusterTwoLevel, ReclusterEvery: 500},
		{Cluster: ClusterNodes, Levels: []Level{{0.5, 0.9}, {0.99, 0.95}}, MaxHistory: 2000},
		{Withhold: true, Availability: AvailabilityReading{MergeReleases: true}},
		{Clusterer: ClusterReqTime, ReclusterEvery: 700},
	} {
		a, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		half := len(evs) / 2
		for _, e := range evs[:half] {
			apply(t, a, e)
		}
		state, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := New(cfg)
		if err := b.UnmarshalBinary(state); err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		if again, _ := b.MarshalBinary(); string(again) != string(state) {
			t.Fatalf("%+v: the restored state saves differently", cfg)
		}
		for i, e := range evs[half:] {
			apply(t, a, e)
			apply(t, b, e)
			if i%7 != 0 {
				continue
			}
			for _, l := range a.cfg.levels() {
				r := Request{Nodes: 1 << (i % 9), Walltime: int64(600 * (1 + i%24)), Quantile: l.Quantile, Confidence: l.Confidence}
				if fa, fb := a.Forecast(r), b.Forecast(r); fa != fb {
					t.Fatalf("%+v: after %d more events: %+v vs restored %+v", cfg, i+1, fa, fb)
				}
			}
		}
		if a.Stats() != b.Stats() {
			t.Fatalf("%+v: stats %+v vs %+v", cfg, a.Stats(), b.Stats())
		}
		t.Logf("%+v: %d bytes at %d jobs", cfg, len(state), a.Stats().Jobs/2)
	}
}

// A state saved under one Config is refused by another, and garbage is an
// error, never a panic.
func TestRestoreErrors(t *testing.T) {
	a, _ := New(Config{})
	for _, e := range synthFeed(500, 2) {
		apply(t, a, e)
	}
	state, _ := a.MarshalBinary()
	b, _ := New(Config{Quantile: 0.9})
	if err := b.UnmarshalBinary(state); err == nil {
		t.Fatal("restored a q = 0.95 state into q = 0.9")
	}
	rapid.Check(t, func(t *rapid.T) {
		c, _ := New(Config{})
		data := []byte(state)
		if rapid.Bool().Draw(t, "truncate") {
			data = data[:rapid.IntRange(0, len(data)).Draw(t, "n")]
		} else {
			data = append([]byte(nil), data...)
			i := rapid.IntRange(len(stateMagic), len(data)-1).Draw(t, "i")
			data[i] ^= byte(rapid.IntRange(1, 255).Draw(t, "x"))
		}
		_ = c.UnmarshalBinary(data) // must not panic
		c.Forecast(Request{Nodes: 1})
	})
}

// Several levels over one feed answer as separate Predictors fed the same
// events would.
func TestLevelsMatchSeparatePredictors(t *testing.T) {
	evs := synthFeed(4000, 3)
	levels := []Level{{0.5, 0.95}, {0.9, 0.9}, {0.99, 0.99}}
	set, err := New(Config{Levels: levels})
	if err != nil {
		t.Fatal(err)
	}
	one := []*Predictor{}
	for _, l := range append([]Level{{0.95, 0.95}}, levels...) {
		p, _ := New(Config{Quantile: l.Quantile, Confidence: l.Confidence})
		one = append(one, p)
	}
	for i, e := range evs {
		apply(t, set, e)
		for _, p := range one {
			apply(t, p, e)
		}
		if i%11 != 0 {
			continue
		}
		for _, p := range one {
			r := Request{Nodes: 1 << (i % 8), Walltime: 3600}
			want := p.Forecast(r)
			r.Quantile, r.Confidence = p.cfg.Quantile, p.cfg.Confidence
			if got := set.Forecast(r); got != want {
				t.Fatalf("event %d, q %v C %v: set %+v, alone %+v", i, r.Quantile, r.Confidence, got, want)
			}
		}
	}
	if f := set.Forecast(Request{Nodes: 1, Quantile: 0.8, Confidence: 0.8}); f.Reason != BadRequest {
		t.Fatalf("unconfigured level: %+v", f)
	}
}

// MaxHistory bounds the full history and every trimmed history.
func TestMaxHistory(t *testing.T) {
	p, _ := New(Config{NoTrim: true, MaxHistory: 500, Cluster: ClusterTwoLevel, ReclusterEvery: 300})
	for _, e := range synthFeed(5000, 4) {
		apply(t, p, e)
	}
	st := p.Stats()
	if st.Jobs > 500*9/8+1 || st.Jobs < 500 || st.Forgotten+st.Jobs+st.DownExcluded != st.Releases {
		t.Fatalf("stats %+v", st)
	}
	for _, l := range p.levels {
		for _, h := range append(l.hists, l.queue, l.down, p.avail.cnt, p.avail.gap) {
			if h.len() > 500*9/8+1 {
				t.Fatalf("a history holds %d", h.len())
			}
		}
	}
	if len(p.pairs) > 2*len(p.all)+64 {
		t.Fatalf("%d pairs for %d jobs", len(p.pairs), len(p.all))
	}
	if f := p.Forecast(Request{Nodes: 4, Walltime: 600}); !f.OK {
		t.Fatalf("no bound: %+v", f)
	}
}

// A MaxHistory near the int limit forgets nothing: the trim point
// MaxHistory + MaxHistory/8 wrapped there, and every job after the first
// was forgotten at once.
func TestMaxHistoryNearIntLimit(t *testing.T) {
	p, err := New(Config{NoTrim: true, MaxHistory: math.MaxInt - 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range synthFeed(300, 4) {
		apply(t, p, e)
	}
	if st := p.Stats(); st.Forgotten != 0 || st.Jobs+st.DownExcluded != st.Releases {
		t.Fatalf("stats %+v: a history of MaxInt-3 jobs forgot some", st)
	}
}

// FuzzUnmarshalBinary: any input restores or fails with an error; never a
// panic, and a restored Predictor answers.
func FuzzUnmarshalBinary(f *testing.F) {
	for _, cfg := range []Config{{}, {Cluster: ClusterTwoLevel, ReclusterEvery: 200}} {
		p, _ := New(cfg)
		for _, e := range synthFeed(150, 5) {
			apply(f, p, e)
		}
		b, _ := p.MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte(stateMagic))
	for _, name := range []string{"testdata/state-v1-default.bin", "testdata/state-v1-twolevel.bin"} {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// The checksum refuses almost every mutation, so each input is
		// also tried sealed with a valid one: the parser behind the
		// checksum is fuzzed too.
		sealed := append([]byte(stateMagic), b...)
		if len(b) >= len(stateMagic) && string(b[:len(stateMagic)]) == stateMagic && len(b) >= 4 {
			sealed = slices.Clone(b[:len(b)-4])
		}
		sealed = binary.LittleEndian.AppendUint32(sealed, crc32.Checksum(sealed, castagnoli))
		for _, cfg := range []Config{{}, {Cluster: ClusterTwoLevel, ReclusterEvery: 200}} {
			for _, in := range [][]byte{b, sealed} {
				p, _ := New(cfg)
				if p.UnmarshalBinary(in) != nil {
					continue
				}
				p.Forecast(Request{Nodes: 3, Walltime: 60})
				p.ProbWithin(3, 60, 100)
				p.Clusters()
				_ = p.Submit(1 << 40)
				_ = p.Observe(Observation{Submit: 1 << 40, Start: 1<<40 + 5, Nodes: 2, Walltime: 60})
			}
		}
	})
}
