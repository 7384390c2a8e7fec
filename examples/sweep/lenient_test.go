package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// A trace with a malformed line fails a sweep, the error saying that the
// spec's "lenient" skips such lines; with "lenient": true in the spec run
// reads it, the line skipped and said per trace in the summary and the
// sidecar, and a shard made so is not resumed under the strict spec (the
// hash covers "lenient"). A trace of no other job line fails leniently
// too, saying so.
func TestLenient(t *testing.T) {
	dir := t.TempDir()
	clean := clitest.WriteTrace(t, dir, "clean.swf", 100, 8)
	b, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	const bad = "11 6000 0 x 1 -1 -1 1 600 -1 1 1 1 1 1 1 -1 -1\n" // after the 5 header and 10 job lines: line 16
	trace := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(trace, []byte(strings.Join(lines[:15], "")+bad+strings.Join(lines[15:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(dir, "none.swf")
	if err := os.WriteFile(none, []byte(strings.Join(lines[:5], "")+bad), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := func(name, file string, lenient bool) string {
		p := filepath.Join(dir, name+".json")
		extra := ""
		if lenient {
			extra = `, "lenient": true`
		}
		js := fmt.Sprintf(`{"name": "len", "traces": [{"name": "bad", "file": %q}], "policies": ["EASY"]%s}`, file, extra)
		if err := os.WriteFile(p, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	strict, lenient := spec("strict", trace, false), spec("lenient", trace, true)

	code, _, errs := sweep(t, nil, "run", "-spec", strict, "-out", filepath.Join(dir, "strict"))
	if code != 1 || !strings.Contains(errs, "line 16, field 4 (run time)") || !strings.Contains(errs, `"lenient": true in the spec skips`) {
		t.Errorf("strict: exit %d, %s; want 1 naming line 16 and saying that the spec's \"lenient\" skips it", code, errs)
	}
	out := filepath.Join(dir, "lenient")
	text := mustRun(t, "run", "-spec", lenient, "-out", out)
	if want := `trace bad: skipped 1 malformed lines (the spec's "lenient"); first: swf: line 16, field 4 (run time)`; !strings.Contains(text, want) {
		t.Errorf("summary:\n%s\nwant %q", text, want)
	}
	var side Sidecar
	js := mustRun(t, "run", "-spec", lenient, "-out", filepath.Join(dir, "json"), "-json")
	if err := json.Unmarshal([]byte(js), &side); err != nil || side.MalformedLines["bad"].Lines != 1 ||
		len(side.MalformedLines["bad"].Errors) != 1 || !strings.Contains(side.MalformedLines["bad"].Errors[0], "line 16") {
		t.Errorf("-json: %v, %s; want malformed_lines {bad: 1 line, its error}", err, js)
	}
	// The strict spec's hash is another: its shard is not resumed from
	// the lenient one's file (nor would a lenient spec resume a strict one's).
	code, _, errs = sweep(t, nil, "run", "-spec", strict, "-out", out)
	if code != 1 || !strings.Contains(errs, "is from spec") {
		t.Errorf("strict resume of a lenient shard: exit %d, %s; want 1, another spec", code, errs)
	}
	code, _, errs = sweep(t, nil, "run", "-spec", spec("none", none, true), "-out", filepath.Join(dir, "none"))
	if want := "no job line could be read: 1 malformed lines skipped"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("every line malformed: exit %d, %s; want 1 saying %q", code, errs, want)
	}
}

// A trace whose lines the spec's "lenient" skipped, and whose other jobs
// are all rejected, left a run of 0 jobs written as a result, exit 0,
// saying nothing: the run fails, as simulate's does, naming the trace,
// the reasons and the lines skipped (cli.NothingLeft's words, with the
// spec's "lenient"); a strict trace of no sane job fails the same way,
// without the skipped lines.
func TestLenientNothingLeft(t *testing.T) {
	dir := t.TempDir()
	const nothing = "12 6600 -1 -1 -1 -1 -1 -1 -1 -1 1 1 1 1 1 1 -1 -1\n" // no wait, run time or size
	for _, c := range []struct {
		name, log string
		lenient   bool
		want      string
	}{
		{"lenient", "; MaxProcs: 64\n11 6000 0 x 1 -1 -1 1 600 -1 1 1 1 1 1 1 -1 -1\n" + nothing, true,
			`: no job was simulated: every one of the 1 read was rejected (1 no run time); 1 malformed lines skipped (the spec's "lenient")`},
		{"strict", "; MaxProcs: 64\n" + nothing, false,
			`: no job was simulated: every one of the 1 read was rejected (1 no run time)`},
	} {
		trace := filepath.Join(dir, c.name+".swf")
		if err := os.WriteFile(trace, []byte(c.log), 0o644); err != nil {
			t.Fatal(err)
		}
		spec := filepath.Join(dir, c.name+".json")
		js := fmt.Sprintf(`{"name": "nl", "traces": [{"name": "t", "file": %q}], "policies": ["EASY"], "lenient": %v}`, trace, c.lenient)
		if err := os.WriteFile(spec, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := sweep(t, nil, "run", "-spec", spec, "-out", filepath.Join(dir, "out-"+c.name))
		want := "run 0 (t EASY): trace t: " + trace + c.want
		if code != 1 || !strings.Contains(errs, want) || (!c.lenient && strings.Contains(errs, "skipped")) {
			t.Errorf("%s: exit %d, stderr %q; want 1 saying %q", c.name, code, errs, want)
		}
	}
}
