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
