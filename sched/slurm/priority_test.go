package slurm_test

import (
	"context"
	"math"
	"testing"

	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/slurm"
	"github.com/batchq/batchq/swf"
)

func mkJob(id, submit, user, procs, run, limit int64) swf.Job {
	j := swf.NewJob()
	j.ID, j.Submit, j.User, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, submit, user, procs, procs, run, limit
	return j
}

// probe runs jobs under site on machine and, at each submission of a job
// in at, reads the priorities of the waiting jobs listed for it.
func probe(t *testing.T, site slurm.Config, machine sched.Config, jobs []swf.Job, at map[int64][]int64) map[[2]int64]int64 {
	t.Helper()
	p, err := slurm.New(site, machine)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int64]int64{}
	obs := sched.Hooks{Submit: func(now int64, j *swf.Job) {
		for _, id := range at[j.ID] {
			pr, ok := p.Priority(id)
			if !ok {
				t.Errorf("at job %d's submission (t=%d) job %d is not waiting", j.ID, now, id)
			}
			got[[2]int64{j.ID, id}] = pr
		}
	}}
	if _, err := p.Run(context.Background(), jobs, obs); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestPriorityFactors works one job's priority out by hand from
// priority/multifactor's formulas, with values exact in binary so that
// Slurm's float sum truncates to the integer written.
func TestPriorityFactors(t *testing.T) {
	site := slurm.Config{
		WeightAge: 1000, WeightJobSize: 2048, WeightPartition: 3000, WeightQOS: 4000, WeightAssoc: 500,
		MaxAge: 800, CalcPeriod: 100,
		Partitions: []slurm.Partition{
			{Name: "p1", PriorityJobFactor: 1, Default: true},
			{Name: "p2", PriorityJobFactor: 2},
		},
		QOS: map[string]int64{"normal": 0, "high": 10},
		Associations: []slurm.Association{
			{Account: "a1", Priority: 4}, {Account: "a2", Priority: 8},
			{Account: "a1", User: "u1"}, {Account: "a2", User: "u2"},
		},
		PartitionNames: map[int64]string{1: "p1", 2: "p2"},
		QOSNames:       map[int64]string{1: "high"},
		UserNames:      map[int64]string{1: "u1", 2: "u2", 3: "u2"},
		AccountNames:   map[int64]string{1: "a1", 2: "a2"},
	}
	// One pool of 128 processors: 128 nodes of one CPU, so a job of 16
	// processors asks 16 nodes.
	machine := sched.Config{MachineSize: 128}
	blocker := mkJob(1, 0, 2, 128, 10000, 10000)
	blocker.Queue, blocker.Group = 2, 2
	a := mkJob(2, 100, 1, 16, 60, 60)
	a.Queue, a.Partition, a.Group = 1, 1, 1
	probeAt := mkJob(3, 300, 3, 1, 60, 60)
	got := probe(t, site, machine, []swf.Job{blocker, a, probeAt}, map[int64][]int64{2: {2}, 3: {2}})

	// At submission (t=100): age 0; assoc 4/8 = 0.5 → 250; job size
	// (16/128 nodes + 16/128 CPUs)/2 = 1/8 → 256; partition 1/2 → 1500;
	// QOS 10/10 → 4000.
	if want := int64(250 + 256 + 1500 + 4000); got[[2]int64{2, 2}] != want {
		t.Errorf("priority at submission = %d, want %d", got[[2]int64{2, 2}], want)
	}
	// At the calculation of t=300: age (300−100)/800 = 0.25 → 250 more.
	if want := int64(250 + 250 + 256 + 1500 + 4000); got[[2]int64{3, 2}] != want {
		t.Errorf("priority at t=300 = %d, want %d", got[[2]int64{3, 2}], want)
	}
}

// TestFavorSmallAndNodes works the job-size factor out on a machine of
// nodes with PriorityFavorSmall: 4 nodes of 8 CPUs, a job of 2 nodes and
// 8 CPUs: ((4−2)/4 + (32−8)/32)/2 = (0.5 + 0.75)/2 = 0.625.
func TestFavorSmallAndNodes(t *testing.T) {
	site := slurm.Config{WeightJobSize: 1024, FavorSmall: true}
	machine := sched.Config{Nodes: []swf.Node{{Name: "n", Count: 4, Cores: 8}}}
	blocker := mkJob(1, 0, 1, 32, 1000, 1000)
	j := mkJob(2, 10, 1, 8, 60, 60)
	j.Demand = &swf.Demand{Nodes: 2, Cores: 4}
	got := probe(t, site, machine, []swf.Job{blocker, j}, map[int64][]int64{2: {2}})
	if want := int64(640); got[[2]int64{2, 2}] != want {
		t.Errorf("job size priority = %d, want %d", got[[2]int64{2, 2}], want)
	}
}

// fairshareCase is a tree root → A (3 shares) → u1, u2 (1 share each);
// root → B (1 share) → u3. Without decay, u1 and u3 each run 8 CPUs for
// 100 s (usage 800 each; root 1600). Probe jobs of the three users are
// submitted at t=120, after the calculation of t=100, behind a job that
// fills the machine; their priorities at submission are the fair-share
// factor × 10000.
func fairshareCase(t *testing.T, classic bool) (u1, u2, u3 int64) {
	t.Helper()
	return fairshareTree(t, classic, []slurm.Association{
		{Account: "A", Shares: 3}, {Account: "B", Shares: 1},
		{Account: "A", User: "u1"}, {Account: "A", User: "u2"}, {Account: "B", User: "u3"},
	})
}

// fairshareTree is fairshareCase's jobs on the tree assocs.
func fairshareTree(t *testing.T, classic bool, assocs []slurm.Association) (u1, u2, u3 int64) {
	t.Helper()
	site := slurm.Config{
		WeightFairshare: 10000, DecayHalfLife: -1, CalcPeriod: 50, ClassicFairshare: classic,
		Associations: assocs,
		UserNames:    map[int64]string{1: "u1", 2: "u2", 3: "u3"},
		AccountNames: map[int64]string{1: "A", 2: "B"},
	}
	job := func(id, submit, user, group, procs, run int64) swf.Job {
		j := mkJob(id, submit, user, procs, run, run)
		j.Group = group
		return j
	}
	jobs := []swf.Job{
		job(1, 0, 1, 1, 8, 100), job(2, 0, 3, 2, 8, 100),
		job(3, 110, 2, 1, 16, 1000), // fills the machine
		job(4, 120, 1, 1, 1, 10), job(5, 120, 2, 1, 1, 10), job(6, 120, 3, 2, 1, 10),
	}
	got := probe(t, site, sched.Config{MachineSize: 16}, jobs, map[int64][]int64{4: {4}, 5: {5}, 6: {6}})
	return got[[2]int64{4, 4}], got[[2]int64{5, 5}], got[[2]int64{6, 6}]
}

// TestFairshareClassic: normalised shares u1, u2 = 3/4·1/2 = 0.375, u3 =
// 1/4. Normalised usage u1 = u3 = 800/1600 = 0.5, u2 = 0; accounts A = B
// = 0.5. Effective usage UE = UA + (UE_parent − UA)·S_self/S_siblings:
// u1 = 0.5 + (0.5−0.5)/2 = 0.5, u2 = 0 + (0.5−0)/2 = 0.25, u3 = 0.5 +
// (0.5−0.5)·1 = 0.5. Factor 2^(−UE/S).
func TestFairshareClassic(t *testing.T) {
	u1, u2, u3 := fairshareCase(t, true)
	want := func(ue, s float64) int64 { return int64(10000 * math.Pow(2, -ue/s)) }
	if w := want(0.5, 0.375); u1 != w {
		t.Errorf("u1: %d, want %d", u1, w)
	}
	if w := want(0.25, 0.375); u2 != w {
		t.Errorf("u2: %d, want %d", u2, w)
	}
	if w := want(0.5, 0.25); u3 != w {
		t.Errorf("u3: %d, want %d", u3, w)
	}
}

// TestFairTree: under root, A has S = 3/4 and U = 800/1600 = 1/2, LF =
// 1.5; B has S = 1/4, U = 1/2, LF = 0.5: A's users rank above B's. Under
// A, u2 has no usage (LF = ∞) and u1 has U = 1, S = 1/2, LF = 0.5. The
// walk ranks u2 3, u1 2, u3 1, of 3 users.
func TestFairTree(t *testing.T) {
	u1, u2, u3 := fairshareCase(t, false)
	if u2 != 10000 || u1 != 6666 || u3 != 3333 {
		t.Errorf("u1, u2, u3 = %d, %d, %d; want 6666, 10000, 3333", u1, u2, u3)
	}
}

// TestFairTreeTies: four users directly under root with one share each;
// u1 and u2 ran the same usage, u3 and u4 the same smaller one. u3 and u4
// tie and share rank 4; u1 and u2 tie below and share rank 2 (the rank
// without ties goes 4, 3, 2, 1).
func TestFairTreeTies(t *testing.T) {
	site := slurm.Config{WeightFairshare: 1000, DecayHalfLife: -1, CalcPeriod: 50}
	jobs := []swf.Job{
		mkJob(1, 0, 1, 4, 100, 100), mkJob(2, 0, 2, 4, 100, 100),
		mkJob(3, 0, 3, 1, 1, 1), mkJob(4, 0, 4, 1, 1, 1), // make u3, u4 known
		mkJob(5, 110, 1, 8, 1000, 1000), // fills the machine
		mkJob(6, 120, 1, 1, 10, 10), mkJob(7, 120, 2, 1, 10, 10), mkJob(8, 120, 3, 1, 10, 10), mkJob(9, 120, 4, 1, 10, 10),
	}
	at := map[int64][]int64{9: {6, 7, 8, 9}}
	// On 10 processors jobs 1–4 run at once: u1 and u2 use 400
	// CPU-seconds each, u3 and u4 one. At job 9's submission jobs 6–9
	// wait (the pass of t=120 comes after the arrivals).
	got := probe(t, site, sched.Config{MachineSize: 10}, jobs, at)
	want := map[int64]int64{6: 500, 7: 500, 8: 1000, 9: 1000}
	for id, w := range want {
		if g := got[[2]int64{9, id}]; g != w {
			t.Errorf("job %d: priority %d, want %d", id, g, w)
		}
	}
}

// TestPriorityAtStart: an Observer's OnStart reads the priority a job
// starts with, and Priority refuses a running job.
func TestPriorityAtStart(t *testing.T) {
	p, err := slurm.New(slurm.Config{WeightJobSize: 1 << 20}, sched.Config{MachineSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	var atStart int64
	var ok bool
	obs := sched.Hooks{Start: func(now int64, j *swf.Job, _ bool) { atStart, ok = p.Priority(j.ID) }}
	if _, err := p.Run(context.Background(), []swf.Job{mkJob(1, 0, 1, 2, 10, 10)}, obs); err != nil {
		t.Fatal(err)
	}
	// (2/4 nodes + 2/4 CPUs)/2 = 1/2 of 2^20.
	if !ok || atStart != 1<<19 {
		t.Errorf("priority at start = %d, %v; want %d", atStart, ok, 1<<19)
	}
	if _, ok := p.Priority(1); ok {
		t.Error("Priority of an ended job")
	}
}

// TestDecay works the usage decay out by hand: d = 1 − 0.693/H per
// second (H = PriorityDecayHalfLife, 100 s), D = d^50 per 50-s period.
// On one processor user 1 runs 0–100 and user 2 100–200; each period a
// running job adds 50·D after the usage decayed by D. At t=200 user 1
// has 50D⁴ + 50D³ and user 2 50D² + 50D, so user 1's share of the
// usage is D²/(D²+1). Three users under root have S = 1/3 each; classic
// fair share is 2^(−3·share) (user 2's 2^(−3/(D²+1))).
func TestDecay(t *testing.T) {
	site := slurm.Config{WeightFairshare: 1000000, DecayHalfLife: 100, CalcPeriod: 50, ClassicFairshare: true}
	jobs := []swf.Job{
		mkJob(1, 0, 1, 1, 100, 100), mkJob(2, 0, 2, 1, 100, 100),
		mkJob(3, 205, 3, 1, 1000, 1000), // holds the processor
		mkJob(4, 210, 1, 1, 1, 1), mkJob(5, 210, 2, 1, 1, 1),
	}
	got := probe(t, site, sched.Config{MachineSize: 1}, jobs, map[int64][]int64{5: {4, 5}})
	D := math.Pow(1-0.693/100, 50)
	share1 := D * D / (D*D + 1)
	if w := int64(1e6 * math.Pow(2, -3*share1)); got[[2]int64{5, 4}] != w {
		t.Errorf("user 1: %d, want %d", got[[2]int64{5, 4}], w)
	}
	if w := int64(1e6 * math.Pow(2, -3*(1-share1))); got[[2]int64{5, 5}] != w {
		t.Errorf("user 2: %d, want %d", got[[2]int64{5, 5}], w)
	}
}

// TestFairTreeAccountTie: root holds user uA and account X (one share
// each); X holds x1 and x2. uA and x1 used 100 CPU-seconds each, x2
// none. Level Fairshare: uA = (1/2)/(100/200) = 1 and X = (1/2)/(100/200)
// = 1 tie, the user first; under X, x2 (no usage, ∞) then x1 ((1/2)/1).
// uA takes rank 3; x2, first under an account tied with uA, shares rank
// 3; x1 gets the rank without ties, 1. Factors 1, 1, 1/3.
func TestFairTreeAccountTie(t *testing.T) {
	site := slurm.Config{WeightFairshare: 1000, DecayHalfLife: -1, CalcPeriod: 50,
		Associations: []slurm.Association{{Account: "X"}, {Account: "root", User: "uA"},
			{Account: "X", User: "x1"}, {Account: "X", User: "x2"}},
		UserNames:    map[int64]string{1: "uA", 2: "x1", 3: "x2"},
		AccountNames: map[int64]string{0: "root", 1: "X"},
	}
	job := func(id, submit, user, group, procs, run int64) swf.Job {
		j := mkJob(id, submit, user, procs, run, run)
		j.Group = group
		return j
	}
	jobs := []swf.Job{
		job(1, 0, 1, 0, 1, 100), job(2, 0, 2, 1, 1, 100),
		job(3, 110, 1, 0, 2, 1000), // holds the machine
		job(4, 120, 1, 0, 1, 1), job(5, 120, 2, 1, 1, 1), job(6, 120, 3, 1, 1, 1),
	}
	got := probe(t, site, sched.Config{MachineSize: 2}, jobs, map[int64][]int64{6: {4, 5, 6}})
	want := map[int64]int64{4: 1000, 5: 333, 6: 1000}
	for id, w := range want {
		if g := got[[2]int64{6, id}]; g != w {
			t.Errorf("job %d: %d, want %d", id, g, w)
		}
	}
}

// TestChargeAtEnd: Slurm 22.05 charges a job's usage when it ends only
// when AccountingStorageEnforce has limits; otherwise only the
// PriorityCalcPeriod runs charge the jobs running then. User 1's job runs
// 0–20, between the runs at 0 and 100; user 3's holds the processor from
// 30. At 150 users 1 and 2 are equal without EnforceLimits (user 1 was
// never charged) and user 1 is below user 2 with it.
func TestChargeAtEnd(t *testing.T) {
	jobs := []swf.Job{
		mkJob(1, 0, 1, 1, 20, 20),
		mkJob(2, 30, 3, 1, 1000, 1000), // holds the processor
		mkJob(3, 150, 1, 1, 1, 1), mkJob(4, 150, 2, 1, 1, 1),
	}
	for _, limits := range []bool{false, true} {
		for _, classic := range []bool{false, true} {
			site := slurm.Config{WeightFairshare: 1000000, DecayHalfLife: 1000, CalcPeriod: 100,
				ClassicFairshare: classic, EnforceLimits: limits}
			got := probe(t, site, sched.Config{MachineSize: 1}, jobs, map[int64][]int64{4: {3, 4}})
			p1, p2 := got[[2]int64{4, 3}], got[[2]int64{4, 4}]
			if limits && p1 >= p2 || !limits && p1 != p2 {
				t.Errorf("EnforceLimits %v, classic %v: user 1 %d, user 2 %d", limits, classic, p1, p2)
			}
		}
	}
}

// TestFairshareParentUser: u1 set to Fairshare=parent under A. Classic:
// u1's factor is A's, S = 3/4, UE = 0.5 (A is under root); u2 is alone
// in A's shares, S = 1·3/4, UE = 0 + (0.5−0)·1 = 0.5; u3 as before. Fair
// Tree: u1's Level Fairshare is infinite, tied with u2's (no usage), so
// both rank 3 of 3 (u1 would rank 2 with its own share); u3 ranks 1.
func TestFairshareParentUser(t *testing.T) {
	tree := []slurm.Association{
		{Account: "A", Shares: 3}, {Account: "B", Shares: 1},
		{Account: "A", User: "u1", Shares: -1}, {Account: "A", User: "u2"}, {Account: "B", User: "u3"},
	}
	want := func(ue, s float64) int64 { return int64(10000 * math.Pow(2, -ue/s)) }
	u1, u2, u3 := fairshareTree(t, true, tree)
	if w1, w2, w3 := want(0.5, 0.75), want(0.5, 0.75), want(0.5, 0.25); u1 != w1 || u2 != w2 || u3 != w3 {
		t.Errorf("classic: u1, u2, u3 = %d, %d, %d; want %d, %d, %d", u1, u2, u3, w1, w2, w3)
	}
	u1, u2, u3 = fairshareTree(t, false, tree)
	if u1 != 10000 || u2 != 10000 || u3 != 3333 {
		t.Errorf("Fair Tree: u1, u2, u3 = %d, %d, %d; want 10000, 10000, 3333", u1, u2, u3)
	}
}

// TestFairshareParentAccount: B set to Fairshare=parent, u3 with 4
// shares under it: u3 competes under root beside A, level shares 3 + 4.
// Classic: A's S = 3/7, u1 and u2 S = 3/14; u3 S = 4/7; usage as in
// TestFairshareClassic (A = u3 = 0.5, UE u1 = 0.5, u2 = 0.25, u3 = 0.5).
// Fair Tree: u3's LF (4/7)/0.5 is above A's (3/7)/0.5, so u3 ranks 3,
// then A's u2 2 and u1 1 (with B a node of one share, u3 would rank 1).
func TestFairshareParentAccount(t *testing.T) {
	tree := []slurm.Association{
		{Account: "A", Shares: 3}, {Account: "B", Shares: -1},
		{Account: "A", User: "u1"}, {Account: "A", User: "u2"}, {Account: "B", User: "u3", Shares: 4},
	}
	want := func(ue, s float64) int64 { return int64(10000 * math.Pow(2, -ue/s)) }
	u1, u2, u3 := fairshareTree(t, true, tree)
	if w1, w2, w3 := want(0.5, 3.0/14), want(0.25, 3.0/14), want(0.5, 4.0/7); u1 != w1 || u2 != w2 || u3 != w3 {
		t.Errorf("classic: u1, u2, u3 = %d, %d, %d; want %d, %d, %d", u1, u2, u3, w1, w2, w3)
	}
	u1, u2, u3 = fairshareTree(t, false, tree)
	if u3 != 10000 || u2 != 6666 || u1 != 3333 {
		t.Errorf("Fair Tree: u1, u2, u3 = %d, %d, %d; want 3333, 6666, 10000", u1, u2, u3)
	}
}

// TestFairshareParentChain: an account set to parent under another set
// to parent hangs its children at the first ancestor that is not, and
// they inherit the Priority of the nearest account that has one.
func TestFairshareParentChain(t *testing.T) {
	tree := []slurm.Association{
		{Account: "A", Shares: 3}, {Account: "B", Shares: -1, Priority: 7},
		{Account: "C", Parent: "B", Shares: -1},
		{Account: "A", User: "u1"}, {Account: "A", User: "u2"}, {Account: "C", User: "u3", Shares: 4},
	}
	u1, u2, u3 := fairshareTree(t, false, tree)
	if u3 != 10000 || u2 != 6666 || u1 != 3333 {
		t.Errorf("Fair Tree: u1, u2, u3 = %d, %d, %d; want 3333, 6666, 10000", u1, u2, u3)
	}
	site := slurm.Config{WeightAssoc: 1000, Associations: tree,
		UserNames: map[int64]string{3: "u3"}, AccountNames: map[int64]string{2: "C"}}
	j := mkJob(2, 0, 3, 1, 10, 10)
	j.Group = 2
	jobs := []swf.Job{mkJob(1, 0, 1, 1, 100, 100), j}
	got := probe(t, site, sched.Config{MachineSize: 1}, jobs, map[int64][]int64{2: {2}})
	if g := got[[2]int64{2, 2}]; g != 1000 { // 7/7, the largest Priority
		t.Errorf("u3's assoc priority %d, want 1000 (B's Priority 7 of 7)", g)
	}
}

// TestAssocWeightLater: the assoc factor's weight is read again at every
// arrival and calculation (weights), not kept with the configuration's
// part of the weights: a user under a Fairshare=parent account of
// Priority 7 brings the first association priority when its first job
// arrives (the largest was 0, and the factor with it), after another
// user's job made the weights.
// Job 1 holds the 8 CPUs; job 2 (account p) and job 3 (account a) wait
// with priorities 1000·7/7 and 1 (the least: 0 is for held jobs).
func TestAssocWeightLater(t *testing.T) {
	site := slurm.Config{WeightAssoc: 1000, BackfillInterval: 10,
		Associations: []slurm.Association{{Account: "a", Shares: 1}, {Account: "p", Shares: -1, Priority: 7}},
		AccountNames: map[int64]string{1: "a", 2: "p"}}
	p, err := slurm.New(site, sched.Config{MachineSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	s, err := sched.New(sched.Config{MachineSize: 8, Scheduler: p})
	if err != nil {
		t.Fatal(err)
	}
	mk := func(id, submit, user, group int64) swf.Job {
		j := swf.NewJob()
		j.ID, j.Submit, j.User, j.Group, j.AllocProcs, j.ReqProcs, j.RunTime, j.ReqTime = id, submit, user, group, 8, 8, 1000, 1000
		return j
	}
	if err := s.Load([]swf.Job{mk(1, 0, 1, 1), mk(2, 10, 2, 2), mk(3, 20, 1, 1)}); err != nil {
		t.Fatal(err)
	}
	if err := s.RunUntil(50); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]int64{2: 1000, 3: 1} {
		if got, ok := p.Priority(id); !ok || got != want {
			t.Errorf("job %d: priority %d (waiting %v), want %d", id, got, ok, want)
		}
	}
}
