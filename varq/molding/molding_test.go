package molding

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/batchq/batchq/estmodel/rangeset"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
)

// The spec's worked scores (§4 step 4): [0.1,0.2] and [0.5,0.6] → raw
// 0.13 over coverage 0.2 = 0.65; a single [0.3,0.5] → 0.12/0.2 = 0.60.
func TestScoreWorked(t *testing.T) {
	two := rangeset.Set{{Lo: 0.1, Hi: 0.2, P: 0.5}, {Lo: 0.5, Hi: 0.6, P: 0.5}}
	one := rangeset.Set{{Lo: 0.3, Hi: 0.5, P: 1}}
	for _, c := range []struct {
		rs   rangeset.Set
		want float64
	}{{two, 0.65}, {one, 0.60}} {
		got, err := score(c.rs, 1, false)
		if err != nil || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("score(%v) = %v, %v; want %v", c.rs, got, err, c.want)
		}
	}
	// Normalising by maxResp = 10 scales the bounds: same scores for ×10.
	if got, _ := score(rangeset.Set{{Lo: 3, Hi: 5, P: 1}}, 10, false); math.Abs(got-0.6) > 1e-12 {
		t.Errorf("[3, 5) over maxResp 10: score %v, want 0.6", got)
	}
	// Points: 1 − mean point. Probability-weighted: Σ p·(1 − mid).
	if got, _ := score(rangeset.Set{{Lo: 0.2, Hi: 0.2, P: 1}}, 1, false); math.Abs(got-0.8) > 1e-12 {
		t.Errorf("point score %v, want 0.8", got)
	}
	if got, _ := score(two, 1, true); math.Abs(got-(0.5*0.85+0.5*0.45)) > 1e-12 {
		t.Errorf("weighted score %v", got)
	}
	if _, err := score(nil, 1, false); err == nil {
		t.Error("empty set scored")
	}
	if _, err := score(one, 0, false); err == nil {
		t.Error("maxResp 0 accepted")
	}
}

func TestChooseSize(t *testing.T) {
	// Size 4: runtime [100,200) + wait 0 → response [100,200).
	// Size 8: runtime [50,100) + wait 500 → [550,600). Max 600.
	// Scores 1 − 150/600 = 0.75 and 1 − 575/600 → size 4 wins.
	cands := []Candidate{
		{Size: 4, Wait: 0, Exec: rangeset.Set{{Lo: 100, Hi: 200, P: 1}}},
		{Size: 8, Wait: 500, Exec: rangeset.Set{{Lo: 50, Hi: 100, P: 1}}},
	}
	best, scores, err := ChooseSize(cands, 8)
	if err != nil || best != 0 || math.Abs(scores[0]-0.75) > 1e-12 {
		t.Errorf("best %d scores %v err %v", best, scores, err)
	}
	// Equal scores: the original size wins, else the smaller.
	tie := []Candidate{
		{Size: 2, Exec: rangeset.Set{{Lo: 10, Hi: 20, P: 1}}},
		{Size: 4, Exec: rangeset.Set{{Lo: 10, Hi: 20, P: 1}}},
		{Size: 8, Exec: rangeset.Set{{Lo: 10, Hi: 20, P: 1}}},
	}
	if best, _, _ := ChooseSize(tie, 8); best != 2 {
		t.Errorf("tie with original 8: chose %d", tie[best].Size)
	}
	if best, _, _ := ChooseSize(tie, 5); best != 0 {
		t.Errorf("tie without original: chose %d", tie[best].Size)
	}
}

func TestMoldedEstimateAndRuntime(t *testing.T) {
	// Shrinking from 8 to 4 with ERT 3600: maxPrevious 7200, maxLimit
	// 18000 → the smaller above 3600 is 7200.
	if e := moldedEstimate(8, 4, 3600, 7200, 18000); e != 7200 {
		t.Errorf("shrink: %d", e)
	}
	// maxPrevious below the original: only maxLimit is above.
	if e := moldedEstimate(8, 4, 3600, 1800, 18000); e != 18000 {
		t.Errorf("shrink, small maxPrevious: %d", e)
	}
	// Neither above: keep (H23). Growing: keep.
	if e := moldedEstimate(8, 4, 3600, 1800, 3600); e != 3600 {
		t.Errorf("shrink, none above: %d", e)
	}
	if e := moldedEstimate(4, 8, 3600, 99999, 99999); e != 3600 {
		t.Errorf("grow: %d", e)
	}
	// No estimate in the log: none is invented.
	if e := moldedEstimate(8, 4, -1, 7200, 18000); e != -1 {
		t.Errorf("shrink without an estimate: %d", e)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[int64]bool{}
	for range 200 {
		r, ok := moldedRuntime(rng, []int64{10, 20, 5000}, 1000)
		if !ok || (r != 10 && r != 20 && r != 1000) {
			t.Fatalf("runtime %d ok %v", r, ok)
		}
		seen[r] = true
	}
	if len(seen) != 3 {
		t.Errorf("roulette reached %v", seen)
	}
	if _, ok := moldedRuntime(rng, nil, 10); ok {
		t.Error("no previous runtimes, but a draw")
	}
}

// sizeWait predicts a fixed wait per size.
type sizeWait map[int64]float64

func (w sizeWait) PredictWait(j swf.Job, _ sched.QueueState) (float64, error) {
	return w[j.Size()], nil
}

func job(id, submit, run, size, ert, user int64) swf.Job {
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime = id, submit, run, size, size, ert
	j.Status, j.User, j.Group, j.Queue = swf.StatusCompleted, user, 1, 1
	return j
}

// twoSizeMolder is a 10-processor molder fed by hand: user 1 ran size 2
// for 100 s (ERT 200) and size 8 for 20 s (ERT 50), both started at 0.
func twoSizeMolder(t *testing.T, wait WaitPredictor, cfg Config) *molder {
	t.Helper()
	return fedMolder(t, wait, cfg, job(1, 0, 100, 2, 200, 1), job(2, 0, 20, 8, 50, 1))
}

// fedMolder is a 10-processor molder that has seen every job of hist
// start at 0 and end after its run time, in time order.
func fedMolder(t *testing.T, wait WaitPredictor, cfg Config, hist ...swf.Job) *molder {
	t.Helper()
	m, err := newMolder(10, nil, wait, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range hist {
		if err := m.Started(&hist[i], 0); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(hist, func(a, b swf.Job) int { return cmp.Compare(a.RunTime, b.RunTime) })
	for i := range hist {
		if err := m.Ended(&hist[i], hist[i].RunTime); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// A molder fed by hand: user 1 ran size 2 for 100 s and size 8 for 20 s.
// With no waits, size 8 has the better response; with a 500 s wait at
// size 8 size 2 wins.
func TestMolderDecideHand(t *testing.T) {
	for _, c := range []struct {
		wait   sizeWait
		noGrow bool
		want   int64
		cands  int
	}{{sizeWait{}, false, 8, 2}, {sizeWait{8: 500}, false, 2, 2}, {sizeWait{}, true, 2, 1}} {
		m := twoSizeMolder(t, c.wait, Config{NoGrow: c.noGrow})
		d, ok, err := m.Decide(job(3, 200, 100, 2, 200, 1), sched.QueueState{Now: 200, Free: 10}, 0)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		if d.Job.Size() != c.want || d.Candidates != c.cands {
			t.Errorf("wait %v, no-grow %v: chose size %d of %d candidates, want %d of %d", c.wait, c.noGrow, d.Job.Size(), d.Candidates, c.want, c.cands)
		}
		if c.want == 8 && (d.Job.RunTime != 20 || d.Job.ReqTime != 200 || !d.Changed) {
			t.Errorf("grown job: runtime %d (want the previous 20), ERT %d (want the original 200)", d.Job.RunTime, d.Job.ReqTime)
		}
		// An unknown key is not molded.
		if _, ok, _ := m.Decide(job(4, 200, 10, 3, 20, 9), sched.QueueState{Now: 200}, 0); ok {
			t.Error("unknown user molded")
		}
	}
}

// On a log without estimates a grown job's runtime is limited to the
// original's run time (e := r, the simulator's estimate; the history jobs
// carry it as their estimate, as sched hands them to observers): user 1
// ran 2 processors for 100 s and 8 processors for 20 s and for 5000 s; a
// new 100-s job grown to 8 processors draws 20 or 5000 s and runs 20 or
// 100, never 5000. Shrunk back from 8 to 2 processors it may run as long
// as the user ran at 2 (100 s). The molded jobs keep no estimate.
func TestMolderNoEstimateLimit(t *testing.T) {
	for seed := range uint64(20) {
		m := fedMolder(t, sizeWait{2: 1e5, 8: 0}, Config{Seed: seed},
			job(1, 0, 100, 2, 100, 1), job(2, 0, 20, 8, 20, 1), job(3, 0, 5000, 8, 5000, 1))
		d, ok, err := m.Decide(job(4, 6000, 100, 2, -1, 1), sched.QueueState{Now: 6000, Free: 10}, 0)
		if err != nil || !ok || d.Job.Size() != 8 {
			t.Fatalf("seed %d: %v %v size %d, want grown to 8", seed, ok, err, d.Job.Size())
		}
		if (d.Job.RunTime != 20 && d.Job.RunTime != 100) || d.Job.ReqTime != -1 {
			t.Errorf("seed %d: grown job runs %d s with estimate %d; want 20 or 100 s, no estimate", seed, d.Job.RunTime, d.Job.ReqTime)
		}
	}
	m := fedMolder(t, sizeWait{2: 0, 8: 1e6}, Config{}, job(1, 0, 100, 2, 100, 1), job(2, 0, 20, 8, 20, 1))
	d, ok, err := m.Decide(job(3, 6000, 20, 8, -1, 1), sched.QueueState{Now: 6000, Free: 10}, 0)
	if err != nil || !ok || d.Job.Size() != 2 || d.Job.RunTime != 100 {
		t.Errorf("shrunk: %v %v size %d runtime %d, want size 2 running 100 s", ok, err, d.Job.Size(), d.Job.RunTime)
	}
}

// RunStrategy end to end: user 1 ran 1-processor jobs for 1000 s and
// 10-processor jobs for 100 s on an empty 10-processor machine; a new
// 1-processor job is molded to 10 processors and runs 100 s (response 100
// instead of 1000).
func TestRunStrategyMolding(t *testing.T) {
	jobs := []swf.Job{
		job(1, 0, 1000, 1, 2000, 1),
		job(2, 2000, 100, 10, 200, 1),
		job(3, 5000, 1000, 1, 2000, 1),
	}
	for _, c := range []struct {
		s    string
		resp float64
	}{{"baseline", 1000}, {"molding", 100}} {
		res, err := RunStrategy(context.Background(), sched.EASY(10), jobs, sizeWait{}, StrategyConfig{Strategy: c.s, History: 2})
		if err != nil {
			t.Fatal(err)
		}
		if res.Jobs != 1 || res.MeanResp != c.resp {
			t.Errorf("%v: %d jobs, response %v, want %v", c.s, res.Jobs, res.MeanResp, c.resp)
		}
		want := TreatedJob{ID: 3, OrigSize: 1, Size: 1, Arrival: 5000, Start: 5000, End: 6000, Molded: false}
		if c.s == "molding" {
			want.Size, want.End, want.Molded = 10, 5100, true
		}
		if len(res.Treated) != 1 || res.Treated[0] != want {
			t.Errorf("%v: treated %+v, want %+v", c.s, res.Treated, want)
		}
	}
}

// ScaledRuntime: the user's mean runtimes are 100 s at size 2 and 20 s at
// size 8, so a 50 s job molded from 2 to 8 runs 50·20/100 = 10 s.
func TestMolderScaledRuntime(t *testing.T) {
	m := twoSizeMolder(t, sizeWait{}, Config{ScaledRuntime: true})
	d, ok, err := m.Decide(job(3, 200, 50, 2, 200, 1), sched.QueueState{Now: 200, Free: 10}, 0)
	if err != nil || !ok || d.Job.Size() != 8 || d.Job.RunTime != 10 {
		t.Errorf("size %d runtime %d (ok %v, err %v), want size 8 and 10 s", d.Job.Size(), d.Job.RunTime, ok, err)
	}
}

// A job without a user (−1) is not molded after other user-less jobs, as
// a user never seen is not: they are not one user whose sizes it could
// take; user 0 is a user and is molded (checked: fails without the fix in
// Decide, the user-less job molded).
func TestMolderDecideNoUser(t *testing.T) {
	for _, u := range []int64{-1, 0} {
		m := fedMolder(t, sizeWait{}, Config{}, job(1, 0, 100, 2, 200, u), job(2, 0, 20, 8, 50, u))
		_, ok, err := m.Decide(job(3, 200, 100, 2, 200, u), sched.QueueState{Now: 200, Free: 10}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if ok != (u >= 0) {
			t.Errorf("user %d: molded %v, want %v", u, ok, u >= 0)
		}
	}
}
