package predict_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/sched/predict"
	"github.com/batchq/batchq/swf"
)

func pj(user, submit, run, est int64) *swf.Job {
	return &swf.Job{ID: submit, User: user, Submit: submit, RunTime: run, ReqTime: est}
}

func TestUserHistoryDefault(t *testing.T) {
	h, err := predict.NewUserHistory(predict.HistoryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	if p := h.Predict(pj(1, 10, 0, 1000), 10); p != 1000 {
		t.Errorf("no history: %d, want the estimate 1000", p)
	}
	h.Terminated(pj(1, 2, 100, 1000), 100)
	if p := h.Predict(pj(1, 10, 0, 1000), 100); p != 1000 {
		t.Errorf("one job, full window of 2: %d, want 1000", p)
	}
	h.Terminated(pj(1, 5, 300, 1000), 300)
	if p := h.Predict(pj(1, 400, 0, 1000), 400); p != 200 {
		t.Errorf("window {100,300}: %d, want 200", p)
	}
	if p := h.Predict(pj(1, 400, 0, 150), 400); p != 150 {
		t.Errorf("prediction above the estimate: %d, want 150", p)
	}
	if p := h.Predict(pj(2, 400, 0, 1000), 400); p != 1000 {
		t.Errorf("other user: %d, want 1000", p)
	}
	// A job submitted before both kept ones does not enter the window.
	h.Terminated(pj(1, 1, 10, 1000), 500)
	if p := h.Predict(pj(1, 600, 0, 1000), 600); p != 200 {
		t.Errorf("older job replaced a newer one: %d, want 200", p)
	}
	// A newer one replaces the oldest (submit 2, run 100).
	h.Terminated(pj(1, 20, 500, 1000), 700)
	if p := h.Predict(pj(1, 800, 0, 1000), 800); p != 400 {
		t.Errorf("window {300,500}: %d, want 400", p)
	}
}

func TestUserHistoryVariants(t *testing.T) {
	hist := []*swf.Job{pj(1, 0, 100, 1000), pj(1, 1, 400, 2000), pj(1, 2, 700, 1000), pj(1, 3, 50, 1000)}
	cases := []struct {
		cfg  predict.HistoryConfig
		est  int64
		want int64
	}{
		{predict.HistoryConfig{Window: 3}, 1000, (400 + 700 + 50) / 3},
		{predict.HistoryConfig{Window: 3, Metric: "median"}, 5000, 400},
		{predict.HistoryConfig{Window: 4, Metric: "median"}, 5000, (100 + 400) / 2},
		{predict.HistoryConfig{Window: 3, Metric: "min"}, 5000, 50},
		{predict.HistoryConfig{Window: 3, Metric: "max"}, 5000, 700},
		{predict.HistoryConfig{Window: 6}, 5000, 5000}, // full window needed
		{predict.HistoryConfig{Window: 6, Partial: true}, 5000, (100 + 400 + 700 + 50) / 4},
		{predict.HistoryConfig{Window: 2, Type: "immediate"}, 1000, (700 + 50) / 2},
		{predict.HistoryConfig{Window: 3, Type: "immediate"}, 1000, 1000}, // 2000 in the last 3
		{predict.HistoryConfig{Window: 3, Type: "extended"}, 1000, (100 + 700 + 50) / 3},
		{predict.HistoryConfig{Window: 2, Type: "extended"}, 2000, 2000}, // one job with 2000
		// relative: mean accuracy (0.1+0.2+0.7+0.05)/4 = 0.2625 of e
		{predict.HistoryConfig{Window: 6, RelativeFallback: true}, 4000, 1050},
	}
	for i, c := range cases {
		h, err := predict.NewUserHistory(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range hist {
			h.Terminated(j, 10)
		}
		if p := h.Predict(pj(1, 20, 0, c.est), 20); p != c.want {
			t.Errorf("case %d %+v: %d, want %d", i, c.cfg, p, c.want)
		}
	}
	if _, err := predict.NewUserHistory(predict.HistoryConfig{Window: -1}); err == nil {
		t.Error("negative window accepted")
	}
	for _, c := range []predict.HistoryConfig{{Type: "last"}, {Metric: "avg"}} {
		if _, err := predict.NewUserHistory(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

func TestSimplePredictors(t *testing.T) {
	j := pj(1, 0, 30, 100)
	if (predict.Perfect{}).Predict(j, 0) != 30 ||
		(predict.X2{}).Predict(j, 0) != 200 ||
		(predict.X2{P: predict.Perfect{}}).Predict(j, 0) != 60 {
		t.Error("perfect/X2 predictions wrong")
	}
}

// The EASY++ predictor: the average runtime of the user's last two
// terminated jobs, or the estimate until there are two.
func ExampleUserHistory() {
	h, _ := predict.NewUserHistory(predict.HistoryConfig{}) // window 2, all, average, full
	job := &swf.Job{User: 7, Submit: 100, ReqTime: 3600}
	fmt.Println(h.Predict(job, 100))
	h.Terminated(&swf.Job{User: 7, Submit: 0, RunTime: 600, ReqTime: 3600}, 600)
	h.Terminated(&swf.Job{User: 7, Submit: 10, RunTime: 1200, ReqTime: 3600}, 1210)
	fmt.Println(h.Predict(job, 1300))
	// Output:
	// 3600
	// 900
}

// Every user's history is kept and found, whatever its number: small ones
// (held in a slice), large and negative ones, and those just above the
// slice's bound, which a slice grown by append past it must not shadow.
func TestUserHistoryUserNumbers(t *testing.T) {
	h, err := predict.NewUserHistory(predict.HistoryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	users := []int64{1, 40000, 65000, 65535, 65536, 70000, 78000, 1 << 40, -3}
	for _, u := range users {
		h.Terminated(pj(u, 2, 100, 1000), 100)
		h.Terminated(pj(u, 5, 300, 1000), 300)
	}
	for _, u := range users {
		if p := h.Predict(pj(u, 400, 0, 1000), 400); p != 200 {
			t.Errorf("user %d, window {100,300}: %d, want 200", u, p)
		}
	}
	if p := h.Predict(pj(70001, 400, 0, 1000), 400); p != 1000 {
		t.Errorf("user without history: %d, want the estimate 1000", p)
	}
}

// The windows agree with a plain list of (key, run, estimate) kept in key
// order (a new key after the equal ones; in a full window the smallest
// leaves, or the new one is ignored if below it), over windows up to 9
// long: they grow past their first room of 4, with and without estimates.
// The average of type all over 2 (EASY++'s) is read and kept by paths of
// its own.
func TestUserHistoryWindowsMatchList(t *testing.T) {
	type entry struct{ key, run, est int64 }
	r := rand.New(rand.NewPCG(3, 4))
	for _, typ := range []string{"all", "immediate", "extended"} {
		for _, metric := range []string{"min", "max", "average"} {
			for m := 2; m <= 19; m++ {
				n := m / 2
				cfg := predict.HistoryConfig{Window: n, Type: typ, Metric: metric, Partial: m%2 == 1}
				h, err := predict.NewUserHistory(cfg)
				if err != nil {
					t.Fatal(err)
				}
				lists := map[int64][]entry{} // by estimate for extended, else under 0
				for step := range 60 {
					j := pj(1, r.Int64N(40), 1+r.Int64N(1000), 1000*(1+r.Int64N(2)))
					h.Terminated(j, 100)
					for _, k := range []int64{0, j.ReqTime} {
						if (k == 0) == (typ == "extended") {
							continue
						}
						l := lists[k]
						if len(l) == n {
							if j.Submit < l[0].key {
								continue
							}
							l = l[1:]
						}
						i := len(l)
						for i > 0 && l[i-1].key > j.Submit {
							i--
						}
						lists[k] = slices.Insert(slices.Clone(l), i, entry{j.Submit, j.RunTime, j.ReqTime})
					}
					for _, e := range []int64{1000, 2000} {
						l := lists[0]
						if typ == "extended" {
							l = lists[e]
						}
						want := e
						if len(l) == n || cfg.Partial && len(l) > 0 {
							ok := true
							var runs []int64
							for _, x := range l {
								ok = ok && (typ != "immediate" || x.est == e)
								runs = append(runs, x.run)
							}
							if ok {
								switch metric {
								case "min":
									want = slices.Min(runs)
								case "max":
									want = slices.Max(runs)
								default:
									var sum int64
									for _, x := range runs {
										sum += x
									}
									want = sum / int64(len(runs))
								}
								want = min(want, e)
							}
						}
						if p := h.Predict(pj(1, 50, 0, e), 50); p != want {
							t.Fatalf("%+v, step %d, estimate %d: %d, want %d (window %v)", cfg, step, e, p, want, l)
						}
					}
				}
			}
		}
	}
}
