package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/internal/jobid"
)

// writeNumbered writes n jobs on 16 processors (64 when the name says
// 64), ten minutes apart (about
// 10 days), job i numbered id(i); every 10th has no estimate
// (estimate_filled). Job 0 runs two days, live at every arrival of the
// trials' window.
func writeNumbered(t *testing.T, dir, name string, n int, id func(int) int64) string {
	t.Helper()
	var b strings.Builder
	procs := 16
	if strings.Contains(name, "64") { // Table 6.2's trials ask up to 48
		procs = 64
	}
	fmt.Fprintf(&b, "; MaxProcs: %d\n", procs)
	for i := range n {
		run, est := 600, 1200
		if i == 0 {
			run, est = 2*86400, 2*86400
		}
		if i%10 == 5 {
			est = -1
		}
		fmt.Fprintf(&b, "%d %d 0 %d 2 -1 -1 2 %d -1 1 1 1 1 1 -1 -1 -1\n", id(i), 600*i, run, est)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The heading says, per machine, the jobs the simulator's rules changed
// among those the trials load, in the text and in -json, as simulate and
// forecast say them: a log without numbers said nothing of the numbers
// made up for it. The trials (-days 9, 4 h lead) load the jobs submitted
// by day 9 and 8 h: 1,345 of the 1,500; Table 6.2's (-json, leads up to
// 12 h) those by day 10: 1,441.
func TestChangedSaid(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16)
	b := writeNumbered(t, dir, "b.swf", 1500, func(int) int64 { return -1 })
	want := "Jobs changed per rule, of those the trials load: a.swf: none; b.swf: estimate_filled 134, id_made_up 1345."
	var out bytes.Buffer
	if err := reproduce(&out, options{paths: []string{a, b}, days: 9, count: 2, step: 30, trials: table62[:1]}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, out.String())
	}
	// -json: the heading's line is a text line of the first section.
	a, b = clitest.WriteTrace(t, dir, "a64.swf", 1500, 64), writeNumbered(t, dir, "b64.swf", 1500, func(int) int64 { return -1 })
	want = "Jobs changed per rule, of those the trials load: a64.swf: none; b64.swf: estimate_filled 144, id_made_up 1441."
	var js, errs bytes.Buffer
	if code := run(context.Background(), []string{"-trace", a + "," + b, "-days", "9", "-json", "-step", "30"}, strings.NewReader(""), &js, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var r struct {
		Sections []struct{ Text []string }
	}
	if err := json.Unmarshal(js.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Sections) == 0 || !strings.Contains(strings.Join(r.Sections[0].Text, "\n"), want) {
		t.Errorf("-json lacks %q:\n%s", want, js.String())
	}
}

// Hostile numbers: a log of -1, 0 and numbers, one with numbers repeated,
// one with a real 10^18 + 2 that line 2's made-up number is while job 1
// is live. No panic; the jobs left out before are said on the warning
// writer, those the simulator rejects in the heading.
func TestHostileNumbersSaid(t *testing.T) {
	dir := t.TempDir()
	a := clitest.WriteTrace(t, dir, "a.swf", 1500, 16)
	for _, c := range []struct {
		name       string
		id         func(int) int64
		want, warn string
	}{
		{"mixed", func(i int) int64 { return []int64{int64(i + 1), -1, 0}[i%3] }, "mixed.swf: estimate_filled 134, id_made_up 896.", ""},
		{"dups", func(i int) int64 { return int64(1 + i%500) }, "dups.swf: estimate_filled 50.", "dups.swf: 500 of 1500 jobs simulated: 1000 duplicate ID"},
		{"big", func(i int) int64 { return []int64{jobid.MadeUp(2), -1}[min(i, 1)] }, "big.swf: estimate_filled 134, id_made_up 1343 (rejected by the simulator: 1 duplicate ID).", ""},
	} {
		p := writeNumbered(t, dir, c.name+".swf", 1500, c.id)
		var out, warn bytes.Buffer
		if err := reproduce(&out, options{paths: []string{a, p}, days: 9, count: 2, step: 30, trials: table62[:1], warn: &warn}); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !strings.Contains(out.String(), c.want) || !strings.Contains(warn.String(), c.warn) {
			t.Errorf("%s: output lacks %q or warnings %q:\n%s\n%s", c.name, c.want, c.warn, out.String(), warn.String())
		}
	}
}
