package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// synthTrace writes a small deterministic SWF trace (n jobs, 8 users, a
// 64-processor machine) and returns its path.
func synthTrace(t testing.TB, n int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n; MaxJobs: " + fmt.Sprint(n) + "\n")
	var submit int64
	for i := 1; i <= n; i++ {
		submit += r.Int64N(400)
		run := 1 + r.Int64N(3600)
		est := run * (1 + r.Int64N(4))
		if r.IntN(10) == 0 {
			est = 7200
		}
		procs := 1 << r.IntN(6)
		user := 1 + r.IntN(8)
		fmt.Fprintf(&b, "%d %d 0 %d %d -1 -1 %d %d -1 1 %d 1 1 1 -1 -1 -1\n", i, submit, run, procs, procs, est, user)
	}
	p := filepath.Join(t.TempDir(), "synth.swf")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// smallSpec is a 28-run sweep over a synthetic trace: 2 loads × 2 seeds ×
// (EASY + EASY++ with 6 predictor configurations).
func smallSpec(t testing.TB, trace string) (*Spec, string) {
	t.Helper()
	js := fmt.Sprintf(`{"name": "small", "traces": [{"name": "synth", "file": %q, "machine": 64}],
		"policies": ["EASY", "easy++"], "loads": [0, 0.9], "seeds": [0, 7],
		"predictor": {"window": [1, "2-3"], "type": ["all", "extended"], "correction": ["estimate"]},
		"options": {"per_event": [true]}}`, trace)
	p := filepath.Join(t.TempDir(), "small.json")
	if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ParseSpec([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

func TestExpandDeterministic(t *testing.T) {
	a, err := ParseSpec([]byte(`{"name":"x","traces":[{"log":"KTH"},{"log":"CTC"}],"policies":["EASY","EASY++","X2+"],
		"loads":[0.7,0.8],"predictor":{"window":["1-3"],"metric":["avg","min"],"correction":["estimate","gradual"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	// Same spec, other key order and layout, defaults written out.
	b, err := ParseSpec([]byte(`{"policies":["easy","easy++","x2+"],"name":"x","loads":[0.7,0.8],"seeds":[0],
		"predictor":{"correction":["estimate","gradual"],"metric":["avg","min"],"window":[1,2,3],"type":["all"]},
		"traces":[{"log":"kth"},{"name":"CTC","file":"CTC-SP2-1996-3.1-cln.swf.gz","machine":512}],
		"options":{"per_event":[false],"compat":["none"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if a.Hash() != b.Hash() {
		t.Errorf("same sweep, hashes %s and %s", a.Hash(), b.Hash())
	}
	ra, rb := a.Expand(), b.Expand()
	// 2 traces × 2 loads × (EASY + 2 history policies × 3·2·2 configurations).
	if want := 2 * 2 * (1 + 2*12); len(ra) != want {
		t.Fatalf("%d runs, want %d", len(ra), want)
	}
	if !slices.EqualFunc(ra, rb, func(x, y Run) bool {
		jx, _ := json.Marshal(x)
		jy, _ := json.Marshal(y)
		return bytes.Equal(jx, jy)
	}) {
		t.Error("the two spellings expand differently")
	}
	for i, r := range ra {
		if r.N != i {
			t.Fatalf("run %d numbered %d", i, r.N)
		}
	}
	// The documented order: trace, load, policy, then window fastest.
	if r := ra[1]; r.Trace != "KTH" || r.Load != 0.7 || r.Policy != "EASY++" || r.Predictor.Window != 1 {
		t.Errorf("run 1: %+v", r)
	}
	if r := ra[2]; r.Predictor.Window != 2 || r.Predictor.Metric != "avg" {
		t.Errorf("run 2: window %d metric %s, want 2 avg", r.Predictor.Window, r.Predictor.Metric)
	}
	if r := ra[4]; r.Predictor.Window != 1 || r.Predictor.Metric != "min" {
		t.Errorf("run 4: window %d metric %s, want 1 min", r.Predictor.Window, r.Predictor.Metric)
	}
	if r := ra[25]; r.Trace != "KTH" || r.Load != 0.8 || r.Policy != "EASY" {
		t.Errorf("run 25: %+v", r.Params)
	}
	c, _ := ParseSpec([]byte(`{"name":"x","traces":[{"log":"KTH"},{"log":"CTC"}],"policies":["EASY","EASY++","X2+"],
		"loads":[0.7,0.81],"predictor":{"window":["1-3"],"metric":["avg","min"],"correction":["estimate","gradual"]}}`))
	if c.Hash() == a.Hash() {
		t.Error("a changed load keeps the hash")
	}
	for _, bad := range []string{
		`{"traces":[{"log":"KTH"}],"policies":["EASY"]}`,
		`{"name":"x","traces":[{"log":"NOPE"}],"policies":["EASY"]}`,
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["NOPE"]}`,
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY"],"loads":[-1]}`,
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY"],"predictor":{"window":["5-2"]}}`,
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY"],"predictor":{"metric":["mode"]}}`,
		`{"name":"x","traces":[{"log":"KTH"}],"policies":["EASY"],"extra":1}`,
		`{"name":"a/b","traces":[{"log":"KTH"}],"policies":["EASY"]}`,
	} {
		if _, err := ParseSpec([]byte(bad)); err == nil {
			t.Errorf("no error for %s", bad)
		}
	}
}

func TestShardsPartition(t *testing.T) {
	var runs []Run
	for i := range 103 {
		runs = append(runs, Run{N: i})
	}
	for n := 1; n <= 9; n++ {
		seen := make([]int, len(runs))
		for i := range n {
			sh := Shard{i, n}
			for _, r := range sh.Select(runs) {
				seen[r.N]++
			}
			if got := len(sh.Select(runs)); got < len(runs)/n || got > len(runs)/n+1 {
				t.Errorf("shard %s: %d runs, unbalanced", sh, got)
			}
		}
		for k, c := range seen {
			if c != 1 {
				t.Fatalf("N=%d: run %d in %d shards", n, k, c)
			}
		}
	}
	// A count of shards above the runs any sweep can have: the count is
	// in every result file's name (0/9223372036854775807 with a 200-byte
	// sweep name made a name no file system holds).
	if _, err := ParseShard(fmt.Sprintf("0/%d", maxRuns)); err != nil {
		t.Errorf("0/%d: %v", maxRuns, err)
	}
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0", fmt.Sprintf("0/%d", maxRuns+1), "0/9223372036854775807"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q): no error", bad)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	cases := []struct {
		env    map[string]string
		shards int
		want   Shard
		err    string
	}{
		{nil, 0, Shard{0, 1}, ""},
		{nil, 4, Shard{}, "without a task index"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "7"}, 0, Shard{3, 8}, ""},
		// --array=1-8: the minimum is subtracted.
		{map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8"}, 0, Shard{0, 8}, ""},
		// A resubmission of task 5 alone with -shards: the ID is the shard.
		{map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "1", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_MAX": "5"}, 8, Shard{5, 8}, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_STEP": "2"}, 0, Shard{}, "not contiguous"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, 0, Shard{}, "SLURM_ARRAY_TASK_COUNT"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, 0, Shard{}, "not an integer"},
		{map[string]string{"JOB_COMPLETION_INDEX": "2"}, 5, Shard{2, 5}, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "2", "SWEEP_SHARDS": "3"}, 0, Shard{2, 3}, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "2"}, 0, Shard{}, "SWEEP_SHARDS"},
		{map[string]string{"JOB_COMPLETION_INDEX": "5", "SWEEP_SHARDS": "5"}, 0, Shard{}, "out of range"},
		{map[string]string{"PBS_ARRAY_INDEX": "4", "SWEEP_SHARDS": "4", "SWEEP_SHARD_MIN": "1"}, 0, Shard{3, 4}, ""},
		{map[string]string{"PBS_ARRAY_INDEX": "0"}, 2, Shard{0, 2}, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "SWEEP_SHARDS": "9223372036854775807"}, 0, Shard{}, "above the"},
		{map[string]string{"PBS_ARRAY_INDEX": "0"}, maxRuns + 1, Shard{}, "above the"},
	}
	for i, c := range cases {
		got, _, err := ShardFromEnv(func(k string) string { return c.env[k] }, c.shards)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("case %d: error %v, want one containing %q", i, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("case %d: %v", i, err)
		case c.err == "" && got != c.want:
			t.Errorf("case %d: shard %s, want %s", i, got, c.want)
		}
	}
}

// sweep runs the command and returns its exit status, stdout and stderr.
func sweep(t testing.TB, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runMain(context.Background(), args, func(k string) string { return env[k] }, &out, &errb)
	return code, out.String(), errb.String()
}

func mustRun(t testing.TB, args ...string) string {
	t.Helper()
	code, out, errs := sweep(t, nil, args...)
	if code != 0 {
		t.Fatalf("sweep %s: exit %d: %s", strings.Join(args, " "), code, errs)
	}
	return out
}

func read(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRunBytes: the same spec gives the same bytes with -j 1 and -j 4,
// across invocations, and shards merged give the single shard's bytes.
func TestRunBytes(t *testing.T) {
	spec, specPath := smallSpec(t, synthTrace(t, 600))
	n := len(spec.Expand())
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", a, "-j", "1")
	mustRun(t, "run", "-spec", specPath, "-out", b, "-j", "4")
	fa := read(t, filepath.Join(a, "small.shard-0-of-1.jsonl"))
	fb := read(t, filepath.Join(b, "small.shard-0-of-1.jsonl"))
	if !bytes.Equal(fa, fb) {
		t.Fatal("-j 1 and -j 4 give different bytes")
	}
	if got := bytes.Count(fa, []byte{'\n'}); got != n {
		t.Fatalf("%d lines, want %d", got, n)
	}
	var first Line
	if err := json.Unmarshal(fa[:bytes.IndexByte(fa, '\n')], &first); err != nil || first.Summary.Jobs < 590 || first.Summary.MeanWait <= 0 {
		t.Errorf("run 0 simulated %d jobs, mean wait %v (%v)", first.Summary.Jobs, first.Summary.MeanWait, err)
	}
	if bytes.Contains(fa, []byte("host")) || bytes.Contains(fa, []byte("wall")) {
		t.Error("result lines hold machine-dependent fields")
	}
	// Shards 0..2 of 3 (the third through the Slurm environment, flags after).
	mustRun(t, "run", "-spec", specPath, "-out", c, "-shard", "0/3", "-j", "2")
	mustRun(t, "run", "-spec", specPath, "-shard", "1/3", "-out", c)
	if code, _, errs := sweep(t, map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0"},
		"run", "-spec", specPath, "-out", c); code != 0 {
		t.Fatal(errs)
	}
	// -reuse: a spec with one more seed copies the 28 runs it shares and
	// simulates the others; the result equals a fresh run.
	bigger := writeTemp(t, strings.Replace(string(read(t, specPath)), `"seeds": [0, 7]`, `"seeds": [0, 3, 7]`, 1))
	r1, r2 := t.TempDir(), t.TempDir()
	out := mustRun(t, "run", "-spec", bigger, "-out", r1, "-reuse", a, "-json")
	mustRun(t, "run", "-spec", bigger, "-out", r2)
	var rs Sidecar
	if err := json.Unmarshal([]byte(out), &rs); err != nil || rs.Reused != n || rs.Ran != n*3/2 {
		t.Errorf("-reuse: %+v %v, want %d reused of %d", rs, err, n, n*3/2)
	}
	if !bytes.Equal(read(t, filepath.Join(r1, "small.shard-0-of-1.jsonl")), read(t, filepath.Join(r2, "small.shard-0-of-1.jsonl"))) {
		t.Error("-reuse gives other bytes than simulating")
	}
	merged := mustRun(t, "merge", c, "-spec", specPath) // flags after the argument
	if merged != string(fa) {
		t.Error("merged shards differ from the single shard")
	}
	// A separate invocation on one run from the merged file gives its bytes.
	var side Sidecar
	if err := json.Unmarshal(read(t, filepath.Join(c, "small.shard-2-of-3.jsonl.meta.json")), &side); err != nil {
		t.Fatal(err)
	}
	if side.ShardFrom != "SLURM_ARRAY_TASK_ID" || side.Ran != (n+0)/3 && side.Ran != n/3+1 {
		t.Errorf("sidecar: %+v", side)
	}
}

// TestResume: a shard file cut in the middle of a line is completed; the
// finished runs are not run again; the result is the uninterrupted bytes.
func TestResume(t *testing.T) {
	spec, specPath := smallSpec(t, synthTrace(t, 600))
	n := len(spec.Expand())
	a, b := t.TempDir(), t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", a)
	full := read(t, filepath.Join(a, "small.shard-0-of-1.jsonl"))
	// Ten whole lines and half of the eleventh.
	cut := 0
	for range 10 {
		cut += bytes.IndexByte(full[cut:], '\n') + 1
	}
	cut += 40
	pb := filepath.Join(b, "small.shard-0-of-1.jsonl")
	if err := os.WriteFile(pb, full[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	// merge reports the truncated line.
	if code, _, errs := sweep(t, nil, "merge", "-spec", specPath, b); code != 1 || !strings.Contains(errs, "truncated") {
		t.Errorf("merge of a truncated file: exit %d, %s", code, errs)
	}
	out := mustRun(t, "run", "-spec", specPath, "-out", b, "-json")
	var side Sidecar
	if err := json.Unmarshal([]byte(out), &side); err != nil {
		t.Fatal(err)
	}
	if side.Skipped != 10 || side.Ran != n-10 {
		t.Errorf("skipped %d ran %d, want 10 and %d", side.Skipped, side.Ran, n-10)
	}
	if !bytes.Equal(read(t, pb), full) {
		t.Error("resumed file differs from an uninterrupted run")
	}
	// Running again does nothing.
	out = mustRun(t, "run", "-spec", specPath, "-out", b, "-json")
	if err := json.Unmarshal([]byte(out), &side); err != nil || side.Ran != 0 || side.Skipped != n {
		t.Errorf("second resume: %+v %v", side, err)
	}
	// Another spec's file in the way is refused.
	other := strings.Replace(string(read(t, specPath)), `[0, 0.9]`, `[0, 0.8]`, 1)
	op := filepath.Join(t.TempDir(), "small.json")
	os.WriteFile(op, []byte(other), 0o644)
	if code, _, errs := sweep(t, nil, "run", "-spec", op, "-out", b); code != 1 || !strings.Contains(errs, "from spec") {
		t.Errorf("resume over another spec's file: exit %d, %s", code, errs)
	}
}

// TestMergeRefuses: missing, duplicated and mismatched runs.
func TestMergeRefuses(t *testing.T) {
	_, specPath := smallSpec(t, synthTrace(t, 300))
	d := t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", d, "-shard", "0/2")
	mustRun(t, "run", "-spec", specPath, "-out", d, "-shard", "1/2")
	mustRun(t, "merge", "-spec", specPath, d)
	f0 := filepath.Join(d, "small.shard-0-of-2.jsonl")
	shard0 := read(t, f0)

	check := func(name, want string, args ...string) {
		t.Helper()
		code, _, errs := sweep(t, nil, append([]string{"merge", "-spec", specPath}, args...)...)
		if code != 1 || !strings.Contains(errs, want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", name, code, errs, want)
		}
	}
	// Missing: shard 1 alone.
	check("missing", "runs missing: 0, 2, 4", filepath.Join(d, "small.shard-1-of-2.jsonl"))
	// Duplicated: shard 0 given twice.
	dup := filepath.Join(t.TempDir(), "copy.jsonl")
	os.WriteFile(dup, shard0, 0o644)
	check("duplicate", "run 0 duplicated", d, dup)
	// Mismatched: another spec's results.
	other := strings.Replace(string(read(t, specPath)), `"seeds": [0, 7]`, `"seeds": [0, 8]`, 1)
	op := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(op, []byte(other), 0o644)
	od := t.TempDir()
	mustRun(t, "run", "-spec", op, "-out", od, "-shard", "0/2")
	check("mismatch", "belongs to spec", filepath.Join(d, "small.shard-1-of-2.jsonl"), od)
	// A line whose parameters are not the spec's for its number.
	bad := bytes.Replace(shard0, []byte(`"policy":"EASY"`), []byte(`"policy":"SJF"`), 1)
	bd := t.TempDir()
	os.WriteFile(filepath.Join(bd, "a.jsonl"), bad, 0o644)
	check("params", "has parameters", bd, filepath.Join(d, "small.shard-1-of-2.jsonl"))
}

// TestMergeSharedOut: two specs run with the same -out (run's default,
// results) are merged and reported one by one. A user ran table48 and
// fig43 into results and saw "report -spec fig43.json results" fail on
// every line of table48's shard file.
func TestMergeSharedOut(t *testing.T) {
	_, specPath := smallSpec(t, synthTrace(t, 300))
	d := t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", d)
	other := strings.Replace(string(read(t, specPath)), `"name": "small"`, `"name": "other"`, 1)
	other = strings.Replace(other, `"seeds": [0, 7]`, `"seeds": [0, 8]`, 1)
	op := filepath.Join(t.TempDir(), "other.json")
	os.WriteFile(op, []byte(other), 0o644)
	mustRun(t, "run", "-spec", op, "-out", d)
	for _, sp := range []string{specPath, op} {
		if code, _, errs := sweep(t, nil, "merge", "-spec", sp, d); code != 0 {
			t.Errorf("merge -spec %s %s: exit %d, stderr %q", filepath.Base(sp), d, code, errs)
		}
		if code, _, errs := sweep(t, nil, "report", "-spec", sp, d); code != 0 {
			t.Errorf("report -spec %s %s: exit %d, stderr %q", filepath.Base(sp), d, code, errs)
		}
	}
	// What is left out is only another spec's: a shard file of this
	// spec's name from another hash (an edited spec run with another
	// shard count) still fails the merge, naming the file.
	stale := filepath.Join(d, "small.shard-1-of-3.jsonl")
	os.WriteFile(stale, read(t, filepath.Join(d, "other.shard-0-of-1.jsonl")), 0o644)
	if code, _, errs := sweep(t, nil, "merge", "-spec", specPath, d); code != 1 || !strings.Contains(errs, stale+":1: run 0 belongs to spec") {
		t.Errorf("merge with %s: exit %d, stderr %q; want 1 naming it", stale, code, errs)
	}
	os.Remove(stale)
	// A spec renamed after its run finds none of its files: the error
	// says which were left out (it said only "no *.jsonl result files").
	renamed := filepath.Join(t.TempDir(), "renamed.json")
	os.WriteFile(renamed, []byte(strings.Replace(string(read(t, specPath)), `"name": "small"`, `"name": "small2"`, 1)), 0o644)
	if code, _, errs := sweep(t, nil, "merge", "-spec", renamed, d); code != 1 ||
		!strings.Contains(errs, d+": no result files of spec small2 (other specs' shard files left out: other, small)") {
		t.Errorf("merge -spec small2: exit %d, stderr %q; want 1 naming the files left out", code, errs)
	}
	// Runs missing with files left out: the error names them too.
	own := filepath.Join(d, "small.shard-0-of-1.jsonl")
	lines := bytes.SplitAfter(read(t, own), []byte("\n"))
	os.WriteFile(own, bytes.Join(lines[:10], nil), 0o644)
	if code, _, errs := sweep(t, nil, "report", "-spec", specPath, d); code != 1 || !strings.Contains(errs, "18 of 28 runs missing") ||
		!strings.Contains(errs, "; other specs' shard files left out: other)") {
		t.Errorf("report with 10 of small's runs: exit %d, stderr %q", code, errs)
	}
}

func TestCommandLine(t *testing.T) {
	_, specPath := smallSpec(t, synthTrace(t, 100))
	// Flags after the arguments, list, slurm.
	out := mustRun(t, "list", "-spec", specPath)
	if !strings.HasPrefix(out, "# small: 28 runs") {
		t.Errorf("list: %q", out[:min(len(out), 80)])
	}
	out = mustRun(t, "slurm", "-spec", specPath, "-runs-per-task", "5", "-throttle", "3")
	for _, want := range []string{"#SBATCH --array=0-5%3", "-shards 6", "run -spec"} {
		if !strings.Contains(out, want) {
			t.Errorf("slurm script lacks %q:\n%s", want, out)
		}
	}
	for _, c := range []struct {
		code int
		want string
		args []string
	}{
		{2, "unknown command", []string{"frobnicate"}},
		{2, "-spec FILE is required", []string{"run"}},
		{2, "flag provided but not defined", []string{"run", "-spec", specPath, "-nope"}},
		{2, "-shard", []string{"run", "-spec", specPath, "-shard", "2/2"}},
		{2, "give the result directories", []string{"merge", "-spec", specPath}},
		{1, "no such file", []string{"merge", "-spec", specPath, "/nonexistent/dir"}},
		{1, "no such file", []string{"list", "-spec", "/nonexistent/spec.json"}},
		{1, "unknown policy", []string{"list", "-spec", writeTemp(t, `{"name":"x","traces":[{"log":"KTH"}],"policies":["nope"]}`)}},
		{1, "trace synth", []string{"run", "-spec", writeTemp(t, `{"name":"x","traces":[{"name":"synth","file":"/nonexistent.swf","machine":4}],"policies":["EASY"]}`), "-out", t.TempDir()}},
	} {
		code, _, errs := sweep(t, nil, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	if code, out, _ := sweep(t, nil, "run", "-help"); code != 0 || !strings.Contains(out, "-shard") {
		t.Errorf("run -help: %d %q", code, out)
	}
}

func writeTemp(t testing.TB, s string) string {
	p := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadme regenerates the README's tables from the committed results
// (testdata: merged with -trim) and compares them with the README regions.
// Regenerate with: go run ./examples/sweep report -spec specs/NAME.json
// -readme examples/sweep/README.md testdata/NAME.jsonl.gz
func TestReadme(t *testing.T) {
	doc := read(t, "README.md")
	for _, name := range []string{"table48", "table410", "fig43", "study"} {
		spec, err := ReadSpec(filepath.Join("specs", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		got, err := readme.Region(doc, name)
		if err != nil {
			t.Fatalf("README.md: %v", err)
		}
		data := filepath.Join("testdata", name+".jsonl.gz")
		if _, err := os.Stat(data); err != nil && len(got) == 0 {
			t.Logf("%s: no results committed and an empty README region", name)
			continue
		}
		byRun, err := loadComplete(spec, []string{data})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		lines := make([]Line, len(byRun))
		for i, l := range byRun {
			lines[i] = l.line
		}
		var buf bytes.Buffer
		if err := report(&buf, spec, lines); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("README.md region %s differs from the report of testdata/%s.jsonl.gz; regenerate with report -readme", name, name)
		}
	}
}

// TestCommittedResults re-runs KTH's runs of Tables 4.8, 4.10 and 4.11,
// and every 211th KTH run of the parameter study (41 of its 8,640), on the
// real trace and compares them, trimmed, with the committed lines byte for
// byte.
func TestCommittedResults(t *testing.T) {
	tracetest.Path(t, tracetest.KTH)
	for _, c := range []struct {
		name   string
		stride int
	}{{"table48", 1}, {"table410", 1}, {"study", 211}} {
		name := c.name
		spec, err := ReadSpec(filepath.Join("specs", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		byRun, err := loadComplete(spec, []string{filepath.Join("testdata", name+".jsonl.gz")})
		if err != nil {
			t.Fatal(err)
		}
		var kth []Run
		for _, r := range spec.Expand() {
			if r.Trace == "KTH" && r.N%c.stride == 0 {
				kth = append(kth, r)
			}
		}
		cache := newTraceCache("", kth)
		for _, r := range kth {
			b, err := simulateRun(context.Background(), cache, spec.Hash(), r)
			if err != nil {
				t.Fatal(err)
			}
			var l Line
			if err := json.Unmarshal(b, &l); err != nil {
				t.Fatal(err)
			}
			if got, want := trim(l), byRun[r.N].raw; !bytes.Equal(got, want) {
				t.Errorf("%s run %d (%s %s):\n got %s\nwant %s", name, r.N, r.Trace, r.Policy, got, want)
			}
		}
	}
}

// TestStudyReport runs a miniature parameter study on two synthetic logs
// and checks the report's tables.
func TestStudyReport(t *testing.T) {
	tr := synthTrace(t, 400)
	specPath := writeTemp(t, fmt.Sprintf(`{"name": "mini", "report": "study",
		"traces": [{"name": "A", "file": %q, "machine": 64}, {"name": "B", "file": %q, "machine": 48}],
		"policies": ["EASY++"], "options": {"per_event": [true]},
		"predictor": {"window": [1, 2, 11], "type": ["all", "immediate"], "correction": ["estimate", "gradual"], "partial": [false, true], "propagate": [false, true]}}`, tr, tr))
	d := t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", d)
	out := mustRun(t, "report", "-spec", specPath, d)
	if os.Getenv("SWEEP_SHOW") != "" {
		t.Log(out)
	}
	for _, want := range []string{"48 configurations × 2 logs", "#### Table 4.12", "| 1 / 1 |", "/ 8640 |", "#### Table 4.13", "| average |", "#### Table 4.9", "The EASY++ default (2, all, full, avg, est, no, estimate): our rank", "rank 1 (11, all, partial, avg, est, yes, estimate): our rank",
		"- Our rank 1 ranges from", "- Bottom 30% (15): ", "#### Figure 1.19", "| 11 |", "Least-squares slope over all configurations"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	fig := t.TempDir()
	mustRun(t, "report", "-spec", specPath, "-plot", fig, d)
	for _, f := range []string{"fig119.png", "fig119.svg"} {
		if st, err := os.Stat(filepath.Join(fig, f)); err != nil || st.Size() < 1000 {
			t.Errorf("-plot: %s: %v", f, err)
		}
	}
}

// TestWindowTable checks Figure 1.19's numbers on configurations whose
// degradation is a known function of the window size.
func TestWindowTable(t *testing.T) {
	var cfgs []config
	for _, n := range []int{1, 2, 4} {
		cfgs = append(cfgs,
			config{PredictorParams: PredictorParams{Window: n, Type: "all"}, degr: 10 * float64(n)},
			config{PredictorParams: PredictorParams{Window: n, Type: "immediate"}, degr: 5 * float64(n)})
	}
	var b strings.Builder
	windowTable(&b, cfgs)
	for _, want := range []string{"| 1 | 7.5% | 10.0% | 5.0% | ? |", "| 4 | 30.0% | 40.0% | 20.0% | ? |", "slope over all configurations: +7.50 points", "Size 1 7.5%, size 2 15.0%"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("lacks %q:\n%s", want, b.String())
		}
	}
}

func TestCLI(t *testing.T) {
	_, specPath := smallSpec(t, synthTrace(t, 50))
	missing := filepath.Join(t.TempDir(), "nope.json")
	clitest.Run(t, clitest.Command{Run: run,
		JSON:    []string{"list", "-spec", specPath, "-json"},
		Missing: []string{"list", "-spec", missing}, File: missing})
	// Flags after the arguments: report DIR -json.
	dir := t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", dir, "-j", "1")
	r := clitest.Exec(run, "", "report", dir, "-spec", specPath, "-json")
	if r.Code != 0 {
		t.Fatalf("report DIR -spec F -json: exit %d: %s", r.Code, r.Stderr)
	}
	if err := clitest.CheckJSON(r.Stdout); err != nil {
		t.Errorf("report -json: %v", err)
	}
}

// TestNegativeNumberHint: every subcommand says what a negative number
// taken for a flag needs, as the other commands' ParseArgs does (sweep's
// own flag sets said only "flag provided but not defined: -5").
func TestNegativeNumberHint(t *testing.T) {
	for _, sub := range []string{"list", "run", "merge", "report", "slurm"} {
		code, _, errs := sweep(t, nil, sub, "-5")
		if code != 2 || !strings.Contains(errs, sub+": flag provided but not defined: -5; a negative number as an argument: put -- before the arguments") {
			t.Errorf("%s -5: exit %d, %q", sub, code, errs)
		}
	}
}
