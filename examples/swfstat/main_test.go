package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/tracetest"
)

func TestDefault(t *testing.T) {
	var out bytes.Buffer
	if err := stat(&out, nil, nil, false, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jobs 500", "machine size 64 processors", "queue 2 debug 40"} {
		if !has(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRealTrace(t *testing.T) {
	var out bytes.Buffer
	if err := stat(&out, nil, []string{tracetest.Path(t, tracetest.CTC)}, false, false); err != nil {
		t.Fatal(err)
	}
	if !has(out.String(), "jobs 77222") || !has(out.String(), "machine size 338 processors") {
		t.Errorf("unexpected summary:\n%s", out.String())
	}
}

func TestMalformed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.swf")
	os.WriteFile(p, []byte("; MaxProcs: 4\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n2 0 0 x\n"), 0o644)
	var out bytes.Buffer
	err := stat(&out, nil, []string{p}, false, false)
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("strict: got %v, want an error naming line 3", err)
	}
	// and the file, as simulate, replay and forecast name it: a user saw
	// "swfstat: swf: line 41, field 3 …" without the file's name.
	if !strings.HasPrefix(err.Error(), p+": ") {
		t.Errorf("strict: got %v, want it to start with the file's name", err)
	}
	r := clitest.Exec(run, "; MaxProcs: 4\n2 0 0 x\n", "-")
	if r.Code != 1 || !strings.Contains(r.Stderr, "swfstat: standard input: ") {
		t.Errorf("from standard input: exit %d, stderr %q; want 1 naming standard input", r.Code, r.Stderr)
	}
	// A truncated gzip: swf.Open's reader names the file already, once
	// is enough ("swfstat: F: swf: F: gzip data truncated" before).
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(bytes.Repeat([]byte("1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n"), 1000))
	zw.Close()
	gz := filepath.Join(t.TempDir(), "cut.swf.gz")
	os.WriteFile(gz, z.Bytes()[:z.Len()/2], 0o644)
	for _, args := range [][]string{{gz}, {"-"}} {
		in, _ := os.ReadFile(gz)
		r := clitest.Exec(run, string(in), args...)
		name := map[bool]string{true: gz, false: "standard input"}[args[0] == gz]
		if r.Code != 1 || strings.Count(r.Stderr, name) != 1 || !strings.Contains(r.Stderr, "truncated") {
			t.Errorf("%s: exit %d, stderr %q; want 1 naming %s once", args[0], r.Code, r.Stderr, name)
		}
	}
	out.Reset()
	if err := stat(&out, nil, []string{p}, true, false); err != nil {
		t.Fatal(err)
	}
	if !has(out.String(), "malformed lines skipped 1") {
		t.Errorf("lenient output:\n%s", out.String())
	}
}

// has reports whether out contains want, comparing runs of blanks as one
// space so that column alignment does not matter.
func has(out, want string) bool {
	return strings.Contains(strings.Join(strings.Fields(out), " "), want)
}

// A log shaped like Sandia-Ross (header "MaxRuntime: N/A", statuses -2 and
// -4, unknown submit times) is read in strict mode, with its oddities
// reported.
func TestRealLogQuirks(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ross.swf")
	os.WriteFile(p, []byte("; MaxProcs: 4\r; MaxRuntime: N/A\r"+
		"1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\r"+
		"2 -1 0 1 1 -1 -1 1 1 -1 -2 1 1 1 1 1 1 1\r"+
		"3 5 0 1 1 -1 -1 1 1 -1 -4 1 1 1 1 1 1 1\r"+
		"4 7 0 1 1 -1 -1 1 1 -1 -2 1 1 1 1 1 1 1\r"), 0o644)
	var out bytes.Buffer
	if err := stat(&out, nil, []string{p}, false, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jobs 4", "submit span 7 s", "machine size 4 processors", "out-of-order submits 0", "unknown submit times 1",
		"status outside -1..5 3 (-4: 1, -2: 2)", "header warnings 1", `warning: swf: line 2, header MaxRuntime: "N/A"`} {
		if !has(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestCLI(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.swf")
	os.WriteFile(p, []byte("; MaxProcs: 4\n; Queue: 1 debug\n1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n"), 0o644)
	missing := filepath.Join(t.TempDir(), "nope.swf")
	clitest.Run(t, clitest.Command{Run: run, JSON: []string{p, "-json"}, Missing: []string{missing}, File: missing,
		Empty: func(path string) []string { return []string{path} }})
}

// Queue names of a converted header ("; Queue: 1 debug") label the
// per-queue counts, in the text and in -json.
func TestQueueNames(t *testing.T) {
	in := "; MaxProcs: 4\n; Queue: 1 debug\n; Queue: 2 long haul\n" +
		"1 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 1 1\n2 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 2 1 1 1\n3 0 0 1 1 -1 -1 1 1 -1 1 1 1 1 3 1 1 1\n"
	r := clitest.Exec(run, in, "-")
	for _, want := range []string{"queue 1 debug 1", "queue 2 long haul 1", "queue 3 1"} {
		if !has(r.Stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.Stdout)
		}
	}
	r = clitest.Exec(run, in, "-json", "-")
	if !strings.Contains(r.Stdout, `"name": "long haul"`) {
		t.Errorf("-json lacks the queue name:\n%s", r.Stdout)
	}
}

// summaryOf is swfstat -json's summary of log, read from standard input;
// the test fails on a non-zero exit or unreadable JSON.
func summaryOf(t *testing.T, log string) summaryJSON {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(context.Background(), []string{"-", "-json"}, strings.NewReader(log), &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var s summaryJSON
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}
