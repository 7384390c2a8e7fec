package molding

import (
	"context"
	"math"
	"testing"

	"github.com/batchq/batchq/estmodel/rangeset"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// Sizes that are not positive and infinite waits are refused by
// ChooseSize (a size of −4 was chosen; an infinite wait surfaced as an
// internal score error); History and Window near 2^63 are errors, not a
// slice panic; non-finite load functions are refused before the run.
func TestHostileArguments(t *testing.T) {
	rs := rangeset.Set{{Lo: 100, Hi: 200, P: 1}}
	for name, c := range map[string]struct {
		cands []Candidate
		orig  int64
	}{
		"negative size":     {[]Candidate{{-4, 1, rs}, {4, 1, rs}}, 4},
		"zero size":         {[]Candidate{{0, 1, rs}}, 4},
		"negative original": {[]Candidate{{4, 1, rs}}, -1},
		"infinite wait":     {[]Candidate{{4, math.Inf(1), rs}}, 4},
		"NaN wait":          {[]Candidate{{4, math.NaN(), rs}}, 4},
	} {
		if b, s, err := ChooseSize(c.cands, c.orig); err == nil {
			t.Errorf("%s: best %d, scores %v, no error", name, b, s)
		}
	}
	var jobs []swf.Job
	for i := range 300 {
		n := int64(1 << (i % 4))
		jobs = append(jobs, swf.Job{ID: int64(i + 1), Submit: int64(i * 100), RunTime: int64(50 + i%7*100), AllocProcs: n, ReqProcs: n,
			ReqTime: 1000, User: int64(i % 5), Queue: 1, Group: 1})
	}
	for name, cfg := range map[string]StrategyConfig{
		"History 2^63−1": {Strategy: "molding", History: math.MaxInt, Window: math.MaxInt},
		"NaN load func":  {Strategy: "molding", History: 100, Window: 100, Funcs: []rangeset.LoadFunc{{A: math.NaN(), B: 1}}},
	} {
		if _, err := RunStrategy(context.Background(), sched.EASY(16), jobs, constWait(10), cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := RunStrategy(context.Background(), sched.EASY(16), jobs, constWait(10), StrategyConfig{Strategy: "molding", History: 100, Window: math.MaxInt}); err != nil {
		t.Errorf("a Window beyond the trace: %v", err)
	}
}
