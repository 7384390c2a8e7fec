package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// kthSeeds is the number of vanilla-model seeds of the KTH diagnosis.
const kthSeeds = 10

var kthDiag struct {
	once sync.Once
	d    *kthDiagnosis
	err  error
}

// kthDiagnosed runs the KTH diagnosis once for TestKTHIllegalPairings and
// TestReadme (about 80 EASY runs on KTH).
func kthDiagnosed(t *testing.T) *kthDiagnosis {
	t.Helper()
	if testing.Short() {
		t.Skip("about 80 EASY runs on KTH")
	}
	tracetest.Path(t, tracetest.KTH)
	kthDiag.once.Do(func() { kthDiag.d, kthDiag.err = diagnoseKTH(context.Background(), kthSeeds, runEASY) })
	if kthDiag.err != nil {
		t.Fatal(kthDiag.err)
	}
	return kthDiag.d
}

// TestReadme regenerates the README's quick tables (the distribution fit at
// 100 seeds, the model's own numbers, the KTH diagnosis) and compares them
// with its generated regions (BATCHQ_UPDATE_README=1 rewrites them). The
// EASY validations take longer: TestReadmeLong regenerates them, and here
// only their digests are checked.
func TestReadme(t *testing.T) {
	for _, v := range longValidations {
		readme.CheckDigest(t, "README.md", v.region, v.digest)
	}
	for _, s := range shortNames {
		tracetest.Path(t, s.file)
	}
	var fit bytes.Buffer
	if err := runFit(&fit, nil, 100); err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "fit", fit.Bytes())
	var checks bytes.Buffer
	if err := writeModelChecks(&checks); err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", "model-checks", checks.Bytes())
	if !testing.Short() {
		var kth bytes.Buffer
		kthDiagnosed(t).write(&kth)
		readme.Check(t, "README.md", "kth-diagnosis", kth.Bytes())
	}
}

// longValidations are the README's EASY validations (§5.12.3): 902 to
// 1,102 simulations each, about 7 CPU-minutes together. The README gives
// the command; TestReadmeLong reruns them.
var longValidations = []struct {
	region string
	opt    options
	digest string // SHA-256 of the region as generated
}{
	{"validation", options{logs: "ctc,kth4h,sdsc,blue", seeds: 100, fSeeds: 100, workers: 2},
		"c0c673b162afbbdac33b58ad3f5438a7f2eb8e9b1eea8550610f3fea36798fc3"},
	{"validation-sdsc106", options{logs: "sdsc106", seeds: 100, fSeeds: 100, workers: 2},
		"c5cae28917a8eaa1b12d1e0c5da625b353fbea08a89217d9f436132a15890229"},
	{"validation-kth", options{logs: "kth", seeds: 100, fSeeds: 100, workers: 2, legal: true},
		"87a677888d5148974ddd7a612a5962aabee0eb4ce3f3ac79cd6b4c29f3427cdb"},
}

// TestReadmeLong regenerates the EASY validations (BATCHQ_LONG=1; about 7
// CPU-minutes) and compares them with the README, or rewrites them with
// BATCHQ_UPDATE_README=1; either way it fails when a recorded digest in
// longValidations is not the generated text's.
func TestReadmeLong(t *testing.T) {
	if os.Getenv(readme.LongEnv) != "1" {
		t.Skipf("the EASY validations take about 7 CPU-minutes: set %s=1", readme.LongEnv)
	}
	for _, s := range shortNames {
		tracetest.Path(t, s.file)
	}
	for _, v := range longValidations {
		var out bytes.Buffer
		if err := validateAll(context.Background(), &out, nil, v.opt, runEASY); err != nil {
			t.Fatal(err)
		}
		readme.Check(t, "README.md", v.region, out.Bytes())
		if d := readme.Digest(out.Bytes()); d != v.digest {
			t.Errorf("region %s: generated text has digest %s, longValidations records %s: update it", v.region, d, v.digest)
		}
	}
}

// TestReadmeSliceKTH4H is the CI slice of TestReadmeLong (BATCHQ_LONG=1;
// CI runs it with -run): one log of the "validation" region, KTH4H, the
// smallest, with the README's seeds (903 EASY runs, the same validateAll
// path). Its section and its rows of the summary tables must be in the
// README's region as printed, line for line; the region itself is pinned
// by its digest (TestReadme).
func TestReadmeSliceKTH4H(t *testing.T) {
	if !readme.Long() {
		t.Skipf("903 EASY runs on KTH4H: set %s=1", readme.LongEnv)
	}
	v := longValidations[0]
	o := v.opt
	o.logs = "kth4h"
	tracetest.Path(t, tracetest.KTH)
	var out bytes.Buffer
	if err := validateAll(context.Background(), &out, nil, o, runEASY); err != nil {
		t.Fatal(err)
	}
	checkSlice(t, v.region, out.String(), "### KTH4H", "| KTH4H |")
}

// checkSlice checks that the part of got from the line starting with
// section up to the next "### " heading, and every line of got starting
// with row, appear in the README's region as they are.
func checkSlice(t *testing.T, region, got, section, row string) {
	t.Helper()
	text := readme.RegionOf(t, "README.md", region)
	i := strings.Index(got, "\n"+section)
	if i < 0 {
		t.Fatalf("the computed text has no section %q:\n%s", section, got)
	}
	block := got[i+1:]
	if j := strings.Index(block, "\n### "); j >= 0 {
		block = block[:j+1]
	}
	if !strings.Contains(text, block) {
		t.Errorf("README.md region %s lacks the recomputed section:\n%s", region, block)
	}
	n := 0
	for l := range strings.Lines(got) {
		if strings.HasPrefix(l, row) {
			n++
			if !strings.Contains(text, l) {
				t.Errorf("README.md region %s lacks the recomputed row\n%s", region, l)
			}
		}
	}
	if n == 0 {
		t.Errorf("the computed text has no row %q", row)
	}
}
