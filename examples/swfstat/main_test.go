package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

func TestDefault(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, nil, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jobs 500", "machine size 64 processors", "queue 2 40"} {
		if !has(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRealTrace(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, []string{tracetest.Path(t, tracetest.CTC)}, false); err != nil {
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
	err := run(&out, []string{p}, false)
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("strict: got %v, want an error naming line 3", err)
	}
	out.Reset()
	if err := run(&out, []string{p}, true); err != nil {
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
	if err := run(&out, []string{p}, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jobs 4", "submit span 7 s", "machine size 4 processors", "out-of-order submits 0", "unknown submit times 1",
		"status outside -1..5 3 (-4: 1, -2: 2)", "header warnings 1", `warning: swf: line 2, header MaxRuntime: "N/A"`} {
		if !has(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
