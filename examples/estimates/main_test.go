package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// The command adds estimates to a log without them (the Lublin synthetic
// trace) and every model writes a readable SWF with field 9 filled.
func TestAssignCommand(t *testing.T) {
	trace := tracetest.Path(t, tracetest.Lublin)
	dir := t.TempDir()
	for _, model := range []string{"modal", "f", "fdet", "phi"} {
		out := filepath.Join(dir, model+".swf")
		var log bytes.Buffer
		o := options{trace: trace, out: out, model: model, eMax: "18h", share: 20, f: 3, phi: 0.1, seed: 1}
		if err := runAssign(io.Discard, &log, o); err != nil {
			t.Fatalf("%s: %v", model, err)
		}
		_, jobs, err := swf.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		atMax := 0
		for _, j := range jobs {
			if j.ReqTime < 0 || j.ReqTime > 18*3600 && model != "f" && model != "fdet" {
				t.Fatalf("%s: job %d estimate %d", model, j.ID, j.ReqTime)
			}
			if j.RunTime > 18*3600 {
				t.Fatalf("%s: job %d run time %d above E_max", model, j.ID, j.RunTime)
			}
			if j.ReqTime == 18*3600 {
				atMax++
			}
		}
		if model == "modal" && atMax != len(jobs)/5 {
			t.Errorf("modal: %d of %d jobs at E_max, asked for 20%%", atMax, len(jobs))
		}
		if model == "modal" && !strings.Contains(log.String(), "0 jobs got an estimate below") {
			t.Errorf("modal: %s", log.String())
		}
	}
	if err := runAssign(io.Discard, &bytes.Buffer{}, options{trace: trace, out: os.DevNull, model: "modal", share: -1}); err == nil {
		t.Error("a log without estimates and no -emax accepted")
	}
}

// The distribution fit on the four modelled logs reproduces Tab 5.1 closely
// and the thesis's qualitative finding (§5.12.1): the improved setting fits
// every log at least as well as the vanilla one.
func TestFit(t *testing.T) {
	for _, s := range shortNames {
		tracetest.Path(t, s.file)
	}
	rows, err := fitRows(5)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		t.Logf("%s: N %d (thesis %d), K %d (thesis %d), E_max share %.1f%% (thesis %.1f%%), KS vanl %.3f impr %.3f",
			r.log.name, r.n, r.log.n, r.k, r.log.k, r.share, r.log.share, r.ksV, r.ksI)
		if r.log.name != "BLUE" { // our sane BLUE has 232,562 jobs, the thesis's 223,407 (see README)
			if d := r.n - r.log.n; d < -30 || d > 30 {
				t.Errorf("%s: %d sane jobs, thesis %d", r.log.name, r.n, r.log.n)
			}
			if d := r.k - r.log.k; d < -2 || d > 2 {
				t.Errorf("%s: %d distinct estimates, thesis %d", r.log.name, r.k, r.log.k)
			}
		}
		if math.Abs(r.share-r.log.share) > 0.1 {
			t.Errorf("%s: E_max share %.2f%%, Tab 5.5 %.1f%%", r.log.name, r.share, r.log.share)
		}
		if r.ksI > r.ksV {
			t.Errorf("%s: improved setting fits worse (KS %.3f) than vanilla (%.3f)", r.log.name, r.ksI, r.ksV)
		}
	}
}

// The -bin flag parser never panics and accepts only time:percent.
func FuzzBinFlag(f *testing.F) {
	for _, s := range []string{"15m:10.6", "300:25", "18h:", ":3", "1h30m:2.5", "x:y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b binList
		if err := b.Set(s); err == nil && (len(b) != 1 || !strings.Contains(s, ":")) {
			t.Fatalf("%q parsed to %v", s, b)
		}
	})
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	trace := clitest.WriteTrace(t, dir, "t.swf", 30, 16)
	missing := filepath.Join(dir, "nope.swf")
	clitest.Run(t, clitest.Command{Run: run,
		JSON:      []string{trace, "-emax", "2h", "-share", "10", "-out", filepath.Join(dir, "out.swf"), "-json"},
		FromStdin: []string{"-trace", "-", "-emax", "2h", "-share", "10", "-out", filepath.Join(dir, "out.swf"), "-json"}, StdinFile: trace,
		Missing: []string{missing, "-out", filepath.Join(dir, "out.swf")}, File: missing,
		Empty: func(p string) []string { return []string{"-trace", p, "-out", filepath.Join(filepath.Dir(p), "o.swf")} }})
}

// TestProgress: -validate -progress draws the bar on stderr (a short run's
// too, with the quiet second set to 0) and leaves stdout byte for byte as
// without it.
func TestProgress(t *testing.T) {
	trace := clitest.WriteTrace(t, t.TempDir(), "t.swf", 30, 16)
	args := []string{"-validate", "-logs", trace, "-seeds", "2", "-fseeds", "2", "-noextra", "-workers", "1"}
	clitest.Progress(t, run, args...)
}

// TestShortNameLeftOut: the jobs a short name's filter leaves out are
// counted and said, so that -json's counts add up to the lines read:
// kth4h said "23062 sane jobs (1 dropped as not sane)" of KTH's 28476,
// and its 5413 jobs without an estimate of at most 4 h went unsaid.
func TestShortNameLeftOut(t *testing.T) {
	tracetest.Path(t, tracetest.KTH) // (skips without the traces)
	r := clitest.Exec(run, "", "-trace", "kth4h", "-out", filepath.Join(t.TempDir(), "o.swf"), "-json")
	if r.Code != 0 {
		t.Fatalf("exit %d: %s", r.Code, r.Stderr)
	}
	var got struct {
		Read    int    `json:"jobs_read"`
		Sane    int    `json:"sane_jobs"`
		NotSane int    `json:"not_sane"`
		LeftOut int    `json:"left_out"`
		Why     string `json:"left_out_why"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Read != 28476 || got.LeftOut == 0 || got.Sane+got.NotSane+got.LeftOut != got.Read || got.Why == "" {
		t.Errorf("-json: %+v; want the 28476 lines of KTH accounted for", got)
	}
	if want := fmt.Sprintf("%d sane jobs left out of kth4h: no estimate or one above 4 h", got.LeftOut); !strings.Contains(r.Stderr, want) {
		t.Errorf("stderr %q lacks %q", r.Stderr, want)
	}
}
