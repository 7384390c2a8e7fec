package coalloc

import (
	"reflect"
	"testing"

	"github.com/batchq/batchq/varq"
	"github.com/batchq/batchq/varq/varqtest"
	"pgregory.net/rapid"
)

// versionedFunc is a versionedForecaster forecaster for tests.
type versionedFunc struct {
	varq.ForecasterFunc
	version func() uint64
}

func (v versionedFunc) Version() uint64 { return v.version() }

// TestReboostMemoProperties: re-boosting on versionedForecaster forecasters, which
// answers from its memo while a site's version is unchanged, executes
// exactly as asking every time (the same jobs, submitted at the same
// times, the same result) and asks no more forecasts. Each site's
// forecast changes every period seconds (its version is the number of
// periods passed) and with the window, from a small table of values that
// includes 0 and 1.
func TestReboostMemoProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nsites := rapid.IntRange(1, 8).Draw(t, "sites")
		count := rapid.IntRange(1, 3).Draw(t, "count")
		cfg := drawConfig(t)
		cfg.Reboost = true
		cfg.ReboostEvery = rapid.SampledFrom([]int64{0, 30, 45, 90}).Draw(t, "every")
		type site struct {
			delay, period, cut int64
			table              []float64
		}
		sites := make([]site, nsites)
		for i := range sites {
			sites[i] = site{
				delay:  rapid.Int64Range(-1, 4*3600).Draw(t, "delay"),
				period: rapid.Int64Range(30, 4*3600).Draw(t, "period"),
				cut:    rapid.Int64Range(60, 4*3600).Draw(t, "cut"),
				table:  rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0.2, 0.5, 0.8, 0.9, 0.95, 0.99, 1}), 1, 6).Draw(t, "table"),
			}
		}
		reqs, pAll := drawRequests(t, count)
		var results []Result
		var jobs [][]varqtest.Job
		var asked [2]int
		for k, versioned := range []bool{false, true} {
			var ms []*varqtest.FakeMachine
			var fcs []varq.Forecaster
			for _, s := range sites {
				m := &varqtest.FakeMachine{Delay: func(int, int64) int64 { return s.delay }}
				version := func() uint64 { return uint64(m.Now() / s.period) }
				fc := varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
					asked[k]++
					return s.table[(version()+uint64(within/s.cut))%uint64(len(s.table))], true
				})
				var f varq.Forecaster = fc
				if versioned {
					f = versionedFunc{fc, version}
				}
				ms, fcs = append(ms, m), append(fcs, f)
			}
			x := planAndExecute(t, ms, fcs, reqs, pAll, cfg)
			if x == nil {
				return
			}
			results = append(results, x.Result())
			var js []varqtest.Job
			for _, m := range ms {
				for _, j := range m.Jobs {
					js = append(js, *j)
				}
			}
			jobs = append(jobs, js)
		}
		if !reflect.DeepEqual(results[0], results[1]) {
			t.Fatalf("asking every time: %+v\nfrom the memo: %+v", results[0], results[1])
		}
		if !reflect.DeepEqual(jobs[0], jobs[1]) {
			t.Fatalf("jobs asking every time: %+v\nfrom the memo: %+v", jobs[0], jobs[1])
		}
		if asked[1] > asked[0] {
			t.Fatalf("the memo asked %d forecasts, asking every time %d", asked[1], asked[0])
		}
	})
}

// TestMemoPointPlanProperties: a memo's plans, over a sequence of reviews
// at later times on and off the grid with the forecaster's version
// changing now and then, are those of asking the forecaster every time.
func TestMemoPointPlanProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		step := rapid.Int64Range(1, 60).Draw(t, "step")
		r := varq.Request{Nodes: 1, Walltime: 60, Start: rapid.Int64Range(1, 80).Draw(t, "points") * step}
		table := rapid.SliceOfN(rapid.SampledFrom([]float64{0, 0.3, 0.87, 0.9, 0.95, 1}), 1, 8).Draw(t, "table")
		target := rapid.SampledFrom([]float64{0.3, 0.866, 0.9, 1}).Draw(t, "target")
		rule := rapid.SampledFrom([]pointRule{atMax, latestMeeting}).Draw(t, "rule")
		var ver uint64
		fc := varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
			return table[(uint64(within/step)+ver)%uint64(len(table))], true
		})
		f := versionedFunc{fc, func() uint64 { return ver }}
		var m memo
		var rec, rec2 recorder
		now := int64(0)
		for range rapid.IntRange(1, 20).Draw(t, "reviews") {
			got, err := m.pointPlan(&rec, f, r, now, step, target, rule)
			if err != nil {
				t.Fatal(err)
			}
			want, err := pointPlan(&rec2, fc, r, now, step, target, rule)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Fatalf("at %d, version %d: memo %+v, asked %+v", now, ver, got, want)
			}
			now += rapid.SampledFrom([]int64{step, 2 * step, 5 * step, step/2 + 1}).Draw(t, "later")
			if rapid.IntRange(0, 3).Draw(t, "change") == 0 {
				ver++
			}
		}
	})
}
