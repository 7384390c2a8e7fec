package main

import (
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// TestReadme re-runs what the README shows and checks it: the default
// synthetic week and seeds 2–5, the four real logs of Tsafrir's Table 4.3,
// and the small logs and Lublin's (about 8 CPU-seconds, 7.6 measured on
// 2026-12-03; the README said 15).
func TestReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("real traces (~15 s)")
	}
	run := func(o options) *result {
		t.Helper()
		r, err := readmeRun(o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	synthetic := options{days: 7, load: 0.7, seed: 1}
	def := run(synthetic)
	readme.Check(t, "README.md", "default", defaultBlock(def))
	var seeds []*result
	for seed := uint64(2); seed <= 5; seed++ {
		o := synthetic
		o.seed = seed
		seeds = append(seeds, run(o))
	}
	readme.Check(t, "README.md", "synthetic", synthReading(def, seeds, synthetic.load))

	var real []*result
	for _, l := range realLogs {
		real = append(real, run(options{trace: tracetest.Path(t, l.trace), machine: l.machine}))
	}
	t43, q, reading := realTables(real)
	readme.Check(t, "README.md", "table43", t43)
	readme.Check(t, "README.md", "qbets", q)
	readme.Check(t, "README.md", "real", reading)

	var others []*result
	for _, name := range otherLogs {
		others = append(others, run(options{trace: tracetest.Path(t, name)}))
	}
	lublin := run(options{trace: tracetest.Path(t, tracetest.Lublin)})
	readme.Check(t, "README.md", "others", otherReading(others, lublin))
}
