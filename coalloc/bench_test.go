package coalloc

import (
	"testing"

	"github.com/batchq/batchq/varq"
)

// counted counts the forecasts asked of f in *n: the benchmarks report
// forecasts/op, which unlike ns/op does not depend on the machine's load.
func counted(f varq.Forecaster, n *int) varq.Forecaster {
	return varq.ForecasterFunc(func(nodes int, walltime, within int64) (float64, bool) {
		*n++
		return f.ProbWithin(nodes, walltime, within)
	})
}

// benchResources are five resources whose forecast is p with at least
// (i+1) h left and p/2 with less: the trajectory falls as the start nears,
// as QBETS's does on fixed processor ranges.
// Each forecast adds one to *n.
func benchResources(n *int) []Resource {
	var res []Resource
	for i, p := range []float64{0.9, 0.8, 0.85, 0.7, 0.6} {
		cut := int64(3600 * (i + 1))
		res = append(res, Resource{Name: "m", Forecaster: counted(varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
			if within >= cut {
				return p, true
			}
			return p / 2, true
		}), n)})
	}
	return res
}

// BenchmarkPlan12h plans two 12 h-ahead reservations over five resources:
// ten 1440-point trajectories and the boosting. max plans at the
// trajectory maximum (the thesis) for P_all = 0.9; latest at the latest
// point meeting P_indep for P_all = 0.75 (P_indep 0.866), which the 0.9
// resource meets an hour before the start while the others never do and
// fall back to their maximum.
func BenchmarkPlan12h(b *testing.B) {
	r := varq.Request{Nodes: 16, Walltime: 3600, Start: 43200}
	reqs := []varq.Request{r, r}
	for _, c := range []struct {
		pAll  float64
		point pointRule
	}{{0.9, atMax}, {0.75, latestMeeting}} {
		b.Run(c.point.String(), func(b *testing.B) {
			n := 0
			res := benchResources(&n)
			for b.Loop() {
				if _, err := NewPlan(reqs, res, c.pAll, 0, Config{LatestMeeting: c.point == latestMeeting}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/float64(b.N), "forecasts/op")
		})
	}
}

// BenchmarkReboost12h executes a one-reservation plan 12 h ahead on five
// fake sites with re-boosting every 30 s: A's forecast falls from 0.95 to
// 0.5 an hour in, and the other four answer 0 throughout (a silent QBETS),
// so every review until the start re-plans them and finds nothing. With
// versioned, the forecasters say when they change (versionedForecaster: A at 1 h,
// the others never), so the re-plans answer from the memo.
func BenchmarkReboost12h(b *testing.B) {
	const lead = 12 * 3600
	r := varq.Request{Nodes: 4, Walltime: 3600, Start: lead}
	for _, versioned := range []bool{false, true} {
		for _, point := range []pointRule{atMax, latestMeeting} {
			name := point.String()
			if versioned {
				name += "/versioned"
			}
			b.Run(name, func(b *testing.B) {
				n := 0
				for b.Loop() {
					ms := delayMachines([]int64{-1, -1, -1, -1, -1})
					fcs := []varq.Forecaster{dropping(ms[0], 3600, 0.95, 0.5), constant(0), constant(0), constant(0), constant(0)}
					for i, f := range fcs {
						fcs[i] = counted(f, &n)
						if versioned {
							m := ms[0]
							fcs[i] = versionedFunc{fcs[i].ProbWithin, func() uint64 {
								if i == 0 && m.Now() >= 3600 {
									return 1
								}
								return 0
							}}
						}
					}
					e, err := fakeExecutor(ms, fcs)
					if err != nil {
						b.Fatal(err)
					}
					p, err := NewPlan([]varq.Request{r}, e.Resources(), 0.9, 0, Config{Reboost: true, LatestMeeting: point == latestMeeting})
					if err != nil || !p.OK {
						b.Fatalf("plan %+v, %v", p, err)
					}
					execute(b, e, p, []varq.Request{r}, ms, lead+60)
				}
				b.ReportMetric(float64(n)/float64(b.N), "forecasts/op")
			})
		}
	}
}
