package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// The jobs the model leaves out of the written trace (not sane: no size,
// no run time, larger than the machine...) are counted by reason on
// standard error and in -json, not only as a total: a user whose trace
// came back shorter learns which rule dropped what.
func TestNotSaneReasons(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	log := "; MaxProcs: 8\n" +
		"1 0 0 100 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 10 0 100 0 -1 -1 0 7200 -1 1 1 1 1 1 -1 -1 -1\n" + // no size
		"3 20 0 100 16 -1 -1 16 7200 -1 1 1 1 1 1 -1 -1 -1\n" + // larger than machine
		"4 30 0 -1 2 -1 -1 2 7200 -1 1 1 1 1 1 -1 -1 -1\n" + // no run time
		"5 40 0 -1 2 -1 -1 2 7200 -1 1 1 1 1 1 -1 -1 -1\n" + // no run time
		"6 50 0 300 2 -1 -1 2 7200 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := command(t.Context(), []string{"-trace", in, "-out", filepath.Join(dir, "out.swf"), "-json"}, &out, &errs)
	if err != nil {
		t.Fatal(err)
	}
	if want := "4 dropped as not sane: 1 larger than machine, 2 no run time, 1 no size"; !strings.Contains(errs.String(), want) {
		t.Errorf("stderr %q lacks %q", errs.String(), want)
	}
	// The bins as a user reads them, not Go's "[{7200 0 100}]".
	if want := "bins 2h 100.0%;"; !strings.Contains(errs.String(), want) {
		t.Errorf("stderr %q lacks %q", errs.String(), want)
	}
	var r struct {
		NotSane  int            `json:"not_sane"`
		ByReason map[string]int `json:"not_sane_by_reason"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.NotSane != 4 || r.ByReason["no_run_time"] != 2 || r.ByReason["no_size"] != 1 || r.ByReason["larger_than_machine"] != 1 {
		t.Errorf("-json: not_sane %d, by reason %v", r.NotSane, r.ByReason)
	}
	// The bins' keys are snake_case like the rest: a user saw "Time",
	// "Jobs" and "Percent" (estmodel.UserBin's field names).
	var b struct {
		Bins []map[string]float64 `json:"bins"`
	}
	if err := json.Unmarshal(out.Bytes(), &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Bins) == 0 || b.Bins[0]["time_s"] != 7200 {
		t.Errorf("-json bins %v: want time_s 7200 (E_max), jobs, percent", b.Bins)
	}
	for _, m := range b.Bins {
		for k := range m {
			if k != "time_s" && k != "jobs" && k != "percent" {
				t.Errorf("-json bins: key %q, want time_s, jobs, percent", k)
			}
		}
		// A bin is sized in jobs or in percent, and says which: a
		// percentage bin said "jobs": 0 too.
		if _, j := m["jobs"]; j == (m["percent"] != 0) {
			t.Errorf("-json bin %v: want jobs or percent, not both, not neither", m)
		}
	}
	if len(b.Bins) > 0 && b.Bins[0]["percent"] != 100 {
		t.Errorf("-json bins %v: want E_max's at 100 percent", b.Bins)
	}
}

// -emax above every estimate of the log, without -share, takes the log's
// share of jobs at that E_max, which is none: the run failed with the
// model's internal "estmodel: user bin 0: neither jobs nor percent
// given". A share of none is now what -share 0 gives: no job at E_max.
func TestEMaxAboveEveryEstimate(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	log := "; MaxProcs: 8\n" +
		"1 0 0 100 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 10 0 200 1 -1 -1 1 3600 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := command(t.Context(), []string{"-trace", in, "-out", filepath.Join(dir, "out.swf"), "-emax", "100h"}, &out, &errs)
	if err != nil {
		t.Fatalf("-emax 100h: %v", err)
	}
	var zero bytes.Buffer
	if err := command(t.Context(), []string{"-trace", in, "-out", filepath.Join(dir, "zero.swf"), "-emax", "100h", "-share", "0"}, &out, &zero); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "out.swf"))
	b, _ := os.ReadFile(filepath.Join(dir, "zero.swf"))
	if !bytes.Equal(a, b) || !strings.Contains(errs.String(), "bins none;") {
		t.Errorf("-emax 100h differs from -emax 100h -share 0:\n%s\n%s", a, b)
	}
}

// A log of short jobs has a largest estimate under an hour, its E_max
// without -emax, below what the modal model takes: the error named the
// bound and no way out. It now names -emax and the other models, and the
// way it names works.
func TestShortEMaxRemedy(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	log := "; MaxProcs: 8\n" +
		"1 0 0 100 1 -1 -1 1 600 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 10 0 200 1 -1 -1 1 300 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := command(t.Context(), []string{"-trace", in, "-out", filepath.Join(dir, "out.swf")}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "give -emax 1h or more, or -model f, fdet, phi or shuffle") {
		t.Errorf("E_max 600 s: %v, want the remedy named", err)
	}
	for _, args := range [][]string{{"-emax", "1h"}, {"-model", "f"}} {
		if err := command(t.Context(), append([]string{"-trace", in, "-out", filepath.Join(dir, "out.swf")}, args...), &out, &errs); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// The machine size is checked as the simulators check it: -procs negative
// or above 2^40 is a usage error (a negative one called every job larger
// than the machine, then "the log has no estimates"), a header's size
// above 2^40 a run error naming -procs, and a log left with no sane job
// says so rather than that it has no estimates.
func TestMachineSizeBounds(t *testing.T) {
	dir := t.TempDir()
	jobs := "1 0 0 100 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n"
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("ok.swf", "; MaxProcs: 8\n"+jobs)
	huge := write("huge.swf", "; MaxProcs: 9223372036854775807\n"+jobs)
	zero := write("zero.swf", "; MaxProcs: 0\n"+jobs)
	big := write("big.swf", "; MaxProcs: 8\n"+strings.Replace(jobs, " 1 -1 -1 1 ", " 16 -1 -1 16 ", 1))
	for _, c := range []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"-trace", ok, "-procs", "-5"}, true, "-procs -5"},
		{[]string{"-trace", ok, "-procs", "2000000000000"}, true, "-procs 2000000000000"},
		{[]string{"-trace", huge}, false, "above 2^40 processors (give -procs)"},
		{[]string{"-trace", zero}, false, `"; MaxProcs: 0" gives no machine size`},
		{[]string{"-trace", big}, false, "no sane job"},
	} {
		var out, errs bytes.Buffer
		err := command(t.Context(), append(c.args, "-out", filepath.Join(dir, "out.swf")), &out, &errs)
		if err == nil || errors.As(err, new(cli.UsageError)) != c.usage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v (usage error: want %v), want %q", c.args, err, c.usage, c.want)
		}
	}
	var out, errs bytes.Buffer
	if err := command(t.Context(), []string{"-trace", ok, "-procs", "4", "-out", filepath.Join(dir, "out.swf")}, &out, &errs); err != nil {
		t.Errorf("-procs 4: %v", err)
	}
}

// Bad values of the assignment's flags are usage errors, found before
// the trace is read: -model foo and -share 200 exited 1 after reading
// it, -emax -5 read as no -emax ("the log has no estimates"), -share NaN
// as the log's share (exit 0), -out "" failed once the estimates were
// made ("open : no such file or directory", exit 1), and a -bin of no
// time or percent, or a time given twice, failed once the trace was read,
// in estmodel's words ("user bin 1: time 900 given twice", exit 1).
func TestAssignFlagsChecked(t *testing.T) {
	for _, args := range [][]string{
		{"-model", "foo"}, {"-share", "200"}, {"-share", "NaN"}, {"-share", "-2"}, {"-out", ""},
		{"-bin", "0:10"}, {"-bin", "15m:NaN"}, {"-bin", "15m:0"}, {"-bin", "15m:200"}, {"-bin", "15m:10", "-bin", "900:5"},
		{"-emax", "-5"}, {"-emax", "0"}, {"-emax", "soon"}, {"-f", "-1", "-model", "f"}, {"-phi", "NaN", "-model", "phi"},
	} {
		var out, errs bytes.Buffer
		err := command(t.Context(), append([]string{"-trace", "no-such-trace.swf"}, args...), &out, &errs)
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%q: %v, want a usage error naming %s", args, err, args[0])
		}
	}
}

// -out naming the trace replaced the log with its estimated copy; it is a
// usage error and the log is left as it was.
func TestOutIsTrace(t *testing.T) {
	dir := t.TempDir()
	text := "; MaxProcs: 8\n1 0 0 100 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n"
	p := filepath.Join(dir, "log.swf")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := command(t.Context(), []string{"-trace", p, "-emax", "18h", "-out", p}, &out, &errs)
	if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), "would overwrite it") {
		t.Errorf("got %v, want a usage error naming the input", err)
	}
	if b, _ := os.ReadFile(p); string(b) != text {
		t.Errorf("the trace changed:\n%s", b)
	}
}

// -seeds -5 panicked (makeslice: len out of range); the validation's
// counts are bounded before anything is read, each worker being a copy
// of the log.
func TestValidationCountsBounded(t *testing.T) {
	for _, args := range [][]string{
		{"-seeds", "-5"}, {"-fseeds", "-1"}, {"-seeds", "0"}, {"-seeds", "100001"}, {"-workers", "0"}, {"-workers", "5000"},
	} {
		var out, errs bytes.Buffer
		err := command(t.Context(), append([]string{"-validate", "-logs", "nope"}, args...), &out, &errs)
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%q: %v, want a usage error naming the flag", args, err)
		}
	}
}

// A log whose largest estimate is one corrupt value (LLNL-Atlas's job
// 6762: 738,738,720 s, 23 years, 570× the next among the sane jobs) gave
// that E_max to the modal model with only the usual "model ... E_max" line
// on stderr. The thesis's rule is kept, the SWF unchanged, but a warning
// names the job and counts the jobs whose estimate went above the log's
// next largest, on stderr and in -json's warnings and warning_data, as
// simulate reports its warnings. -emax, or an E_max of a sane log, gives
// none.
func TestDegenerateEMax(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range 40 {
		est := 3600 * int64(1+i%4)
		if i == 7 {
			est = 738738720
		}
		fmt.Fprintf(&b, "%d %d 0 100 1 -1 -1 1 %d -1 1 1 1 1 1 -1 -1 -1\n", i+1, 3600*i, est)
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, map[string]any) {
		var out, errs bytes.Buffer
		args = append([]string{"-trace", in, "-out", filepath.Join(dir, "out.swf"), "-json"}, args...)
		if err := command(t.Context(), args, &out, &errs); err != nil {
			t.Fatal(err)
		}
		var r map[string]any
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		return errs.String(), r
	}
	errs, r := run()
	want := "warning: degenerate E_max: job 8's estimate of 738738720 s (23.4 years) is 51301× the next largest (14400 s) and longer than the log's 1.6 days of submissions; as the log's largest estimate it is E_max (S6), and "
	if !strings.Contains(errs, want) {
		t.Errorf("stderr %q lacks %q", errs, want)
	}
	d, _ := r["warning_data"].(map[string]any)["degenerate_e_max"].(map[string]any)
	if ws, _ := r["warnings"].([]any); len(ws) != 1 || d["job"] != float64(8) || d["e_max_s"] != float64(738738720) ||
		d["next_largest_s"] != float64(14400) || d["jobs_above_next"].(float64) < 1 || r["e_max_s"] != float64(738738720) {
		t.Errorf("-json warnings %v, warning_data %v, e_max_s %v", r["warnings"], r["warning_data"], r["e_max_s"])
	}
	if n := strings.Count(errs, "degenerate"); n != 1 {
		t.Errorf("stderr names the degeneracy %d times: %q", n, errs)
	}
	if errs, r := run("-emax", "4h"); strings.Contains(errs, "degenerate") || r["warnings"] != nil {
		t.Errorf("-emax 4h: stderr %q, warnings %v; want none", errs, r["warnings"])
	}
}

// On the shared logs (by path: a short name takes the thesis's X), the
// README's figures: LLNL-Atlas's and CEA-Curie's largest estimates are
// degenerate, the other logs with estimates draw no warning.
func TestDegenerateEMaxSharedLogs(t *testing.T) {
	for _, c := range []struct {
		file            string
		job, eMax, next float64 // 0: no warning
	}{
		{tracetest.LLNL, 6762, 738738720, 1296000},
		{tracetest.CEACurie, 765556, 1<<31 - 1, 15000000},
		{tracetest.CTC, 0, 0, 0}, {tracetest.KTH, 0, 0, 0}, {tracetest.SDSCSP2, 0, 0, 0},
		{tracetest.SDSCBlue, 0, 0, 0}, {tracetest.LANLCM5, 0, 0, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			var out, errs bytes.Buffer
			args := []string{"-trace", tracetest.Path(t, c.file), "-out", filepath.Join(t.TempDir(), "out.swf"), "-json"}
			if err := command(t.Context(), args, &out, &errs); err != nil {
				t.Fatal(err)
			}
			var r struct {
				WarningData map[string]map[string]float64 `json:"warning_data"`
			}
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			d := r.WarningData["degenerate_e_max"]
			if d["job"] != c.job || d["e_max_s"] != c.eMax || d["next_largest_s"] != c.next {
				t.Errorf("degenerate_e_max %v; want job %v, E_max %v, next %v", d, c.job, c.eMax, c.next)
			}
		})
	}
}

// cli.CheckEMax's edge cases: no estimate, one, all equal, a span of 0, a
// short log whose estimates are longer than it (not degenerate: a day's
// log of 36 h jobs, or one job, was warned of as "longer than the log's
// 0.0 days"), and the one estimate of a log beyond a year and its span.
func TestCheckEMaxEdges(t *testing.T) {
	const h, day = 3600, 86400
	log := func(submitStep int64, ests ...int64) []swf.Job {
		jobs := make([]swf.Job, len(ests))
		for i, e := range ests {
			jobs[i] = swf.Job{ID: int64(i + 1), Submit: submitStep * int64(i), ReqTime: e}
		}
		return jobs
	}
	for _, c := range []struct {
		name string
		jobs []swf.Job
		job  int64 // 0: not degenerate
	}{
		{"no jobs", nil, 0},
		{"no estimates", log(h, -1, -1, 0), 0},
		{"one job, span 0", log(0, 36*h), 0},
		{"all at once, all equal", log(0, 36*h, 36*h, 36*h), 0},
		{"a 3 h log, 36 h estimates", log(h, 20*h, 30*h, 36*h, 36*h), 0},
		{"a 3 h log, a 10x estimate", log(h, h, 2*h, 20*h), 0},
		{"a 3 h log, a 11x estimate", log(h, h, 2*h, 22*h), 3},
		{"one job of 2 years, span 0", log(0, 730*day), 1},
		{"only estimate 2^31-1 in a long log", log(400*day, -1, 1<<31-1, -1), 2},
		{"2 years in a 3-year log, next 1 year", log(365*day, 365*day, 730*day, 0, 0), 0},
		{"two at the maximum", log(h, h, 1<<31-1, 1<<31-1), 2},
	} {
		d := cli.CheckEMax(c.jobs)
		switch {
		case c.job == 0 && d != nil:
			t.Errorf("%s: %+v, want none", c.name, *d)
		case c.job != 0 && (d == nil || d.Job != c.job):
			t.Errorf("%s: %+v, want job %d", c.name, d, c.job)
		}
	}
}

// -validate on a log with no sane job says so, as -trace does: it failed
// deep in the model ("kth model (vanl) seed 0: estmodel: N must be
// positive"), which named neither the log nor the cause.
func TestValidateNoSaneJob(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allneg.swf")
	log := "; MaxProcs: 64\n-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := command(t.Context(), []string{"-validate", "-logs", path, "-seeds", "1", "-fseeds", "1"}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), path+": no sane job (1 record: 1 no submit time)") {
		t.Errorf("%v; want the log and the reasons named", err)
	}
}

// -validate's -plot directory is made before the logs are read: one that
// cannot be made fails at once, naming -plot (h-user's abe2e4b; without a
// test here, this log's "no sane job" came first).
func TestValidatePlotDirFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "allneg.swf")
	if err := os.WriteFile(path, []byte("; MaxProcs: 64\n-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := command(t.Context(), []string{"-validate", "-logs", path, "-seeds", "1", "-fseeds", "1", "-plot", filepath.Join(path, "figures")}, &out, &errs)
	if err == nil || !strings.HasPrefix(err.Error(), "-plot: mkdir") || out.Len() != 0 {
		t.Errorf("%v, stdout %q; want a -plot error before the run", err, out.String())
	}
}

// The -emax remedy follows the modal model's error of a short E_max
// (estmodel.ErrShortEMax) and no other: any error of the model over a log
// whose E_max is under an hour was given it (here N's, of no job; one of
// more than 2^28 sane jobs would get another of N's).
func TestShortEMaxRemedyOnlyForItsError(t *testing.T) {
	jobs := []swf.Job{{ID: 1, RunTime: 100, ReqTime: 600, AllocProcs: 1}}
	set := logSetting{EMax: 600}
	rng := rand.New(rand.NewPCG(1, 2))
	_, err := applyModel(jobs, "modal", set, 0, 0, rng)
	if !errors.Is(err, estmodel.ErrShortEMax) || !strings.Contains(err.Error(), "give -emax 1h") {
		t.Errorf("E_max 600 s: %v; want ErrShortEMax and the remedy", err)
	}
	_, want := estmodel.Generate(estmodel.ModalConfig{N: 0, EMax: 600}, rng)
	if _, err := applyModel(nil, "modal", set, 0, 0, rng); want == nil || errors.Is(want, estmodel.ErrShortEMax) || err == nil || err.Error() != want.Error() {
		t.Errorf("another error of the model over E_max 600 s: %v; want %v as it is, without the -emax remedy", err, want)
	}
}

// The model's error names the log and where its E_max came from (the
// log's largest estimate, or -emax): "estmodel: E_max = 1800 s is below
// one hour" named neither.
func TestModelErrorNamesLog(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "short.swf")
	log := "; MaxProcs: 8\n" +
		"1 0 0 100 1 -1 -1 1 600 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 10 0 200 1 -1 -1 1 300 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, in + ": model modal, E_max from its largest estimate: estmodel: E_max = 600 s"},
		{[]string{"-emax", "30m"}, in + ": model modal, E_max from -emax: estmodel: E_max = 1800 s"},
	} {
		var out, errs bytes.Buffer
		err := command(t.Context(), append([]string{"-trace", in, "-out", filepath.Join(dir, "out.swf")}, c.args...), &out, &errs)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v; want it to start %q", c.args, err, c.want)
		}
	}
}

// Jobs under a number an earlier job has are kept, each given its own
// estimate, and counted on standard error and in -json's duplicate_ids
// (swfstat's key): nothing said so, and the written trace carried them.
func TestDuplicateIDsCounted(t *testing.T) {
	dir := t.TempDir()
	in, outPath := filepath.Join(dir, "in.swf"), filepath.Join(dir, "out.swf")
	log := "; MaxProcs: 8\n" +
		"1 0 0 100 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"1 10 0 200 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" + // number 1 again
		"-1 20 0 300 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" + // no number: no duplicate
		"-1 30 0 400 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 40 0 500 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"1 50 0 600 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n" // and again
	if err := os.WriteFile(in, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := command(t.Context(), []string{"-trace", in, "-out", outPath, "-json"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if want := "in.swf: 2 sane jobs carry a job number an earlier one has: kept"; !strings.Contains(errs.String(), want) {
		t.Errorf("stderr %q lacks %q", errs.String(), want)
	}
	var r struct {
		SaneJobs     int  `json:"sane_jobs"`
		DuplicateIDs *int `json:"duplicate_ids"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.SaneJobs != 6 || r.DuplicateIDs == nil || *r.DuplicateIDs != 2 {
		t.Errorf("-json: sane_jobs %d, duplicate_ids %v; want 6, 2", r.SaneJobs, r.DuplicateIDs)
	}
	b, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n1 "); n != 3 {
		t.Errorf("written trace has %d lines of job 1, want the 3 read:\n%s", n, b)
	}
}

// An -out in a directory that is not there, or that is a directory, is
// refused before the trace is read: it was found once the estimates
// were made, after the trace's summary line ("open …: no such file or
// directory").
func TestOutPathCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "log.swf")
	if err := os.WriteFile(trace, []byte("; MaxProcs: 8\n1 0 0 100 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{filepath.Join(dir, "missing", "e.swf"), dir} {
		var stdout, stderr bytes.Buffer
		err := command(t.Context(), []string{"-trace", trace, "-emax", "18h", "-out", out}, &stdout, &stderr)
		if err == nil || stderr.Len() != 0 || !strings.Contains(err.Error(), "-out "+out+": ") {
			t.Errorf("-out %s: %v, stderr %q; want an error naming -out before the trace is read", out, err, stderr.String())
		}
	}
}

// A validation flag outside the validation is a usage error naming it:
// each was dropped without a word (exit 0). -fit takes -seeds alone.
func TestValidationFlagsNeedValidate(t *testing.T) {
	for _, args := range [][]string{
		{"-logs", "ctc", "-trace", "kth"}, {"-plot", t.TempDir(), "-trace", "kth"}, {"-seeds", "5", "-trace", "kth"},
		{"-fseeds", "5", "-trace", "kth"}, {"-legal", "-trace", "kth"}, {"-noextra", "-trace", "kth"},
		{"-workers", "1", "-trace", "kth"}, {"-workers", "1", "-fit"}, {"-logs", "ctc", "-fit"},
	} {
		var out, errs bytes.Buffer
		err := command(t.Context(), args, &out, &errs)
		if !errors.As(err, new(cli.UsageError)) || !strings.Contains(err.Error(), args[0]+" applies to -validate") {
			t.Errorf("%q: %v, want a usage error naming %s", args, err, args[0])
		}
	}
}

// A model's parameter given with another model was dropped without a
// word (-f 5 with the default modal model: exit 0, the modal estimates
// written); it is a usage error, nothing written. With its own model it
// is taken.
func TestModelFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.swf")
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range 300 {
		fmt.Fprintf(&b, "%d %d 0 %d 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n", i+1, 60*i, 100+i)
	}
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.swf")
	for _, args := range [][]string{
		{"-f", "5"}, {"-model", "phi", "-f", "2"}, {"-phi", "0.5"}, {"-model", "f", "-phi", "0.5"},
		{"-model", "f", "-share", "5"}, {"-model", "shuffle", "-bin", "15m:10"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(t.Context(), append([]string{"-trace", in, "-out", out}, args...), strings.NewReader(""), &stdout, &stderr)
		if _, err := os.Stat(out); code != 2 || err == nil || !strings.Contains(stderr.String(), args[len(args)-2]) {
			t.Errorf("%q: exit %d, %q, output written %v; want 2 naming %s, nothing written", args, code, stderr.String(), err == nil, args[len(args)-2])
		}
	}
	for _, args := range [][]string{{"-model", "f", "-f", "5"}, {"-model", "fdet", "-f", "5"}, {"-model", "phi", "-phi", "0.5"}, {"-share", "5"}} {
		var stdout, stderr bytes.Buffer
		if code := run(t.Context(), append([]string{"-trace", in, "-out", out, "-emax", "2h"}, args...), strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Errorf("%q: exit %d, %q", args, code, stderr.String())
		}
	}
}
