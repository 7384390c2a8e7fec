package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log whose largest estimate is one corrupt value (LLNL-Atlas's job
// 6762: 23 years, 570× the next) and whose jobs without an estimate S6
// fills with it is said by run, in its summary and in -json (the
// shard's .meta.json), as simulate and estimates say it, with the jobs
// it reached counted as simulate counts them (the lowest-numbered run
// that filled estimates): sweep ran every such job with a 23-year
// estimate without a word.
func TestDegenerateEMaxWarned(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range 40 {
		est := int64(3600)
		switch {
		case i == 7:
			est = 738738720
		case i%4 == 1:
			est = -1 // filled with E_max (S6)
		}
		fmt.Fprintf(&b, "%d %d 0 600 1 -1 -1 1 %d -1 1 1 1 1 1 1 -1 -1\n", i+1, 300*i, est)
	}
	log := filepath.Join(dir, "corrupt.swf")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "emax.json")
	js := fmt.Sprintf(`{"name": "emax", "traces": [{"name": "corrupt", "file": %q}], "policies": ["EASY"]}`, log)
	if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun(t, "run", "-spec", spec, "-out", filepath.Join(dir, "text"))
	if want := "trace corrupt: warning: degenerate E_max: job 8's estimate of 738738720 s"; !strings.Contains(out, want) ||
		!strings.Contains(out, "11 jobs (27.5%) got an estimate above 3600 s") {
		t.Errorf("summary without the degenerate E_max (want %q, 11 jobs):\n%s", want, out)
	}
	out = mustRun(t, "run", "-spec", spec, "-out", filepath.Join(dir, "json"), "-json")
	var side Sidecar
	if err := json.Unmarshal([]byte(out), &side); err != nil || side.DegenerateEMax["corrupt"] == nil ||
		side.DegenerateEMax["corrupt"].EMax != 738738720 || side.DegenerateEMax["corrupt"].Jobs != 11 {
		t.Errorf("%v, %s; want degenerate_e_max {corrupt: e_max_s 738738720, 11 jobs}", err, out)
	}

	// Runs that fill no estimate (a peer's: a job without one runs 1
	// second) are not warned of.
	peer := filepath.Join(dir, "peer.json")
	js = fmt.Sprintf(`{"name": "peer", "traces": [{"name": "corrupt", "file": %q}], "policies": ["EASY"], "options": {"compat": ["pyss"]}}`, log)
	if err := os.WriteFile(peer, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "run", "-spec", peer, "-out", filepath.Join(dir, "peer")); strings.Contains(out, "E_max") {
		t.Errorf("a peer's runs warned:\n%s", out)
	}

	// A log without one says nothing.
	clean := filepath.Join(dir, "clean.json")
	js = fmt.Sprintf(`{"name": "clean", "traces": [{"name": "clean", "file": %q}], "policies": ["EASY"]}`,
		filepath.Join(dir, "clean.swf"))
	if err := os.WriteFile(clean, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "clean.swf"), []byte(strings.Replace(b.String(), " 738738720 ", " 7200 ", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, "run", "-spec", clean, "-out", filepath.Join(dir, "clean")); strings.Contains(out, "E_max") {
		t.Errorf("a sane E_max warned:\n%s", out)
	}
}
