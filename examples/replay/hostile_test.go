package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dupLog writes a log of n one-processor jobs that all carry job number 1
// (a scheduler whose counter was reset, a hostile file), submitted a
// minute apart on a machine of 8.
func dupLog(t *testing.T, n int) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range n {
		fmt.Fprintf(&b, "1 %d 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n", 60*i)
	}
	path := filepath.Join(t.TempDir(), "dup.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// On a log the simulators reject almost wholly (here every job after the
// first repeats its number), the report names the reason of each
// rejection, and VARQ plans at the middle job simulated (the one left),
// not at the middle of the log's lines, where no simulated job arrives:
// its request is the default one, refused because QBETS has no history
// yet, never a zero request (0 nodes for 0 s, target 0.00).
func TestMostlyRejected(t *testing.T) {
	path := dupLog(t, 50)
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"49 jobs not simulated: 49 duplicate ID", "VARQ", "request: 4 nodes for 60.0 min", "no history", "NOT_POSSIBLE"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "request: 0 nodes") || strings.Contains(s, "not planned") {
		t.Errorf("report shows a zero request or no plan:\n%s", s)
	}
	out.Reset()
	if err := command(context.Background(), []string{"-trace", path, "-json"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Rejected map[string]int `json:"rejected"`
		VARQ     struct {
			Planned bool `json:"planned"`
		} `json:"varq"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if !r.VARQ.Planned || r.Rejected["duplicate_id"] != 49 {
		t.Errorf("-json: planned %v, rejected %v; want true and 49 duplicate_id", r.VARQ.Planned, r.Rejected)
	}
}

// -days and -load that no synthetic workload has are usage errors:
// -days 1e9 counted jobs for minutes (the run looked hung), NaN made 0
// jobs and synth's error (exit 1), -load NaN passed as "≥ 0"; a span too
// short for the model's estimates (1e-300: 0 s, 0 jobs; 0.01: 10 jobs)
// was exit 1 too.
func TestSyntheticSpanBounded(t *testing.T) {
	for _, args := range [][]string{
		{"-days", "1e9"}, {"-days", "NaN"}, {"-days", "-1"}, {"-days", "0"}, {"-days", "+Inf"},
		{"-days", "1e-300"}, {"-days", "0.01"},
		{"-load", "NaN"}, {"-load", "+Inf"}, {"-load", "-1"},
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errs)
		if code != 2 || !strings.Contains(errs.String(), args[0]) {
			t.Errorf("%q: exit %d, %q; want 2 naming %s", args, code, errs.String(), args[0])
		}
	}
}

// A job submitted past sanitize.MaxTime is rejected by the simulators
// (and counted); the workload's span leaves it out too, rather than
// reading "over 106751991167294 days".
func TestSpanWithoutRejectedJobs(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d %d 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n", i+1, 3600*i)
	}
	b.WriteString("41 9223372036854775000 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n")
	path := filepath.Join(t.TempDir(), "far.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := fromTrace(path, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.desc, "41 jobs over 2 days") {
		t.Errorf("workload: %s", w.desc)
	}
	// A job of unknown submit time (-1, rejected as "no submit time")
	// made the span start at 0: "41 jobs over 12 days" of jobs submitted
	// from day 10 to day 11.6.
	var u strings.Builder
	u.WriteString("; MaxProcs: 8\n")
	for i := range 40 {
		fmt.Fprintf(&u, "%d %d 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n", i+1, 864000+3600*i)
	}
	u.WriteString("41 -1 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n")
	path = filepath.Join(t.TempDir(), "unknown.swf")
	if err := os.WriteFile(path, []byte(u.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if w, err = fromTrace(path, 0, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.desc, "41 jobs over 2 days") {
		t.Errorf("workload with an unknown submit time: %s", w.desc)
	}
}

// A QBETS method with no bound writes median_bound_s null, as qbets -json
// does, not -1 (a bound of -1 s reads as a number).
func TestNoBoundIsNull(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.swf")
	log := "; MaxProcs: 8\n1 0 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n2 60 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-trace", path, "-json"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var r struct {
		QBETS []map[string]any `json:"qbets"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	for _, m := range r.QBETS {
		if v, ok := m["median_bound_s"]; !ok || v != nil {
			t.Errorf("%v: median_bound_s %v, want null", m["method"], v)
		}
	}
	if len(r.QBETS) == 0 {
		t.Error("no qbets methods")
	}
}

// With no job averaged (one job simulated) the schedulers' means and the
// QBETS lines' shares and RMS are "–", not the "0 s" and "0%" a mean over
// nothing is stored as.
func TestNothingAveraged(t *testing.T) {
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", dupLog(t, 50)}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "0 jobs averaged") {
		t.Fatalf("not the case tested (some job averaged):\n%s", s)
	}
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch {
		case f[0] == "EASY" || f[0] == "EASY+" || f[0] == "EASY++" || f[0] == "PERFECT++":
			if len(f) != 5 || f[1] != "–" || f[2] != "–" || f[4] != "–" {
				t.Errorf("scheduler row %q, want – for mean wait, bsld and accuracy", line)
			}
		case strings.Contains(line, "bounds held,"):
			if !strings.Contains(line, " – of 0 bounds held") || !strings.Contains(line, "RMS over-prediction –,") {
				t.Errorf("QBETS line %q, want – for the share and the RMS", line)
			}
		}
	}
	// -json says the same with null
	out.Reset()
	if err := command(context.Background(), []string{"-trace", dupLog(t, 50), "-json"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Schedulers []map[string]any `json:"schedulers"`
		QBETS      []map[string]any `json:"qbets"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Schedulers) == 0 || len(r.QBETS) == 0 {
		t.Fatalf("-json: %d schedulers, %d qbets methods", len(r.Schedulers), len(r.QBETS))
	}
	for _, m := range r.Schedulers {
		for _, k := range []string{"mean_wait_s", "mean_bsld", "accuracy"} {
			if v, ok := m[k]; !ok || v != nil {
				t.Errorf("-json %v: %s %v, want null (0 jobs averaged)", m["variant"], k, v)
			}
		}
	}
	for _, m := range r.QBETS {
		for _, k := range []string{"correctness", "rms_over_prediction_s"} {
			if v, ok := m[k]; !ok || v != nil {
				t.Errorf("-json %v: %s %v, want null (no bound scored)", m["method"], k, v)
			}
		}
	}
}

// A log of which nothing can be simulated names why, and an empty file
// says it has no job lines: they said "no job completed under EASY:
// nothing to predict" (3 jobs without a submit time) and "swf: header has
// neither MaxProcs nor MaxNodes" (an empty file).
func TestNothingSimulatedSaysWhy(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ text, want string }{
		{"; MaxProcs: 8\n1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n",
			"every one of the 2 read was rejected (2 no submit time)"},
		{"", "no job lines"},
	} {
		path := filepath.Join(dir, "t.swf")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errs bytes.Buffer
		code := run(context.Background(), []string{"-trace", path}, strings.NewReader(""), &out, &errs)
		// (the first named no file: "replay: no job completed under EASY: …")
		if code != 1 || !strings.Contains(errs.String(), c.want) || !strings.Contains(errs.String(), path+": ") {
			t.Errorf("%q: exit %d, %q; want 1, %s and %q", c.text, code, errs.String(), path, c.want)
		}
	}
}

// Job lines out of submit order are counted, in the text and -json, as
// simulate counts them (swf.Stats.OutOfOrder: each earlier than the line
// before it, here 10 and 5; against the largest submit before, 20 counted
// too): the replay reordered them without a word.
func TestOutOfOrderCounted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "order.swf")
	body := "; MaxProcs: 100\n1 100 0 100 4 -1 -1 4 100 -1 1 1 1 1 1 -1 -1 -1\n2 10 0 100 4 -1 -1 4 100 -1 1 1 1 1 1 -1 -1 -1\n3 20 0 100 4 -1 -1 4 100 -1 1 1 1 1 1 -1 -1 -1\n" +
		"4 5 0 100 4 -1 -1 4 100 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{path}, strings.NewReader(""), &out, &errs); code != 0 || !strings.Contains(out.String(), "2 job lines earlier than the line before them") {
		t.Errorf("exit %d, %q:\n%s", code, errs.String(), out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{path, "-json"}, strings.NewReader(""), &out, &errs); code != 0 || !strings.Contains(out.String(), `"out_of_order": 2`) {
		t.Errorf("-json: exit %d, %q:\n%s", code, errs.String(), out.String())
	}
}

// Every job a job-building rule changed is counted by rule, in the text
// and in -json, as simulate counts them: -json had no word of them, and
// the text only of the estimates filled (CEA-Curie's 10,893 jobs sized from
// their request went unsaid).
func TestChangedByRules(t *testing.T) {
	log := "; MaxProcs: 8\n" +
		"1 0 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 60 0 600 -1 -1 -1 2 900 -1 1 1 1 1 1 -1 -1 -1\n" +
		"3 120 0 600 1 -1 -1 1 -1 -1 1 1 1 1 1 -1 -1 -1\n" +
		"4 180 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "rules.swf")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", path, "-json"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var r struct {
		Changed map[string]int `json:"changed"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Changed["size_from_requested"] != 1 || r.Changed["estimate_filled"] != 1 || len(r.Changed) != 2 {
		t.Errorf("-json changed %v; want estimate_filled 1, size_from_requested 1", r.Changed)
	}
	out.Reset()
	if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if want := "jobs changed by rules: estimate_filled 1, size_from_requested 1"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	// One rule alone: said when it is not the estimates filled, which
	// the line above it says already.
	for _, c := range []struct{ from, to, want string }{
		// job 3 given an estimate: only job 2's size is taken from its request
		{"3 120 0 600 1 -1 -1 1 -1", "3 120 0 600 1 -1 -1 1 900", "(jobs changed by rules: size_from_requested 1)"},
		// job 2 given its size: only job 3's estimate is filled (no line)
		{"2 60 0 600 -1 -1", "2 60 0 600 2 -1", ""},
	} {
		if err := os.WriteFile(path, []byte(strings.Replace(log, c.from, c.to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		out.Reset()
		if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
			t.Fatal(err)
		}
		if got := out.String(); c.want != "" && !strings.Contains(got, c.want) || c.want == "" && strings.Contains(got, "jobs changed by rules") {
			t.Errorf("want %q (\"\": no such line):\n%s", c.want, got)
		}
	}
}

// A sane log whose middle job is submitted within 12 hours of 2^40 s (the
// latest time VARQ takes) is replayed: the schedulers and QBETS are
// reported and VARQ says why it planned nothing. The whole run failed
// with "varq: request Start 1099511670976 outside ±2^40 s".
func TestVARQPastMaxTime(t *testing.T) {
	log := "; MaxProcs: 64\n" +
		"1 0 10 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n" +
		"2 1099511627776 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "far.swf")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if want := "VARQ (package varq; Nurmi's thesis Ch. 5): not planned: its start"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
	out.Reset()
	if err := command(context.Background(), []string{"-trace", path, "-json"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	var r struct {
		VARQ struct {
			Planned    bool   `json:"planned"`
			NotPlanned string `json:"not_planned"`
		} `json:"varq"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.VARQ.Planned || !strings.Contains(r.VARQ.NotPlanned, "2^40") {
		t.Errorf("-json varq %+v; want not planned, saying why", r.VARQ)
	}
}

// A header whose machine size sched refuses (above 2^40 processors) is an
// error naming the log, as -machine's bound is a usage error: it was
// sched's "MachineSize 9223372036854775807 above 2^40", naming no file.
func TestHugeHeaderMachineSizeNamed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.swf")
	log := "; MaxProcs: 9223372036854775807\n1 0 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n2 60 0 600 1 -1 -1 1 900 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	err := command(context.Background(), []string{"-trace", path}, &out, &errs)
	if err == nil || !strings.Contains(err.Error(), "huge.swf: machine size 9223372036854775807 above 2^40 processors") {
		t.Errorf("error %v; want one naming huge.swf and the size", err)
	}
}

// A machine the workload never fills (here 60 small jobs on 100000
// processors) gives every job a simulated wait of 0: every method's bound
// of 0 s holds, "100.0% of bounds held". The report says the QBETS figures
// are degenerate, and -json's simulated_waited is 0; a busy machine's
// report has no such note.
func TestNoWaitDegenerate(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 100000\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "%d %d 0 600 %d -1 -1 %d 900 -1 1 1 1 1 1 -1 -1 -1\n", i, 300*i, 1+i%4, 1+i%4)
	}
	path := filepath.Join(t.TempDir(), "idle.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		machine string
		idle    bool
	}{{"0", true}, {"2", false}} {
		var out, errs bytes.Buffer
		if code := run(context.Background(), []string{path, "-machine", c.machine}, strings.NewReader(""), &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		if got := strings.Contains(out.String(), "Degenerate: none of the 60 jobs waited"); got != c.idle {
			t.Errorf("-machine %s: degenerate note %v, want %v:\n%s", c.machine, got, c.idle, out.String())
		}
		out.Reset()
		if code := run(context.Background(), []string{path, "-machine", c.machine, "-json"}, strings.NewReader(""), &out, &errs); code != 0 {
			t.Fatalf("exit %d: %s", code, errs.String())
		}
		var r struct {
			Waited *int `json:"simulated_waited"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Waited == nil || (*r.Waited == 0) != c.idle {
			t.Errorf("-machine %s: simulated_waited %v, want 0 only on the idle machine", c.machine, r.Waited)
		}
	}
}

// A run too short for any bound (8 jobs, none waiting) is not said
// degenerate: its lines say "– of 0 bounds held", and the note's "a bound
// of 0 s holds for every one" was false there.
func TestNoBoundNotDegenerate(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 100\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "%d %d 0 600 2 -1 -1 2 900 -1 1 1 1 1 1 -1 -1 -1\n", i, 300*i)
	}
	path := filepath.Join(t.TempDir(), "short.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{path}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if !strings.Contains(out.String(), "– of 0 bounds held") {
		t.Fatalf("want no bound given (the case tested):\n%s", out.String())
	}
	if strings.Contains(out.String(), "Degenerate") {
		t.Errorf("a run without a bound said degenerate:\n%s", out.String())
	}
}

// Job lines of a status outside the SWF standard (field 11: -4, -2) are
// kept and simulated and said, in the text and in -json, as simulate and
// swfstat say them (cli.OtherStatus); replay had no word of them.
func TestOtherStatusSaid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "status.swf")
	body := "; MaxProcs: 100\n1 0 0 100 4 -1 -1 4 100 -1 -2 1 1 1 1 -1 -1 -1\n2 10 0 100 4 -1 -1 4 100 -1 -4 1 1 1 1 -1 -1 -1\n" +
		"3 20 0 100 4 -1 -1 4 100 -1 -2 1 1 1 1 -1 -1 -1\n4 30 0 100 4 -1 -1 4 100 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	want := "3 job lines with a status outside the SWF standard -1..5 (kept and simulated): -4: 1, -2: 2"
	if code := run(context.Background(), []string{path}, strings.NewReader(""), &out, &errs); code != 0 || !strings.Contains(out.String(), want) {
		t.Errorf("exit %d, %q: want %q in\n%s", code, errs.String(), want, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{path, "-json"}, strings.NewReader(""), &out, &errs); code != 0 {
		t.Fatalf("-json: exit %d, %q", code, errs.String())
	}
	var r struct {
		OtherStatus *struct {
			Lines    int            `json:"lines"`
			ByStatus map[string]int `json:"by_status"`
		} `json:"other_status"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if o := r.OtherStatus; o == nil || o.Lines != 3 || o.ByStatus["-2"] != 2 || o.ByStatus["-4"] != 1 {
		t.Errorf("-json other_status %+v, want 3 lines: -2: 2, -4: 1", o)
	}
}

// The lines of partial executions (status 2, 3, 4: a checkpointed job's
// runs, its summary line simulated) are not jobs: the first line counted
// them among the jobs ("5 jobs" of 3) and the report said "2 jobs not
// simulated". Rejected jobs are still said as jobs.
func TestPartialLinesNotJobs(t *testing.T) {
	const log = "; MaxProcs: 4\n" +
		"1 0 5 300 2 -1 -1 2 400 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"1 0 5 100 2 -1 -1 2 400 -1 2 1 1 -1 -1 -1 -1 -1\n" +
		"1 0 5 100 2 -1 -1 2 400 -1 3 1 1 -1 -1 -1 -1 -1\n" +
		"2 10 5 300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1\n" +
		"3 20 5 300 8 -1 -1 8 400 -1 1 2 1 -1 -1 -1 -1 -1\n" +
		"4 30 5 300 2 -1 -1 2 400 -1 1 2 1 -1 -1 -1 -1 -1\n"
	path := filepath.Join(t.TempDir(), "ckpt.swf")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := command(context.Background(), []string{"-trace", path}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"4 processors, 4 jobs (and 2 lines of partial executions) over 0 days",
		"(1 job not simulated: 1 larger than machine)", "(2 lines of partial executions not simulated"} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "jobs not simulated: 1 larger than machine, 2 partial execution") {
		t.Errorf("partial lines counted as jobs:\n%s", s)
	}
}
