package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// TestReadme regenerates every table of README.md but the WeekLift
// trade-off (TestReadmeLong) and compares each with its generated region;
// BATCHQ_UPDATE_README=1 rewrites them.
func TestReadme(t *testing.T) {
	readme.CheckDigest(t, "README.md", "weeklift", weekLiftDigest)
	r := results(t)
	noLift := setup{}
	noLift.det.WeekLift = -1
	ss := []section{
		nativeSection(r.native, setup{}),
		nativeSection(r.nativeSane, setup{sane: true}),
		injectSection(r.inject, setup{}),
		injectSection(r.injectNoWeekLift, noLift),
	}
	ss = append(ss, r.butterfly.sections()...)
	scale, err := scaleSection(r.dir, setup{})
	if err != nil {
		t.Fatal(err)
	}
	fig, err := figuresSection(r.dir, setup{})
	if err != nil {
		t.Fatal(err)
	}
	ss = append(ss, scale, fig)
	for _, f := range []func(string, setup) ([]section, error){sweepSections, lanlSections, spreadSections} {
		more, err := f(r.dir, setup{})
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, more...)
	}
	for _, s := range ss {
		readme.Check(t, "README.md", s.name, []byte(s.text))
	}
}

// weekLiftDigest is the SHA-256 of the WeekLift trade-off table as
// TestReadmeLong generated it.
const weekLiftDigest = "dac32e3e39d66b25542eb983a37dc8475dc1f1fc94f2dafed11533ac59103867"

// TestReadmeLong regenerates the WeekLift trade-off table (BATCHQ_LONG=1;
// eight detector settings, each on the four logs with two injected shapes:
// about 50 s of CPU) and compares it with the README, or rewrites it with
// BATCHQ_UPDATE_README=1; it fails when weekLiftDigest is not the generated
// text's.
func TestReadmeLong(t *testing.T) {
	if os.Getenv(readme.LongEnv) != "1" {
		t.Skipf("eight detector settings on the four logs: set %s=1", readme.LongEnv)
	}
	ss, err := weekLiftSections(filepath.Dir(tracetest.Path(t, tracetest.KTH)), setup{})
	if err != nil {
		t.Fatal(err)
	}
	readme.Check(t, "README.md", ss[0].name, []byte(ss[0].text))
	if d := readme.Digest([]byte(ss[0].text)); d != weekLiftDigest {
		t.Errorf("generated text has digest %s, weekLiftDigest is %s: update it", d, weekLiftDigest)
	}
}
