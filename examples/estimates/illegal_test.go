package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// writeTrace writes jobs as an SWF file on a machine of procs processors.
func writeTrace(t *testing.T, jobs []swf.Job, procs int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hand.swf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := swf.WriteAll(f, &swf.Header{MaxProcs: procs}, jobs); err != nil {
		t.Fatal(err)
	}
	return path
}

// A hand-built log on which the vanilla model cannot pair legally: E_max is
// 10 h and one job of 200 (0.5%) uses it, but five jobs run 9:50, and the
// model's next value is its 9:40 head time. Every seed leaves 4 jobs with an
// estimate below their run time (the smallest one left, 5 min: a 9.8 h
// overrun); the validation must say so (the whole KTH log is the real case),
// and the -legal rows must have none.
func TestValidateReportsIllegalPairings(t *testing.T) {
	var jobs []swf.Job
	for i := range int64(200) {
		j := swf.Job{ID: i + 1, Submit: i * 120, Wait: 0, RunTime: 300 + i%7*100, AllocProcs: 1 + i%4, ReqProcs: 1 + i%4,
			ReqTime: 1800, Status: swf.StatusCompleted, User: 1 + i%5, Group: 1, Executable: 1, Queue: 1, Partition: 1,
			AvgCPUTime: -1, UsedMemory: -1, ReqMemory: -1, PrecedingJob: -1, ThinkTime: -1}
		switch {
		case i == 3:
			j.RunTime, j.ReqTime = 100, 10*3600 // the only job at E_max
		case i%40 == 7:
			j.RunTime, j.ReqTime = 9*3600+50*60, 9*3600+55*60 // five long jobs
		}
		jobs = append(jobs, j)
	}
	path := writeTrace(t, jobs, 16)
	var out bytes.Buffer
	o := options{logs: path, seeds: 3, fSeeds: 1, workers: 2, noExtra: true, legal: true}
	if err := validateAll(context.Background(), &out, nil, o, fakeEASY); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"**model (vanl): no legal pairing in 3 of 3 runs**",
		"4.0 jobs per run got an estimate below their run time and ran past it, by up to 9.8 h",
		"| model (vanl) legal | 3 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "legal: no legal pairing") {
		t.Errorf("the -legal rows still have illegal pairings:\n%s", out.String())
	}
}

// The finding on the whole KTH log (README, "The whole KTH log"): with
// E_max 60 h and 0.1% of the jobs at it, the model rarely has enough long
// values for KTH's weekend jobs, most seeds pair some of them with a short
// estimate, and those jobs, running up to 60 h past their estimate, are what
// raises EASY's wait; its long over-estimates are not. Giving the short jobs
// e = r lands the model beside shfl; clipping every estimate above 4 h to
// max(4 h, r) does not; a larger E_max share (the reference code's advice)
// makes every pairing legal. The README's table is the same diagnosis
// (TestReadme).
func TestKTHIllegalPairings(t *testing.T) {
	d := kthDiagnosed(t)
	t.Logf("real %.1f min; vanl %.1f (%d of %d runs illegal, %.1f jobs/run); vanl legal %.1f; shfl %.1f; clipped %.1f",
		d.lv.real.wait, d.vanl.wait, d.vanl.shortRuns, d.seeds, d.vanl.shortJobs, d.vanlLegal.wait, d.shfl.wait, d.clipped)
	if d.vanl.shortRuns < d.seeds/2 {
		t.Errorf("only %d of %d runs paired illegally", d.vanl.shortRuns, d.seeds)
	}
	if d.shfl.shortRuns != 0 || d.vanlLegal.shortRuns != 0 {
		t.Errorf("shfl or the -legal rows paired illegally: %d, %d runs", d.shfl.shortRuns, d.vanlLegal.shortRuns)
	}
	if d.vanl.wait < 1.25*d.lv.real.wait {
		t.Errorf("model wait %.1f min is no longer far above the real %.1f: the finding changed", d.vanl.wait, d.lv.real.wait)
	}
	if r := d.vanlLegal.wait/d.shfl.wait - 1; r < -0.1 || r > 0.1 {
		t.Errorf("with legal pairings the model waits %.1f min, shfl %.1f: not within 10%%", d.vanlLegal.wait, d.shfl.wait)
	}
	if d.clipped < 1.25*d.lv.real.wait {
		t.Errorf("clipping the long estimates brought the wait to %.1f min (real %.1f): long over-estimates matter after all", d.clipped, d.lv.real.wait)
	}
	if d.remedyShort != 0 {
		t.Errorf("E_max share %.2f%%: %d seeds still pair illegally", d.remedyShare, d.remedyShort)
	}
}
