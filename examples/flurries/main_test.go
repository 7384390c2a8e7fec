package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// loadTrace loads a shared trace as the experiments do; without it the
// test skips (or fails under CI).
func loadTrace(t *testing.T, name string) []swf.Job {
	t.Helper()
	jobs, err := load(filepath.Dir(tracetest.Path(t, name)), name)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func TestUnknownExperiment(t *testing.T) {
	if err := run(context.Background(), &bytes.Buffer{}, t.TempDir(), "nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("error %v", err)
	}
}

// The acceptance target on the smallest log, in plain go test: recall ≥
// 0.95 for both thesis-shaped flurries at all positions, and no candidate
// created by an injection other than the right one.
func TestInjectKTH(t *testing.T) {
	jobs := loadTrace(t, tracetest.KTH)
	var out bytes.Buffer
	res, err := injectLog(&out, "KTH", jobs, []shape{flurry375, multiWeek(2)}, sanitize.FlurryConfig{})
	if err != nil {
		t.Fatal(err)
	}
	for name, sc := range res {
		if sc.recall() < 0.95 || sc.precision() < 1 {
			t.Errorf("%s: recall %.2f precision %.2f\n%s", name, sc.recall(), sc.precision(), out.String())
		}
	}
}

// The other three logs (about 30 s): the same target.
func TestInjectAll(t *testing.T) {
	if testing.Short() {
		t.Skip("about 30 s")
	}
	for _, name := range []string{tracetest.CTC, tracetest.SDSCSP2, tracetest.SDSCBlue} {
		jobs := loadTrace(t, name)
		var out bytes.Buffer
		res, err := injectLog(&out, tracetest.ShortName(name), jobs, []shape{flurry375, multiWeek(2)}, sanitize.FlurryConfig{})
		if err != nil {
			t.Fatal(err)
		}
		for sh, sc := range res {
			if sc.recall() < 0.95 {
				t.Errorf("%s %s: recall %.2f\n%s", name, sh, sc.recall(), out.String())
			}
		}
	}
}

// Thesis §6.2/§6.5.4: with the 375-job flurry in the log, moving job
// 64,241's run time swings the mean bsld far more than without it; the
// detector's filter removes exactly the injected jobs.
func TestButterfly(t *testing.T) {
	if testing.Short() {
		t.Skip("about 10 s of EASY runs")
	}
	jobs := loadTrace(t, tracetest.SDSCSP2)
	ctx := context.Background()
	row, err := butterflyRun(ctx, jobs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !row.detected || row.removedJobs != 375 || row.removedInjected != 375 {
		t.Errorf("detector removed %d jobs, %d injected (detected %v)", row.removedJobs, row.removedInjected, row.detected)
	}
	without, _, _, err := spread(ctx, jobs, nil)
	if err != nil {
		t.Fatal(err)
	}
	inj, fl, err := injected(jobs, 0)
	if err != nil {
		t.Fatal(err)
	}
	with, _, _, err := spread(ctx, inj, fl)
	if err != nil {
		t.Fatal(err)
	}
	rw, rn := with[1]-with[0], without[1]-without[0]
	if rw <= rn {
		t.Errorf("range of mean bsld over offsets: %.2f with the flurry, %.2f without; the thesis finds the flurry amplifies it", rw, rn)
	}
	t.Logf("range without flurry %.2f, with %.2f", rn, rw)
}

func TestLANL(t *testing.T) {
	var out bytes.Buffer
	dir := filepath.Dir(tracetest.Path(t, tracetest.LANLCM5))
	if err := run(context.Background(), &out, dir, "lanl"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "LANL-CM5: 122060 jobs") {
		t.Errorf("output:\n%s", out.String())
	}
}
