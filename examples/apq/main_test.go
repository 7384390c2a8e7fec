package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

// TestTable5 runs Table V on the first 6000 jobs of SDSC-SP2 in quick mode
// (validation #3501–4000, test #4001–4500), through the same path as the command.
func TestTable5(t *testing.T) {
	if testing.Short() {
		t.Skip("real-trace run; skipped in -short mode")
	}
	out := runQuick(t, "V")
	for _, want := range []string{"## Table V", "| SDSC SP2 | 500 |", "(7.84)", "#4001–4500"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	if err := reproduce(&strings.Builder{}, options{Dir: dir}); err == nil || !strings.Contains(err.Error(), "no trace") {
		t.Errorf("empty directory: err = %v", err)
	}
	if err := reproduce(&strings.Builder{}, options{Dir: dir, MaxJobs: -1}); err == nil || !strings.Contains(err.Error(), "-jobs") {
		t.Errorf("negative -jobs: err = %v", err)
	}
	if err := reproduce(&strings.Builder{}, options{Dir: dir, Filter: "x"}); err == nil || !strings.Contains(err.Error(), "-filter") {
		t.Errorf("bad -filter: err = %v", err)
	}
	if err := reproduce(&strings.Builder{}, options{Dir: dir, Tables: "XL"}); err == nil || !strings.Contains(err.Error(), "-tables") {
		t.Errorf("unknown table: err = %v", err)
	}
	if err := reproduce(&strings.Builder{}, options{Dir: dir, FloorOnly: true, Floor: floorOff}); err == nil || !strings.Contains(err.Error(), "-flooronly") {
		t.Errorf("-flooronly -floor off: err = %v", err)
	}
}

func TestSelectTables(t *testing.T) {
	got, err := selectTables("v, V")
	if err != nil || len(got) != 1 || got[0] != "V" {
		t.Errorf("selectTables(v, V) = %v, %v", got, err)
	}
	all, _ := selectTables("")
	if len(all) == 0 || all[0] != "V" {
		t.Errorf("registered tables = %v, want V first", all)
	}
}

func TestCLI(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf.gz", 300, 16)
	missing := filepath.Join(t.TempDir(), "none")
	clitest.Run(t, clitest.Command{Run: run, NoArgs: true,
		JSON:    []string{"-traces", dir, "-tables", "VI", "-quick", "-json"},
		Missing: []string{"-traces", missing}, File: missing})
}

// TestEmptyTrace: an empty file under a paper trace's name says it has no
// job lines, as every command's empty trace does (it said the header lacks
// MaxProcs and MaxNodes, true of any file without a header).
func TestEmptyTrace(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "SDSC-SP2-1998-4.2-cln.swf.gz"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := clitest.Exec(run, "", "-traces", dir, "-tables", "VI", "-quick")
	if r.Code != cli.ExitError || !strings.Contains(r.Stderr, "SDSC-SP2-1998-4.2-cln.swf.gz: no job lines") {
		t.Errorf("exit %d, stderr %q; want %d and no job lines", r.Code, r.Stderr, cli.ExitError)
	}
}

// TestTracesNotADirectory: a -traces that does not exist, or is a file,
// fails at once with nothing on stdout (it printed a "not found; skipped"
// line per paper trace, then said no trace was found).
func TestTracesNotADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(t.TempDir(), "none"), file} {
		r := clitest.Exec(run, "", "-traces", dir, "-tables", "VI", "-quick")
		if r.Code != cli.ExitError || r.Stdout != "" || !strings.Contains(r.Stderr, "trace directory") || !strings.Contains(r.Stderr, dir) {
			t.Errorf("-traces %s: exit %d, stdout %q, stderr %q; want %d, nothing on stdout, the directory named", dir, r.Code, r.Stdout, r.Stderr, cli.ExitError)
		}
	}
}

// TestProgress: -progress draws the bar on stderr (a short run's too, with
// the quiet second set to 0) and leaves stdout byte for byte as without it.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	clitest.WriteTrace(t, dir, "SDSC-SP2-1998-4.2-cln.swf.gz", 300, 16)
	args := []string{"-traces", dir, "-tables", "VI", "-quick"}
	clitest.Progress(t, run, args...)
}
