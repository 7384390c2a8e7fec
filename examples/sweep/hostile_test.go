package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
)

// The plain report (a spec without "report") shows each run's simulated,
// averaged and rejected jobs, and a run that averaged no job (every line
// of a log rejected, here 375 of 376 under one job number) has no
// figures: "–", said under the table, not a mean wait of 0.0 read as a
// result.
func TestPlainReportDegenerate(t *testing.T) {
	lines := []Line{
		{Run: 0, Params: Params{Trace: "dupid", Policy: "EASY"}, Summary: Metrics{Jobs: 1, Included: 0, Rejected: 375}},
		{Run: 1, Params: Params{Trace: "kth", Policy: "EASY"}, Summary: Metrics{Jobs: 376, Included: 365, MeanWait: 2913, MeanBSLD: 51.1, Accuracy: 0.336}},
	}
	var b bytes.Buffer
	if err := report(&b, &Spec{Name: "x"}, lines); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rows := strings.Split(out, "\n")
	if !strings.Contains(out, "| jobs | averaged | rejected |") {
		t.Errorf("no job columns:\n%s", out)
	}
	if r := rows[2]; !strings.Contains(r, "| 1 | 0 | 375 | – | – | – |") {
		t.Errorf("degenerate run's row %q, want its counts and – figures", r)
	}
	if r := rows[3]; !strings.Contains(r, "| 376 | 365 | 0 | 49 | 51 | 34 |") {
		t.Errorf("row %q", r)
	}
	if !strings.Contains(out, "run 0 averaged no job") {
		t.Errorf("no note on run 0:\n%s", out)
	}
}

// A run of a peer mode on a log without estimates (NASA-iPSC, SDSC-Par,
// OSC-Clust) runs every job 1 second: wait 0.0 and bsld 1.0 in the
// table, with only the rule counts below to tell. The report names such
// runs degenerate, as simulate does, by the same rule (cli.MostlyChanged:
// a rule that fills a size from the same line does not count), and so a
// run that lost most lines, or used the machine near 0.
func TestPlainReportDegenerateRules(t *testing.T) {
	lines := []Line{
		{Run: 0, Params: Params{Trace: "nasa", Policy: "EASY", Compat: "pyss"}, Summary: Metrics{Jobs: 100, Included: 98, MeanBSLD: 1, Utilization: 0.0004,
			Changed: map[string]int{"no_estimate_1s_run": 99, "zero_run_time_1s_job": 1}}},
		{Run: 1, Params: Params{Trace: "nasa", Policy: "EASY++", Compat: "pyss"}, Summary: Metrics{Jobs: 100, Included: 98, MeanBSLD: 1, Utilization: 0.0004,
			Changed: map[string]int{"no_estimate_1s_run": 99, "zero_run_time_1s_job": 1}}},
		{Run: 2, Params: Params{Trace: "kth", Policy: "EASY", Compat: "predictsim"}, Summary: Metrics{Jobs: 100, Included: 98, MeanWait: 600, MeanBSLD: 9, Utilization: 0.6,
			Changed: map[string]int{"size_from_allocated": 100, "run_cut_to_estimate": 3}}},
		{Run: 3, Params: Params{Trace: "llnl", Policy: "EASY"}, Summary: Metrics{Jobs: 40, Included: 39, MeanWait: 60, MeanBSLD: 2, Utilization: 0.5, Rejected: 60}},
		// Lines of partial executions (a checkpointed log's) are not
		// jobs: 60 of them beside 40 jobs is no rejected majority.
		{Run: 4, Params: Params{Trace: "ckpt", Policy: "EASY"}, Summary: Metrics{Jobs: 40, Included: 39, MeanWait: 60, MeanBSLD: 2, Utilization: 0.5, Rejected: 61,
			RejectedBy: map[string]int{partialKey: 60, "no_size": 1}}},
	}
	var b bytes.Buffer
	if err := report(&b, &Spec{Name: "x"}, lines); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"\nruns 0-1 degenerate, their figures reflect the job-building rules more than the log: most jobs changed by rule no_estimate_1s_run; utilization 0.000\n",
		"\nrun 3 degenerate, their figures reflect the job-building rules more than the log: most jobs rejected\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "run 4 degenerate") || strings.Contains(out, "runs 3-4") {
		t.Errorf("run 4 (partial lines rejected, not jobs) called degenerate:\n%s", out)
	}
	if k := cli.ReasonKeys(map[string]int{sanitize.PartialExecution.String(): 1}); k[partialKey] != 1 {
		t.Errorf("partialKey %q is not the key of %q: %v", partialKey, sanitize.PartialExecution, k)
	}
	if strings.Contains(out, "run 2 degenerate") || strings.Contains(out, "runs 2") {
		t.Errorf("run 2 (sizes from field 5, the same line) called degenerate:\n%s", out)
	}
}

// A thesis table (table48, table410, fig43) shows the first run of each
// thesis log, policy and load. A spec of table48 over held-out logs
// printed an empty table with "?" averages (0/0), exit 0; runs of other
// logs, or repeating a run with other options (kill, compat), were left
// out without a word. Now the first is an error and the others are named.
func TestThesisTableNotShown(t *testing.T) {
	spec, err := ReadSpec(filepath.Join("specs", "table48.json"))
	if err != nil {
		t.Fatal(err)
	}
	byRun, err := loadComplete(spec, []string{filepath.Join("testdata", "table48.jsonl.gz")})
	if err != nil {
		t.Fatal(err)
	}
	var lines []Line
	for _, l := range byRun {
		lines = append(lines, l.line)
	}
	n := len(lines)
	x2 := slices.IndexFunc(lines, func(l Line) bool { return l.Params.Policy == "X2" })
	nasa, again, scaled := lines[x2], lines[x2], lines[x2]
	nasa.Run, nasa.Params.Trace = n, "NASA"
	again.Run, again.Params.Kill = n+1, true
	scaled.Run, scaled.Params.Load = n+2, 0.9
	var b bytes.Buffer
	if err := report(&b, spec, append(lines, nasa, again, scaled)); err != nil {
		t.Fatal(err)
	}
	var easy []int // the spec's EASY runs, which table48 does not read either
	for _, l := range lines {
		if l.Params.Policy == "EASY" {
			easy = append(easy, l.Run)
		}
	}
	for _, want := range []string{
		fmt.Sprintf("\nrun %d not in the table: table48 compares the thesis's logs (SDSC, CTC, KTH, BLUE) only; a spec without \"report\" gives one row per run.\n", n),
		fmt.Sprintf("\nrun %d not in the table: each repeats an earlier run's log, policy and load with other options, and the table shows the first.\n", n+1),
		fmt.Sprintf("\nruns %s not in the table: table48 reads X2, X2+, X2_perf, X2++, X2++_perf, SJF, SJF+, SJF_perf at the log's own load only.\n", runRanges(append(easy, n+2))),
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	for i := range lines {
		lines[i].Params.Trace = "NASA"
	}
	if err := report(&b, spec, lines); err == nil || !strings.Contains(err.Error(), "no run of X2 on any of the thesis's logs") {
		t.Errorf("table48 of held-out logs only: %v, want an error; printed:\n%s", err, b.String())
	}
}

// A parameter study over a log where every job starts at once under the
// best configuration (-compat pyss on NASA-iPSC: every job runs 1 second)
// has a test case whose best mean wait is 0: its degradation 100·P/0 was
// NaN, printed "NaN%" and ranked by. The case is left out and named; with
// no case left the report is an error.
func TestStudyZeroBest(t *testing.T) {
	var lines []Line
	for _, w := range []int{1, 2} {
		for _, tr := range []struct {
			name       string
			wait, bsld float64
		}{{"NASA", 0, 1}, {"KTH", 600 * float64(w), 10 * float64(w)}} {
			lines = append(lines, Line{Run: len(lines), Params: Params{Trace: tr.name, Policy: "EASY++",
				Predictor: &PredictorParams{Window: w, Type: "all", Metric: "avg", Fallback: "estimate", Correction: "estimate"}},
				Summary: Metrics{Jobs: 10, Included: 10, MeanWait: tr.wait, MeanBSLD: tr.bsld}})
		}
	}
	var b bytes.Buffer
	if err := report(&b, &Spec{Name: "x", Report: "study"}, lines); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
		t.Errorf("NaN or Inf in the report:\n%s", out)
	}
	for _, want := range []string{
		"2 configurations × 2 logs (NASA, KTH); 3 test cases",
		"Left out: 1 test cases whose best value is 0, where no degradation is defined (NASA wait).",
		"| 1 / 1 | 0.00% | 1 |", "| 2 / 2 | 66.67% | 2 |", // KTH wait +100%, bsld +100%, NASA bsld 0: (100+0+100)/3
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// One log, every wait and bsld 0 (as no run writes a bsld below 1,
	// the bsld case is only a guard).
	lines = nil
	for i, w := range []int{1, 2} {
		lines = append(lines, Line{Run: i, Params: Params{Trace: "NASA", Policy: "EASY++",
			Predictor: &PredictorParams{Window: w, Type: "all", Metric: "avg", Fallback: "estimate", Correction: "estimate"}},
			Summary: Metrics{Jobs: 10, Included: 10}})
	}
	b.Reset()
	if err := report(&b, &Spec{Name: "x", Report: "study"}, lines); err == nil || !strings.Contains(err.Error(), "every test case's best value is 0 (NASA wait, NASA bsld)") {
		t.Errorf("every best 0: %v, want an error; printed:\n%s", err, b.String())
	}
}

// A load to scale to needs the log's offered load, that of its own
// schedule (S8), which a log without waits (NASA-iPSC, LLNL-Atlas) lacks.
// The error said only that it could not be computed; it now says why,
// with the count.
func TestLoadNoWaits(t *testing.T) {
	b, err := os.ReadFile(synthTrace(t, 50))
	if err != nil {
		t.Fatal(err)
	}
	var noWait strings.Builder
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 18 {
			f[2] = "-1" // the wait
			line = strings.Join(f, " ") + "\n"
		}
		noWait.WriteString(line)
	}
	trace := filepath.Join(t.TempDir(), "nowait.swf")
	if err := os.WriteFile(trace, []byte(noWait.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(t.TempDir(), "s.json")
	js := fmt.Sprintf(`{"name": "nw", "traces": [{"name": "nowait", "file": %q}], "policies": ["EASY"], "loads": [0.9]}`, trace)
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := sweep(t, nil, "run", "-spec", spec, "-out", t.TempDir())
	if want := "trace nowait: cannot compute its offered load to scale to 0.9: 50 of its 50 jobs have no logged wait, run time or size"; code == 0 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, %q; want an error with %q", code, errs, want)
	}
}

// merge -o naming one of its inputs (or the spec) truncated it before
// reading it; it is a usage error and the shard is left as it was.
func TestMergeOutIsInput(t *testing.T) {
	_, specPath := smallSpec(t, synthTrace(t, 300))
	d := t.TempDir()
	mustRun(t, "run", "-spec", specPath, "-out", d)
	f := filepath.Join(d, "small.shard-0-of-1.jsonl")
	before := read(t, f)
	for _, out := range []string{f, specPath} {
		code, _, errs := sweep(t, nil, "merge", "-spec", specPath, "-o", out, f)
		if code != 2 || !strings.Contains(errs, "would overwrite it") {
			t.Errorf("-o %s: exit %d, %q; want 2 naming the input", out, code, errs)
		}
	}
	if !bytes.Equal(read(t, f), before) {
		t.Error("the shard changed")
	}
	// Nor into a directory merged, as a result file: the next report
	// read every run twice ("run 0 duplicated"), and another spec's
	// refused every line.
	in := filepath.Join(d, ".", "small.jsonl")
	if code, _, errs := sweep(t, nil, "merge", "-spec", specPath, "-o", in, d); code != 2 || !strings.Contains(errs, "-o "+in+": in "+d) {
		t.Errorf("-o %s: exit %d, %q; want 2 naming the directory", in, code, errs)
	}
	if _, err := os.Stat(in); err == nil {
		t.Errorf("%s written", in)
	}
	mustRun(t, "merge", "-spec", specPath, "-o", filepath.Join(d, "small.txt"), d)
	mustRun(t, "report", "-spec", specPath, d)
}

// -j starts that many goroutines before the first run: -j 10000000 took
// 23 GB for a 12-run sweep. Above 4096 it is a usage error, and no more
// workers start than there are runs.
func TestWorkersBounded(t *testing.T) {
	_, specPath := smallSpec(t, synthTrace(t, 300))
	if code, _, errs := sweep(t, nil, "run", "-spec", specPath, "-out", t.TempDir(), "-j", "5000"); code != 2 || !strings.Contains(errs, "-j 5000: want 1 to 4096") {
		t.Errorf("-j 5000: exit %d, %q; want 2 naming the bound", code, errs)
	}
	mustRun(t, "run", "-spec", specPath, "-out", t.TempDir(), "-j", "4096")
}

// A trace without job lines (a header only, or an empty file with the
// spec's machine) is an error naming it, as simulate, swfstat and forecast
// make it; sweep run wrote its runs with 0 jobs, exit 0, and the report
// said every job was rejected or excluded.
func TestRunNoJobLines(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"header.swf": "; MaxProcs: 64\n", "empty.swf": ""} {
		trace := filepath.Join(dir, name)
		if err := os.WriteFile(trace, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		spec := filepath.Join(dir, "s.json")
		js := `{"name": "x", "traces": [{"name": "t", "file": "` + trace + `", "machine": 64}], "policies": ["EASY"]}`
		if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := sweep(t, nil, "run", "-spec", spec, "-out", filepath.Join(dir, "out-"+name))
		if code != 1 || !strings.Contains(errs, name+": no job lines") {
			t.Errorf("%s: exit %d, stderr %q; want 1 naming no job lines", name, code, errs)
		}
	}
}

// A header machine size sched refuses (above 2^40 processors) is an error
// naming the trace and its file: it was "run 1: sched: MachineSize
// 9223372036854775807 above 2^40", naming neither.
func TestRunHugeHeaderMachine(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "huge.swf")
	if err := os.WriteFile(trace, []byte("; MaxProcs: 9223372036854775807\n1 0 0 60 1 -1 -1 1 60 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "s.json")
	js := `{"name": "x", "traces": [{"name": "t", "file": "` + trace + `", "machine": 0}], "policies": ["EASY"]}`
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := sweep(t, nil, "run", "-spec", spec, "-out", filepath.Join(dir, "out"))
	if code != 1 || !strings.Contains(errs, "trace t: "+trace+": machine size 9223372036854775807 above 2^40 processors") {
		t.Errorf("exit %d, stderr %q; want 1 naming trace t, its file and the size", code, errs)
	}
}

// A run's line counts its rejected jobs by reason and the jobs each
// job-building rule changed, as simulate -json does, and the plain report
// says them under the table; a line held the rejected total only.
func TestRunReasons(t *testing.T) {
	dir := t.TempDir()
	spec := easySpec(t, dir, "; MaxProcs: 8\n"+
		"1 0 0 100 1 -1 -1 1 200 -1 1 1 1 1 1 -1 -1 -1\n"+
		"2 10 0 100 -1 -1 -1 -1 200 -1 1 1 1 1 1 -1 -1 -1\n"+ // no size: rejected
		"3 20 0 100 2 -1 -1 2 -1 -1 1 1 1 1 1 -1 -1 -1\n") // no estimate: filled
	out := filepath.Join(dir, "out")
	mustRun(t, "run", "-spec", spec, "-out", out)
	line := string(read(t, filepath.Join(out, "x.shard-0-of-1.jsonl")))
	for _, want := range []string{`"rejected":1,`, `"rejected_by":{"no_size":1}`, `"changed":{"estimate_filled":1}`} {
		if !strings.Contains(line, want) {
			t.Errorf("result line lacks %s: %s", want, line)
		}
	}
	rep := mustRun(t, "report", "-spec", spec, out)
	for _, want := range []string{"run 0 rejected: no_size 1", "run 0 changed by rules: estimate_filled 1"} {
		if !strings.Contains(rep, want) {
			t.Errorf("report lacks %q:\n%s", want, rep)
		}
	}
	// Runs with the same counts are said once, their numbers as ranges.
	var b strings.Builder
	lines := []Line{{Run: 0}, {Run: 1}, {Run: 2}, {Run: 3}, {Run: 5}, {Run: 6}}
	for i := range lines {
		lines[i].Summary.RejectedBy = map[string]int{"no_size": 1}
	}
	lines[3].Summary.RejectedBy["duplicate_id"] = 2
	reasons(&b, lines)
	if want := "\nruns 0-2, 5-6 rejected: no_size 1\nrun 3 rejected: duplicate_id 2, no_size 1\n"; b.String() != want {
		t.Errorf("reasons:\n%q, want\n%q", b.String(), want)
	}
}

// Odd spec files: one saved with a byte order mark is read (it was
// "invalid character 'ï'"), an empty one says so (it was "spec: EOF"),
// and a name too long for the file names it gives is refused with the
// name clipped (it failed at the first write, in an error line as long
// as the name).
func TestSpecOddFiles(t *testing.T) {
	const body = `{"name":%q,"traces":[{"log":"KTH"}],"policies":["EASY"]}`
	if _, err := ParseSpec([]byte("\ufeff" + fmt.Sprintf(body, "x"))); err != nil {
		t.Errorf("spec with a byte order mark: %v", err)
	}
	for _, in := range []string{"", " \n\t"} {
		if _, err := ParseSpec([]byte(in)); err == nil || !strings.Contains(err.Error(), "empty") {
			t.Errorf("%q: %v, want an error saying the file is empty", in, err)
		}
	}
	_, err := ParseSpec([]byte(fmt.Sprintf(body, strings.Repeat("x", 100000))))
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "at most 200") {
		t.Errorf("a name of 100000 bytes: %.300v, want a short error", err)
	}
	if _, err := ParseSpec([]byte(fmt.Sprintf(body, strings.Repeat("x", 200)))); err != nil {
		t.Errorf("a name of 200 bytes: %v", err)
	}
}

// A trace whose machine size comes from its header (spec "machine"
// left out, 0) was described as "P=0", a machine of no processor, in
// the run list and the report's table.
func TestDescribeHeaderMachine(t *testing.T) {
	p := Params{Trace: "kth", Policy: "easy"}
	if d := p.describe(); strings.Contains(d, "P=0") || !strings.Contains(d, "P=header's") {
		t.Errorf("machine 0: %q", d)
	}
	p.Machine = 128
	if d := p.describe(); !strings.Contains(d, "P=128 ") {
		t.Errorf("machine 128: %q", d)
	}
}

// A job of size 2^63 − 1 (a corrupt field; sched rejects it) is left out of
// the offered load a load is scaled from: it made the load about 10^16 and
// the scaled arrivals left ±2^62 s ("load: job 16: submit time 600022
// scaled by 8.9e+16"), failing every run with a load. A log whose offered
// load is 0 (every run time 0) says so: the error said "0 of its 50 jobs
// have no logged wait, run time or size".
func TestLoadOfHostileLogs(t *testing.T) {
	b, err := os.ReadFile(synthTrace(t, 50))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(name string, f func(i int, fields []string)) string {
		var out strings.Builder
		i := 0
		for _, line := range strings.SplitAfter(string(b), "\n") {
			if fs := strings.Fields(line); len(fs) == 18 {
				f(i, fs)
				i++
				line = strings.Join(fs, " ") + "\n"
			}
			out.WriteString(line)
		}
		path := filepath.Join(t.TempDir(), name+".swf")
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	for _, c := range []struct {
		name     string
		edit     func(i int, f []string)
		code     int
		want     string
		rejected string // the reason sched counts the out-of-range job by
	}{
		{"hugesize", func(i int, f []string) {
			if i%10 == 3 {
				f[4], f[7] = "9223372036854775807", "9223372036854775807"
			}
		}, 0, "", `"larger_than_machine":5`},
		// a submit time of 2^63 − 1 scaled with the rest left ±2^62 s and
		// failed every run with a load ("load: job 18: submit time
		// 9223372036854775807 scaled by 1.47 …")
		{"hugesubmit", func(i int, f []string) {
			if i == 17 {
				f[1] = "9223372036854775807"
			}
		}, 0, "", `"time_out_of_range":1`},
		{"allhuge", func(_ int, f []string) { f[4], f[7] = "9223372036854775807", "9223372036854775807" }, 1,
			"trace allhuge: cannot compute its offered load to scale to 0.9: every one of its 50 jobs has a size past 2^40", ""},
		{"runzero", func(_ int, f []string) { f[3] = "0" }, 1, "trace runzero: cannot compute its offered load to scale to 0.9: it is 0 (every run time 0", ""},
		// every job submitted at one instant, one without a wait: the error
		// blamed the one ("1 of its 50 jobs have no logged wait")
		{"oneinstant", func(i int, f []string) {
			f[1] = "0"
			if i == 7 {
				f[2] = "-1"
			}
		}, 1, "trace oneinstant: cannot compute its offered load to scale to 0.9: it is 0 (every run time 0, or every job submitted at one instant: the log's own schedule, S8, holds no processor-second between the warm-up and the last arrival; 49 of its 50 jobs measured", ""},
	} {
		trace := edit(c.name, c.edit)
		spec := filepath.Join(t.TempDir(), "s.json")
		js := fmt.Sprintf(`{"name": "h", "traces": [{"name": %q, "file": %q}], "policies": ["EASY"], "loads": [0.9]}`, c.name, trace)
		if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		code, _, errs := sweep(t, nil, "run", "-spec", spec, "-out", out)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.name, code, errs, c.code, c.want)
		}
		if c.code == 0 {
			// the job left out of the load is still sched's to reject and count
			var all strings.Builder
			filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					b, _ := os.ReadFile(path)
					all.Write(b)
				}
				return nil
			})
			if !strings.Contains(all.String(), `"rejected_by":{`) || !strings.Contains(all.String(), c.rejected) {
				t.Errorf("%s: the out-of-range jobs are not counted as rejected:\n%.2000s", c.name, all.String())
			}
		}
	}
}

// A result file is read bounded: /dev/zero given to merge or report was
// read into memory until the command was killed (a gzip bomb would be
// too). Binary data is refused at its first bytes; text past the bound
// (lowered here) is an error naming the file.
func TestResultFileBounded(t *testing.T) {
	dir := t.TempDir()
	zeros := filepath.Join(dir, "zeros.jsonl")
	if err := os.WriteFile(zeros, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readMaybeGz(zeros); err == nil || !strings.Contains(err.Error(), "binary data, not a result file") {
		t.Errorf("zeros: %v", err)
	}
	defer func(n int) { maxResultFile = n }(maxResultFile)
	maxResultFile = 100
	long := filepath.Join(dir, "long.jsonl")
	if err := os.WriteFile(long, bytes.Repeat([]byte("{}\n"), 34), 0o644); err != nil { // 102 bytes
		t.Fatal(err)
	}
	if _, err := readMaybeGz(long); err == nil || !strings.Contains(err.Error(), "long.jsonl: more than") {
		t.Errorf("past the bound: %v", err)
	}
	ok := filepath.Join(dir, "ok.jsonl")
	if err := os.WriteFile(ok, bytes.Repeat([]byte("{}\n"), 33), 0o644); err != nil { // 99 bytes
		t.Fatal(err)
	}
	if b, err := readMaybeGz(ok); err != nil || len(b) != 99 {
		t.Errorf("within the bound: %d bytes, %v", len(b), err)
	}
}

// A spec is read bounded: sweep list -spec /dev/zero read zeros into
// memory until the command was killed.
func TestSpecFileBounded(t *testing.T) {
	zeros := filepath.Join(t.TempDir(), "zeros.json")
	if err := os.WriteFile(zeros, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSpec(zeros); err == nil || !strings.Contains(err.Error(), "binary data, not a spec") {
		t.Errorf("zeros: %v", err)
	}
}

// A -traces that is missing, or a file, is named as the trace directory
// before any run, as the other commands' -traces: it failed at the first
// run's log ("open DIR/SDSC-SP2-…: no such file or directory"), the
// shard's result file made.
func TestRunTracesNotADirectory(t *testing.T) {
	spec := filepath.Join("specs", "table48.json")
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(t.TempDir(), "none"), file} {
		out := t.TempDir()
		code, _, errs := sweep(t, nil, "run", "-spec", spec, "-out", out, "-traces", dir, "-shard", "0/1000")
		made, _ := os.ReadDir(out)
		if code != 1 || !strings.Contains(errs, "trace directory") || len(made) > 0 {
			t.Errorf("-traces %s: exit %d, %q, %d files made; want 1, the trace directory named, none made", dir, code, errs, len(made))
		}
	}
}
