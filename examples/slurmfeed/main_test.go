package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
)

const recordingPath = "testdata/live.jsonl.gz"

// TestReadmeFigures replays the recorded live run and checks that the
// README's generated section is what the command prints, and what the run
// fed: the 19 jobs of the workload, nothing skipped, nothing late.
func TestReadmeFigures(t *testing.T) {
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	orig, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(readme, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"-poll", "2s", "-replay", recordingPath, "-readme", readme, "-json"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.Bytes())
	}
	got, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, orig) {
		t.Errorf("README.md's figures are not what the replay prints; regenerate them with\n  %s",
			strings.TrimSuffix(strings.TrimPrefix(beginMark[strings.Index(beginMark, "`"):], "`"), "`) -->\n"))
	}
	var r reportJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Events["submit"] != 19 || r.Events["start"] != 18 || r.Events["end"] != 19 || r.Events["queue"] != 2 {
		t.Errorf("events %v, want 19 submits, 18 starts (one job cancelled while waiting), 19 ends, 2 queues", r.Events)
	}
	if r.Late != 0 || len(r.Skipped) != 0 || len(r.NotDue) != 0 || r.Errors != 0 {
		t.Errorf("late %d, skipped %v, not due %v, errors %d", r.Late, r.Skipped, r.NotDue, r.Errors)
	}
	for _, m := range r.Methods {
		if m.Jobs == 0 {
			t.Errorf("%s scored no job", m.Name)
		}
	}
}

func TestUsage(t *testing.T) {
	// A token in the environment (the documented $SLURMFEED_TOKEN) would
	// make -service http://x a refusal of its own (checkService).
	t.Setenv("SLURMFEED_TOKEN", "")
	for _, args := range [][]string{
		{"extra"},
		{"-service", "http://x"},
		{"-service", "http://x", "-cursor", "c", "-listen", ":0"},
		{"-replay", "r", "-cursor", "c"},
		{"-poll", "0s"},
		{"-nosuchflag"},
	} {
		err := run(context.Background(), args, &bytes.Buffer{}, &bytes.Buffer{})
		var u cli.UsageError
		if !errors.As(err, &u) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	err := run(context.Background(), []string{"-replay", "testdata/no-such-file"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "no-such-file") {
		t.Errorf("missing recording: %v", err)
	}
}

// A -system the service refuses is a usage error at start, naming the
// flag and the service's rule, not a run whose every batch is rejected.
func TestBadSystem(t *testing.T) {
	for _, sys := range []string{"a b", "..", "x/y", "", strings.Repeat("x", 65)} {
		var out, errb bytes.Buffer
		code := command(context.Background(), []string{"-poll", "2s", "-replay", recordingPath, "-system", sys}, nil, &out, &errb)
		if code != 2 || !strings.Contains(errb.String(), "-system") {
			t.Errorf("-system %q: exit %d, stderr %q; want 2 and a message naming -system", sys, code, errb.String())
		}
		if sys != "" && !strings.Contains(errb.String(), "letters, digits") {
			t.Errorf("-system %q: stderr %q does not give the rule", sys, errb.String())
		}
	}
}

// Another setting the collector refuses is a usage error too, but its
// message does not blame the service's rule for names.
func TestBadSettingNotSystem(t *testing.T) {
	for _, flag := range [][]string{{"-quantile", "100"}, {"-confidence", "99"}, {"-probe", "31m"}} {
		var out, errb bytes.Buffer
		args := append([]string{"-poll", "2s", "-replay", recordingPath}, flag...)
		code := command(context.Background(), args, nil, &out, &errb)
		if code != 2 || strings.Contains(errb.String(), "refuses a batch naming it") || strings.Contains(errb.String(), "-system") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and no word of -system", flag, code, errb.String())
		}
	}
}

func TestCLI(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.jsonl.gz")
	clitest.Run(t, clitest.Command{Run: command, NoArgs: true,
		JSON:    []string{"-poll", "2s", "-replay", recordingPath, "-json"},
		Missing: []string{"-replay", missing}, File: missing, JSONCheckedBy: "TestReadmeFigures"})
}

// -record - and -cursor - are usage errors: both made a file named "-"
// in the working directory (standard output carries the report). parse
// alone is run: without the check the command would feed until stopped.
func TestDashFiles(t *testing.T) {
	t.Setenv("SLURMFEED_TOKEN", "") // else -service http://x is refused first, for the token
	for _, args := range [][]string{{"-record", "-"}, {"-cursor", "-", "-service", "http://x"}} {
		_, err := parse(args, &bytes.Buffer{})
		var u cli.UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "-record -, -cursor -") {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}
