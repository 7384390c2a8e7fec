package synth

import (
	"bytes"
	"testing"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
	"pgregory.net/rapid"
)

// Every job is sane for its machine, submit times never decrease, run times
// stay in [1, maxRuntime], estimates (when on) cover run times.
func TestPropJobsSane(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cfg := Config{
			Machine:   rapid.Int64Range(2, 4096).Draw(t, "machine"),
			Typeless:  rapid.Bool().Draw(t, "typeless"),
			StartHour: rapid.IntRange(0, 23).Draw(t, "start"),
			Seed:      rapid.Uint64().Draw(t, "seed"),
		}
		estimates := rapid.Bool().Draw(t, "estimates")
		if estimates {
			cfg.Estimator = estmodel.Modal{}
		}
		if rapid.Bool().Draw(t, "load") {
			cfg.TargetLoad = rapid.Float64Range(0.3, 1.2).Draw(t, "target")
		}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		n := rapid.IntRange(1, 600).Draw(t, "n")
		if estimates {
			n = rapid.IntRange(minEstimateJobs, 600).Draw(t, "n")
		}
		jobs, err := g.Jobs(n)
		if err != nil {
			t.Fatal(err)
		}
		last := int64(0)
		for i := range jobs {
			j := &jobs[i]
			if r := sanitize.Check(j, g.machine); r != sanitize.SaneJob {
				t.Fatalf("job %+v not sane on %d: %v", j, g.machine, r)
			}
			if j.Submit < last || j.RunTime < 1 || j.RunTime > maxRuntime {
				t.Fatalf("job %+v: submit before %d or run time out of range", j, last)
			}
			if estimates && j.ReqTime < j.RunTime && g.ShortEstimates == 0 {
				t.Fatalf("job %+v: estimate below run time", j)
			}
			if !estimates && j.ReqTime != swf.Unknown {
				t.Fatalf("job %+v: estimate without Estimates", j)
			}
			last = j.Submit
		}
	})
}

// The written file reads back with the same jobs and a usable header.
func TestWriteSWFRoundTrip(t *testing.T) {
	g, _ := New(Config{Seed: 9, Machine: 256, Estimator: estmodel.Modal{}})
	var buf bytes.Buffer
	if err := g.WriteSWF(&buf, 2000); err != nil {
		t.Fatal(err)
	}
	r := swf.NewReader(&buf)
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	h, herr := r.Header()
	if herr != nil {
		t.Fatal(herr)
	}
	if p, err := h.MachineSize(); err != nil || p != 256 || len(jobs) != 2000 || len(h.Note) == 0 {
		t.Fatalf("header %+v, %d jobs, err %v", h, len(jobs), err)
	}
	g2, _ := New(Config{Seed: 9, Machine: 256, Estimator: estmodel.Modal{}})
	again, _ := g2.Jobs(2000)
	for i := range jobs {
		if jobs[i] != again[i] {
			t.Fatalf("job %d: written %+v, generated %+v", i, jobs[i], again[i])
		}
	}
}

func TestValidate(t *testing.T) {
	bad := []Config{{Machine: 1}, {Machine: -5}, {StartHour: 24}, {TargetLoad: -1}, {Estimator: estmodel.Modal{Config: estmodel.ModalConfig{EMax: 60}}},
		{Batch: &TypeParams{}}}
	for _, c := range bad {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if _, err := New(Config{TargetLoad: 1e6}); err == nil {
		t.Error("unreachable target load accepted")
	}
}

func BenchmarkNext(b *testing.B) {
	g, _ := New(Config{Seed: 1})
	b.ResetTimer()
	for range b.N {
		g.Next()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}
