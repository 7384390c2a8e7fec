package coalloc

import (
	"testing"

	"github.com/batchq/batchq/varq"
)

// FuzzNewPlan plans random co-allocations over forecasters whose answers
// come from the input, some of them nil: no panic, and a plan without an
// error is consistent (probabilities in [0, 1], launches on the drawn
// sets, VARQ plans submitted before their reservations start).
func FuzzNewPlan(f *testing.F) {
	f.Add([]byte{2, 3, 1, 10, 20, 30, 40, 50, 60}, int64(3600), int64(7200), int64(0), int64(30), 0.8, false, false)
	f.Add([]byte{1, 4, 0, 255, 0, 255}, int64(1), int64(1<<41), int64(-1), int64(1), 1.5, true, true)
	f.Fuzz(func(t *testing.T, data []byte, wall, lead, now, step int64, pAll float64, latest, reuse bool) {
		if len(data) < 3 {
			return
		}
		nReq, nRes, nilMask := int(data[0]%4), int(data[1]%6), data[2]
		answers := data[3:]
		reqs := make([]varq.Request, nReq)
		for i := range reqs {
			reqs[i] = varq.Request{Nodes: 1 + i, Walltime: wall, Start: now + lead + int64(i)}
		}
		res := make([]Resource, nRes)
		for r := range res {
			res[r].Name = string(rune('a' + r))
			if nilMask>>r&1 != 0 {
				continue
			}
			res[r].Forecaster = varq.ForecasterFunc(func(_ int, _, within int64) (float64, bool) {
				if len(answers) == 0 {
					return 0.5, true
				}
				b := answers[(int(within)%len(answers)+len(answers))%len(answers)]
				return float64(b%101) / 100, b != 255
			})
		}
		cfg := Config{Step: step, AllowReuse: reuse}
		if latest {
			cfg.LatestMeeting = true
		}
		p, err := NewPlan(reqs, res, pAll, now, cfg)
		if err != nil {
			return
		}
		if !(p.PExpected >= 0 && p.PExpected <= 1) || len(p.Launch) != nReq {
			t.Fatalf("plan %+v", p)
		}
		for i, l := range p.Launch {
			if len(l) != len(p.Sets[i]) {
				t.Fatalf("reservation %d: %d launches for set %v", i, len(l), p.Sets[i])
			}
			for _, a := range l {
				if res[a.Resource].Forecaster == nil {
					t.Fatalf("launch on resource %d without a forecaster", a.Resource)
				}
				if a.VARQ.Possible && (a.VARQ.Submit >= reqs[i].Start || a.VARQ.Submit < now || !(a.VARQ.Prob > 0 && a.VARQ.Prob <= 1)) {
					t.Fatalf("reservation %d: VARQ plan %+v", i, a.VARQ)
				}
			}
		}
	})
}
