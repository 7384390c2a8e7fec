package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/examples/internal/readme"
)

func TestCLI(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.json")
	clitest.Run(t, clitest.Command{Run: run, JSON: []string{recordPath, "-json"}, Missing: []string{missing}, File: missing})
}

// TestJSONKeys: every key of -json is snake_case, as every report's -json
// (qserve's client alone prints the service's camelCase API objects). A
// user saw "BackfillSeen" and "BackfillJumped" beside "own_pairs" (two
// fields of slurmSide without tags).
func TestJSONKeys(t *testing.T) {
	r := clitest.Exec(run, "", recordPath, "-json")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	var v any
	if err := json.Unmarshal([]byte(r.Stdout), &v); err != nil {
		t.Fatal(err)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if !snake.MatchString(k) {
					t.Errorf("-json key %s/%s: want snake_case", path, k)
				}
				walk(path+"/"+k, e)
			}
		case []any:
			for _, e := range v {
				walk(path+"[]", e)
			}
		}
	}
	walk("", v)
}

// TestReadme regenerates the README's tables from the committed
// recordings: region live from the live check's site (TestLiveSlurmCheck
// with BATCHQ_UPDATE_README=1 records a fresh run as the first, with
// BATCHQ_SLURMCHECK_RECORD=testdata/live2.json as the second), region
// onenode from the two runs of the first site, one node (oneNode), kept
// for the contrast: Slurm hardly agrees with itself there; regions
// fstiers and fstiersruns from the runs of site fs-tiers, another family
// of weights and backfill parameters; region gres from the two runs of
// the site of memory and GPUs (gresSite), gresexcl from those of its
// sibling with exclusive jobs (gresExclSite); parts from those of the
// held-out site of partitions over different nodes (partsSite); qostree
// from those of the second held-out site (qosTreeSite).
func TestReadme(t *testing.T) {
	for _, c := range []struct {
		region string
		paths  [2]string
	}{{"live", [2]string{recordPath, secondPath}}, {"onenode", [2]string{oneNodePaths[0], oneNodePaths[1]}}, {"fstiers", tiersPaths}, {"gres", gresPaths}, {"gresexcl", gresExclPaths}, {"parts", partsPaths}, {"qostree", qosTreePaths}} {
		var recs [2]*recording
		for k, path := range c.paths {
			rec, err := readRecording(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.Workload) < 200 || len(rec.Samples) < 20 || len(rec.Decays) < 2 {
				t.Fatalf("%s holds %d jobs, %d samples, %d decay runs; want ≥ 200, ≥ 20, ≥ 2", path, len(rec.Workload), len(rec.Samples), len(rec.Decays))
			}
			recs[k] = rec
		}
		res, err := compareTwo(recs[0], recs[1])
		if err != nil {
			t.Fatal(err)
		}
		readme.Check(t, "README.md", c.region, []byte(res.table(c.paths)))
	}
	// The four runs of the live site: Slurm against itself for every pair.
	names := livePaths
	var recs []*recording
	for _, path := range names {
		rec, err := readRecording(path)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	text, err := manyRuns(names, recs)
	if err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "runs", []byte(text))
	// The three runs of site fs-tiers, the same way.
	recs = recs[:0]
	for _, path := range tiersRuns {
		rec, err := readRecording(path)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	if text, err = manyRuns(tiersRuns, recs); err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "fstiersruns", []byte(text))
}

// thirdPath is a third run of the live site (BATCHQ_SLURMCHECK_RECORD=
// testdata/live3.json).
const thirdPath = "testdata/live3.json"

// fourthPath is a fourth run (2026-11-30 04:03 UTC), recorded after the
// run times became tickRunTime's, so that the change is checked on a run
// it was not found on (README.md, "The policy ran ahead late in the run").
const fourthPath = "testdata/live4.json"

// tiersPaths are the two recorded runs of site fs-tiers: the live site's
// machine, workload and fair-share tree under another family of weights
// and backfill parameters (tiersSched, tiersPartitions).
var tiersPaths = [2]string{"testdata/fstiers.json", "testdata/fstiers2.json"}

// tiersRuns are the three recorded runs of site fs-tiers.
var tiersRuns = []string{tiersPaths[0], tiersPaths[1], "testdata/fstiers3.json"}

// gresPaths are the two recorded runs of the site of memory and GPUs
// (gresSite; BATCHQ_SLURMCHECK_SITE=gres).
var gresPaths = [2]string{"testdata/gres.json", "testdata/gres2.json"}

// gresExclPaths are the two recorded runs of the site of memory, GPUs
// and exclusive jobs (gresExclSite; BATCHQ_SLURMCHECK_SITE=gres-excl).
var gresExclPaths = [2]string{"testdata/gresexcl.json", "testdata/gresexcl2.json"}

// partsPaths are the two recorded runs of the site of partitions over
// different nodes, classic fair share and a binding bf_max_job_test
// (partsSite; BATCHQ_SLURMCHECK_SITE=parts).
var partsPaths = [2]string{"testdata/parts.json", "testdata/parts2.json"}

// oneNodePaths are the two recorded runs of the one-node site.
var oneNodePaths = [2]string{"testdata/onenode.json", "testdata/onenode2.json"}

// TestPlan: each recorded workload and site is the one the code plans
// (the seeds and the plans did not drift from the runs the README shows):
// the workload, the slurm.conf lines, the fair-share tree and the QOS of
// every recording of each site.
func TestPlan(t *testing.T) {
	for _, c := range []struct {
		site  *liveSite
		paths []string
		nodes string
	}{
		{&liveSites[0], livePaths, ""},
		{siteNamed(t, "fs-tiers"), tiersRuns, ""},
		{siteNamed(t, "gres"), gresPaths[:], ""},
		{siteNamed(t, "gres-excl"), gresExclPaths[:], ""},
		{siteNamed(t, "parts"), partsPaths[:], ""},
		{siteNamed(t, "qos-tree"), qosTreePaths[:], ""},
		{&oneNode, oneNodePaths[:], "NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=48 RealMemory=4000 Gres=gpu:4 State=UNKNOWN\n"},
	} {
		for _, path := range c.paths {
			rec, err := readRecording(path)
			if err != nil {
				t.Fatal(err)
			}
			plan := c.site.Plan()
			if len(plan) != len(rec.Workload) {
				t.Fatalf("%s, %s: planned %d jobs, recorded %d", c.site.Name, path, len(plan), len(rec.Workload))
			}
			for i := range plan {
				if plan[i] != rec.Workload[i] {
					t.Fatalf("%s, %s: job %d: planned %+v, recorded %+v", c.site.Name, path, i, plan[i], rec.Workload[i])
				}
			}
			nodes := c.nodes
			for i := 1; c.site.Nodes > 1 && i <= c.site.Nodes; i++ {
				nodes += fmt.Sprintf("NodeName=n%d NodeAddr=127.0.0.1 NodeHostname=n%d CPUs=%d RealMemory=4000 Gres=gpu:4 State=UNKNOWN\n", i, i, c.site.CPUs)
			}
			if rec.Conf != c.site.conf()+nodes {
				t.Errorf("%s, %s: the recorded slurm.conf lines are not the site's and its nodes:\n%s", c.site.Name, path, rec.Conf)
			}
			if got, want := recordedTree(rec), siteTree(c.site); !slices.Equal(got, want) {
				t.Errorf("%s, %s: the recorded fair-share tree and QOS are %q, the site's %q", c.site.Name, path, got, want)
			}
		}
	}
}

// recordedTree is the fair-share tree sshare showed before the run
// ("account|user|RawShares", root left out) and the QOS sacctmgr showed
// ("qos|priority"), sorted.
func recordedTree(rec *recording) []string {
	var out []string
	for i, l := range strings.Split(strings.TrimSpace(rec.Shares), "\n") {
		f := strings.Split(l, "|")
		if i == 0 || len(f) < 3 || strings.TrimSpace(f[0]) == "root" {
			continue
		}
		out = append(out, strings.TrimSpace(f[0])+"|"+f[1]+"|"+f[2])
	}
	for i, l := range strings.Split(strings.TrimSpace(rec.QOS), "\n") {
		if i > 0 {
			out = append(out, "qos "+l)
		}
	}
	slices.Sort(out)
	return out
}

// siteTree is recordedTree of what the live check sets up for ls (site).
func siteTree(ls *liveSite) []string {
	accounts := ls.Accounts
	if accounts == nil {
		accounts = siteAccounts
	}
	out := []string{"qos normal|0"}
	for _, a := range accounts {
		out = append(out, fmt.Sprintf("%s||%d", a.name, a.shares))
		for _, u := range a.users {
			out = append(out, fmt.Sprintf("%s|%s|%d", a.name, u.name, u.shares))
		}
	}
	for q, p := range siteQOS {
		out = append(out, fmt.Sprintf("qos %s|%d", q, p))
	}
	slices.Sort(out)
	return out
}

// siteNamed is the live site of that name.
func siteNamed(t *testing.T, name string) *liveSite {
	t.Helper()
	for i := range liveSites {
		if liveSites[i].Name == name {
			return &liveSites[i]
		}
	}
	t.Fatalf("no live site %s", name)
	return nil
}

// TestScore pins the figures' definitions on a hand-made case.
func TestScore(t *testing.T) {
	// Slurm: jobs 0 and 1 submitted at 0, started at 10 and 20; job 2
	// submitted at 30 (after both started: no competing pair with them),
	// started at 30; job 3 submitted at 0, started at 20 (the same second
	// as job 1: no pair).
	c := &checked{rec: &recording{}, real: []realJob{
		{Submit: 0, Start: 10}, {Submit: 0, Start: 20}, {Submit: 30, Start: 30}, {Submit: 0, Start: 20},
	}}
	s := &simulated{name: "x", starts: []int64{20, 20, 36, 15}}
	f, err := score(c, s)
	if err != nil {
		t.Fatal(err)
	}
	// Competing pairs: (0,1) tie in the simulation: ½; (0,3): 10<20 real,
	// 20>15 sim: 0. (1,3) same real second: none. Pairs with 2: none
	// compete. All pairs: (0,1) ½, (0,2) 1, (0,3) 0, (1,2) 1, (2,3) 1.
	if f.Pairs != 2 || f.Agree != 0.25 {
		t.Errorf("competing pairs %d, agreement %v; want 2, 0.25", f.Pairs, f.Agree)
	}
	if f.AllPairs != 5 || f.AllAgree != 3.5/5 {
		t.Errorf("all pairs %d, agreement %v; want 5, 0.7", f.AllPairs, f.AllAgree)
	}
	// Start errors 10, 0, 6, 5: within 5 s are jobs 1 and 3.
	if f.Within != 0.5 || f.MeanError != 21.0/4 {
		t.Errorf("within %v, mean error %v; want 0.5, 5.25", f.Within, f.MeanError)
	}
	if f.PrioAbs != nil {
		t.Error("a priority error without priorities")
	}
	c.rec.Samples = []sample{{T: 1000, Sprio: "1|100|1|2|3|4|5\n2|300|0|0|0|0|0\n"}, {T: 3000, Sprio: "2|400|0|0|0|0|0\n"}}
	s.prios = []map[string]int64{{"1": 110, "2": 300}, {"2": 200}}
	if f, err = score(c, s); err != nil {
		t.Fatal(err)
	}
	// Errors 10 (10%), 0, 200 (50%).
	if f.PrioSamples != 3 || math.Abs(*f.PrioAbs-70) > 1e-9 || math.Abs(*f.PrioRel-0.2) > 1e-9 {
		t.Errorf("priority samples %d, error %v, relative %v; want 3, 70, 0.2", f.PrioSamples, *f.PrioAbs, *f.PrioRel)
	}
}

// TestCtldLog reads the lines of slurmctld 22.05's log that the recording
// keeps (copied from a run), and skips the others.
func TestCtldLog(t *testing.T) {
	log := `[2026-11-28T22:20:19.525] sched/backfill: _start_job: Started JobId=5 in debug on localhost
[2026-11-28T22:20:20.941] _job_complete: JobId=5 WEXITSTATUS 0
[2026-11-28T22:20:20.942] _job_complete: JobId=5 done
[2026-11-28T22:20:48.434] debug:  sched: Running job scheduler for default depth.
[2026-11-28T22:20:48.438] sched: Allocate JobId=42 NodeList=localhost #CPUs=12 Partition=debug
[2026-11-28T22:20:56.543] _job_complete: JobId=42 done
garbage
`
	got, err := parseCtldLog(log, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 28, 22, 20, 19, 525e6, time.UTC).UnixMilli()
	want := []logJob{{ID: "5", Start: t0, End: t0 + 1417, Backfill: true, Node: "localhost"}, {ID: "42", Start: t0 + 28913, End: t0 + 37018, Node: "localhost"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if _, err := parseCtldLog("[2026-11-28T22:20:xx.438] sched: Allocate JobId=42 NodeList=localhost\n", time.UTC); err == nil {
		t.Error("a malformed time was accepted")
	}
	// A bare timestamp (the log cut after it) is no event; an allocation
	// or a backfill start without its job's number is an error, not a
	// start dropped silently.
	if got, err := parseCtldLog("[2026-11-28T22:20:19.525]\n[2026-11-28T22:20:19.525] \n", time.UTC); err != nil || len(got) != 0 {
		t.Errorf("bare timestamps: %+v, %v; want nothing, no error", got, err)
	}
	for _, l := range []string{"[2026-11-28T22:20:48.438] sched: Allocate JobId= NodeList=n1\n", "[2026-11-28T22:20:19.525] sched/backfill: _start_job: Started JobId= in debug on n1\n"} {
		if _, err := parseCtldLog(l, time.UTC); err == nil {
			t.Errorf("%q: accepted", l)
		}
	}
}

// TestSshareUsage reads the user lines of sshare -a -P -l (Slurm 22.05's
// own output), leaving out root's.
func TestSshareUsage(t *testing.T) {
	out := `Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|GrpTRESMins|TRESRunMins
root|||0.000000|322||1.000000||||cpu=0
 root|root|1|0.009901|0|0.000000|0.000000|1.000000|inf||cpu=0
 chem||30|0.297030|145|0.451081|0.451081||0.658484||cpu=0
  chem|bq-carol|1|0.333333|59|0.183177|0.406085|0.285714|0.820846||cpu=0
  chem|bq-dave|1|0.333333|86|0.267904|0.593915|0.142857|0.561248||cpu=0
`
	got := sshareUsage(out)
	want := []usageRow{{Assoc: "bq-carol/chem", RawUsage: 59}, {Assoc: "bq-dave/chem", RawUsage: 86}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if sshareUsage("User|Account\n") != nil || sshareUsage("") != nil {
		t.Error("output without the columns gave rows")
	}
}

// TestSelfAgreement: a recording against itself agrees fully (every pair
// in order, every start within bf_interval, no priority error), and two
// recordings of different workloads are refused.
func TestSelfAgreement(t *testing.T) {
	rec, err := decodeRecording(liveRecording, recordPath)
	if err != nil {
		t.Fatal(err)
	}
	two, err := compareTwo(rec, rec)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range two.Runs {
		f := r.Figures[len(r.Figures)-1]
		if f.Agree != 1 || f.AllAgree != 1 || f.Within != 1 || f.MeanError != 0 || f.PrioAbs == nil || *f.PrioAbs != 0 || f.PrioSamples == 0 {
			t.Errorf("run %d against itself: %+v", k+1, f)
		}
	}
	if two.SubmitDiff != [2]float64{} || two.FirstApart != -1 || two.Late != 0 {
		t.Errorf("submissions against themselves: %v, first apart %d, late %d", two.SubmitDiff, two.FirstApart, two.Late)
	}
	other := *rec
	other.Workload = slices.Clone(rec.Workload)
	other.Workload[0].CPUs++
	if _, err := compareTwo(rec, &other); err == nil {
		t.Error("two different workloads were compared")
	}
}

// The README says that backfill on named nodes (slurm.Config.NamedNodes)
// brings the policy's starts closer to Slurm's than the plan of CPUs by
// the mean |start error| averaged over the four live recordings, and by
// nothing more: on each of the first three alone it was so until the run
// times became tickRunTime's; now the first is the exception, and the
// share within bf_interval and the competing pairs mostly favour the
// plan of CPUs (README.md, "Backfill on named nodes").
func TestNamedNodesCloser(t *testing.T) {
	var mean [2]float64
	for k, c := range preparedLive(t) {
		path := livePaths[k]
		for i, named := range []bool{false, true} {
			s, err := runSlurmPlan(context.Background(), c, named)
			if err != nil {
				t.Fatal(err)
			}
			f, err := score(c, s)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s, named nodes %v: mean |start error| %.2f s, within bf_interval %.1f%%, competing pairs %.1f%%", path, named, f.MeanError, 100*f.Within, 100*f.Agree)
			mean[i] += f.MeanError / float64(len(livePaths))
		}
	}
	if mean[1] >= mean[0] {
		t.Errorf("mean |start error| over the %d recordings %.2f s on named nodes, %.2f s on the plan of CPUs", len(livePaths), mean[1], mean[0])
	}
}

// TestTickRunTime: on the four live recordings every job ran its sleep
// plus 0.02–0.38 s (slurmctld's log), so the simulations' run time
// (tickRunTime) is its sleep + 1 s, where sacct's End − Start gave the
// sleep itself for 170, 194, 198 and 186 of the 200 jobs (README.md, "The
// policy ran ahead late in the run").
func TestTickRunTime(t *testing.T) {
	lo, hi := int64(math.MaxInt64), int64(0)
	for k, c := range preparedLive(t) {
		path, rec := livePaths[k], c.rec
		logged := map[string]logJob{}
		for _, l := range rec.Log {
			logged[l.ID] = l
		}
		short := 0
		for i, j := range c.jobs {
			sleep := rec.Workload[i].Sleep
			if j.RunTime != sleep+1 {
				t.Errorf("%s job %d: run time %d s, want its sleep %d s + 1", path, i, j.RunTime, sleep)
			}
			if r := c.real[i]; r.End-r.Start == sleep {
				short++
			}
			l := logged[rec.IDs[i]]
			lo, hi = min(lo, l.End-l.Start-1000*sleep), max(hi, l.End-l.Start-1000*sleep)
		}
		if want := []int{170, 194, 198, 186}[k]; short != want {
			t.Errorf("%s: End − Start is the sleep for %d jobs, want %d", path, short, want)
		}
	}
	if lo < 15 || hi >= 385 {
		t.Errorf("the jobs ran their sleep plus %d–%d ms, want 0.02–0.38 s", lo, hi)
	}
}

// livePaths are the four committed runs of the live site.
var livePaths = []string{recordPath, secondPath, thirdPath, fourthPath}

// preparedLive reads and prepares the recordings of livePaths.
func preparedLive(t *testing.T) []*checked {
	t.Helper()
	var out []*checked
	for _, path := range livePaths {
		_, c := readPrepared(t, path)
		out = append(out, c)
	}
	return out
}

// readPrepared reads the recording at path and prepares it.
func readPrepared(t *testing.T, path string) (*recording, *checked) {
	t.Helper()
	rec, err := readRecording(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := prepare(rec)
	if err != nil {
		t.Fatal(err)
	}
	return rec, c
}

// TestSubmitSecond: the simulations take sacct's Submit, truncated to
// its second S, and a tick of Slurm's schedulers in that second sees a
// job submitted at S + f only if the tick comes after it. The ticks drift
// through the second (the phases of the log's starts): on the four live
// runs the sbatch calls (a lower bound on f) came a median 56–83 ms into
// their second, and 18 of the 314 scheduler runs that started a job came
// earlier in their second than that median; Slurm started 9–15 jobs a
// run in the very second of their submission, which a submit rounded up
// to the next second would forbid (README.md, "The policy ran ahead late
// in the run": the submit times ruled out).
func TestSubmitSecond(t *testing.T) {
	paths := append(slices.Clone(livePaths), oneNodePaths[:]...)
	var runs, before int
	lo, hi := int64(math.MaxInt64), int64(0)
	for k, path := range paths {
		rec, c := readPrepared(t, path)
		same := 0
		for _, r := range c.real {
			if r.Start == r.Submit {
				same++
			}
		}
		if want := []int{15, 10, 9, 10, 10, 13}[k]; same != want {
			t.Errorf("%s: Slurm started %d jobs in their submit second, want %d", path, same, want)
		}
		if k >= len(livePaths) {
			continue // the one-node runs' submissions are not at whole seconds
		}
		into := make([]int64, len(c.real))
		for i, r := range c.real {
			into[i] = rec.Submitted[i] - 1000*r.Submit
		}
		slices.Sort(into)
		med := into[len(into)/2]
		lo, hi = min(lo, med), max(hi, med)
		// A scheduler run: one scheduler's starts, each within 100 ms
		// of the one before.
		for _, bf := range []bool{false, true} {
			var starts []int64
			for _, l := range rec.Log {
				if l.Backfill == bf {
					starts = append(starts, l.Start)
				}
			}
			slices.Sort(starts)
			for i, s := range starts {
				if i == 0 || s-starts[i-1] > 100 {
					runs++
					if s%1000 < med {
						before++
					}
				}
			}
		}
	}
	if lo != 56 || hi != 83 || runs != 314 || before != 18 {
		t.Errorf("sbatch calls a median %d–%d ms into their second; %d of %d scheduler runs earlier in theirs, want 56–83 ms, 18 of 314", lo, hi, before, runs)
	}
}

// TestByPartition pins the mean signed start error by partition: over
// each partition's jobs, simulated − Slurm's, the partitions by name.
func TestByPartition(t *testing.T) {
	real := []realJob{{Partition: "long", Start: 10}, {Partition: "debug", Start: 5}, {Partition: "long", Start: 20}}
	got := byPartition(real, []int64{16, 3, 30})
	want := []partError{{"debug", 1, -2}, {"long", 2, 8}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestFirstJobBackfill: on an idle Slurm the backfill thread checks every
// second, so the first job meets a cycle within a second of its sbatch
// call: on six of the seven four-node runs backfill started it 0.04–0.72 s
// after the call (README.md, "Slurm's pace").
func TestFirstJobBackfill(t *testing.T) {
	runs, byBackfill := 0, 0
	lo, hi := int64(math.MaxInt64), int64(0)
	for _, path := range append(slices.Clone(livePaths), tiersRuns...) {
		rec, err := readRecording(path)
		if err != nil {
			t.Fatal(err)
		}
		runs++
		for _, l := range rec.Log {
			if l.ID == rec.IDs[0] && l.Backfill {
				byBackfill++
				lo, hi = min(lo, l.Start-rec.Submitted[0]), max(hi, l.Start-rec.Submitted[0])
			}
		}
	}
	if runs != 7 || byBackfill != 6 || (lo+5)/10 != 4 || (hi+5)/10 != 72 {
		t.Errorf("backfill started the first job on %d of %d runs, %d–%d ms after its call; want 6 of 7, 0.04–0.72 s", byBackfill, runs, lo, hi)
	}
}

// TestEndTriggeredMain counts the main scheduler's runs that started
// jobs within 100 ms of a job's end (its starts, each within 100 ms of
// the one before, as one run): slurmd's epilog-complete report, when it
// reaches slurmctld after the job's completion, runs the main scheduler at
// once (_slurm_rpc_epilog_complete calls schedule()), which the policy
// does only with an Epilog; its other runs come from the background loop.
// On site fs-tiers such runs are 26–38% of the main scheduler's starting
// runs, on the live site 8–9% on three runs and 24% on the fourth
// (README.md, "Another family of weights"). The baseline beside: the
// 100 ms after the ends cover 6.0–6.4% of each run (first start to last
// end), the share runs placed without regard to the ends would show, so
// the live site's three are near chance and fs-tiers' far above.
func TestEndTriggeredMain(t *testing.T) {
	paths := append(append(slices.Clone(livePaths), tiersRuns...), oneNodePaths[:]...)
	want := [][2]int{{3, 36}, {3, 33}, {3, 40}, {9, 37}, {20, 52}, {15, 46}, {12, 47}, {17, 64}, {0, 58}}
	for k, path := range paths {
		rec, err := readRecording(path)
		if err != nil {
			t.Fatal(err)
		}
		var mains, ends []int64
		first := int64(math.MaxInt64)
		for _, l := range rec.Log {
			first = min(first, l.Start)
			if !l.Backfill {
				mains = append(mains, l.Start)
			}
			if l.End != 0 {
				ends = append(ends, l.End)
			}
		}
		slices.Sort(mains)
		slices.Sort(ends)
		var covered int64 // ms of [first start, last end] within 100 ms after an end
		for i, e := range ends {
			if i+1 < len(ends) {
				covered += min(100, ends[i+1]-e)
			} else {
				covered += 100
			}
		}
		if share := math.Round(1000*float64(covered)/float64(ends[len(ends)-1]-first)) / 10; share < 6 || share > 6.4 {
			t.Errorf("%s: the 100 ms after the ends cover %.1f%% of the run, want 6.0–6.4%%", path, share)
		}
		runs, atEnd := 0, 0
		for i, m := range mains {
			if i > 0 && m-mains[i-1] <= 100 {
				continue
			}
			runs++
			if slices.ContainsFunc(ends, func(e int64) bool { return m >= e && m-e < 100 }) {
				atEnd++
			}
		}
		if got := [2]int{atEnd, runs}; got != want[k] {
			t.Errorf("%s: %d of %d starting main scheduler runs within 100 ms of an end, want %d of %d", path, atEnd, runs, want[k][0], want[k][1])
		}
	}
}

// TestPriorityExact: on every run of the live site and of site fs-tiers
// the policy's priority of each sampled pending job is sprio's exactly,
// as README.md says ("Under these weights too the policy's priority of
// every sampled pending job equals sprio's"); the tables print the mean
// |error| rounded to a whole number, which would show 0 for an error of a
// few jobs by a few points.
func TestPriorityExact(t *testing.T) {
	for _, path := range append(slices.Clone(livePaths), tiersRuns...) {
		rec, err := readRecording(path)
		if err != nil {
			t.Fatal(err)
		}
		res, err := compare(rec)
		if err != nil {
			t.Fatal(err)
		}
		f := res.Figures[0]
		if f.Name != slurmName || f.PrioAbs == nil || f.PrioSamples < 1000 {
			t.Fatalf("%s: %s: %d priority samples compared, want the policy's over ≥ 1000", path, f.Name, f.PrioSamples)
		}
		if *f.PrioAbs != 0 {
			t.Errorf("%s: mean |priority error| %g over %d samples, want exactly 0", path, *f.PrioAbs, f.PrioSamples)
		}
	}
}
