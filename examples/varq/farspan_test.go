package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run the agent fails (a sane job submitted just before 2^40 s, its
// request planned past it) names the log and the cell.
func TestAgentErrorNamesLog(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 100\n")
	for i := 1; i <= 50; i++ {
		fmt.Fprintf(&b, "%d %d 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n", i, 100*i)
	}
	b.WriteString("51 1099511627000 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n")
	path := filepath.Join(t.TempDir(), "far.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run(context.Background(), []string{"-trace", path, "-fractions", "0.5", "-targets", "0.5"}, strings.NewReader(""), &out, &errs)
	if code == 0 {
		// the input no longer makes the agent fail: the test checks
		// nothing until it is given one that does
		t.Fatalf("exit 0 (%q): the agent no longer fails on this input; give the test one it fails on", errs.String())
	}
	if !strings.Contains(errs.String(), "far.swf, 50% VARQ, target 0.50: ") {
		t.Errorf("exit %d, %q; want the log and cell named", code, errs.String())
	}
}

// A log given twice (the same name, another spelling of it, -trace and an
// argument) was simulated twice and its table printed twice, as if two
// logs agreed; it is a usage error before anything is read.
func TestLogGivenTwice(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "twice.swf")
	if err := os.WriteFile(path, []byte("; MaxProcs: 8\n1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{path, path}, {"-trace", path + "," + filepath.Join(dir, ".", "twice.swf")}, {"-", "-"},
	} {
		var out, errs bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errs)
		if code != 2 || out.Len() != 0 || !strings.Contains(errs.String(), "twice") {
			t.Errorf("%q: exit %d, %d bytes out, %q; want 2 naming the log", args, code, out.Len(), errs.String())
		}
	}
}
