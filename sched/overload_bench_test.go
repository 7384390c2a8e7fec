package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// BenchmarkOverloaded runs the policies with a queue order of their own
// on an overloaded log (offered load 1.8) of 2,500 to 20,000 jobs; its
// ns/job is the figure to compare across sizes (flat when a run's cost is
// linear in the log).
func BenchmarkOverloaded(b *testing.B) {
	for _, policy := range []string{"EASY", "EASY++", "LXF&W", "SJF", "Conservative"} {
		for _, n := range []int{2500, 5000, 10000, 20000} {
			b.Run(fmt.Sprintf("%s/%d", policy, n), func(b *testing.B) {
				jobs := sched.Overloaded(n, 1.8)
				for b.Loop() {
					if _, err := sched.Run(context.Background(), preset(policy)(1024), jobs); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/job")
			})
		}
	}
}

// overloadedHashes pins every preset, and LXF&W and conservative on a
// machine of 128 nodes of 8 cores, on the overloaded log of 4,000 jobs
// (runHash's digest). They were taken before the changes that made these
// policies cheaper on such a log (the filtered sort of LXF&W's backfill
// walk, ...), which must not change one schedule.
var overloadedHashes = map[string]string{
	"Conservative 128x8": "21db80ef3a41749a",
	"Conservative":       "d857b27fdd39b071",
	"EASY":               "ea1dafde85272cb2",
	"EASY+":              "5bb76b5eb0224769",
	"EASY++":             "c2de1909b76b809d",
	"EASY_PCOR":          "ea1dafde85272cb2",
	"EASY_PRED":          "b892cfb027ba9860",
	"EASY_SJBF":          "fb065f0ab0c24980",
	"FCFS":               "58a70651a1abc2ac",
	"LXF&W 128x8":        "41a5e9e3e5fde4fb",
	"LXF&W":              "41a5e9e3e5fde4fb",
	"PERFECT++":          "1d13a5b6c426f601",
	"SJF":                "5fda08a0a5230374",
	"SJF+":               "6facf3f5d3aa3147",
	"SJF_perf":           "4e4767146eebde1d",
	"X2":                 "7f9cdcdcca9a93d1",
	"X2+":                "392ecc97c8c064be",
	"X2++":               "9834d546ddfb0d18",
	"X2++_perf":          "2dbbf26b9ac6dc49",
	"X2_perf":            "4258da90df2faa0a",
}

func TestOverloadedHashes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 20 runs of 4,000 jobs at load 1.8 (about 15 s of CPU, 10 of them conservative on 128 nodes)")
	}
	jobs := sched.Overloaded(4000, 1.8)
	got := map[string]string{}
	check := func(key string, cfg sched.Config) {
		res, err := sched.Run(context.Background(), cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		got[key] = runHash(res)
		if want, ok := overloadedHashes[key]; !ok || want != got[key] {
			t.Errorf("%s: digest %s, pinned %q", key, got[key], want)
		}
	}
	for _, pr := range sched.Presets() {
		check(pr.Name, pr.New(1024))
	}
	for _, name := range []string{"LXF&W", "Conservative"} {
		cfg := preset(name)(0)
		cfg.Nodes = []swf.Node{{Count: 128, Cores: 8}}
		check(name+" 128x8", cfg)
	}
	if t.Failed() {
		for k, v := range got {
			t.Logf("%q: %q,", k, v)
		}
	}
}
