package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// -model shuffle cuts run times above E_max and counts them, as the other
// models do, and says how many jobs had no estimate and got E_max: it cut
// them uncounted (OSC-Clust with -emax 18h: "0 run times truncated", 3896
// cut) and said nothing of the filled estimates but -json's
// estimates_missing. A log without any estimate is a degenerate shuffle
// (every job gets E_max), said in a warning in the text and in -json.
func TestShuffleCounts(t *testing.T) {
	dir := t.TempDir()
	write := func(name, log string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	some := write("some.swf", "; MaxProcs: 8\n"+
		"1 0 0 100 1 -1 -1 1 7200 -1 1 1 1 1 1 -1 -1 -1\n"+
		"2 10 0 9000 1 -1 -1 1 -1 -1 1 1 1 1 1 -1 -1 -1\n"+ // no estimate, runs past E_max
		"3 20 0 8000 1 -1 -1 1 3600 -1 1 1 1 1 1 -1 -1 -1\n"+ // runs past E_max
		"4 30 0 300 2 -1 -1 2 -1 -1 1 1 1 1 1 -1 -1 -1\n") // no estimate
	none := write("none.swf", "; MaxProcs: 8\n"+
		"1 0 0 100 1 -1 -1 1 -1 -1 1 1 1 1 1 -1 -1 -1\n"+
		"2 10 0 300 1 -1 -1 1 -1 -1 1 1 1 1 1 -1 -1 -1\n")
	type report struct {
		Truncated int      `json:"run_times_truncated"`
		Missing   int      `json:"estimates_missing"`
		Warnings  []string `json:"warnings"`
	}
	for _, c := range []struct {
		in                 string
		truncated, missing int
		degenerate         bool
	}{{some, 2, 2, false}, {none, 0, 2, true}} {
		out := filepath.Join(dir, "out.swf")
		var stdout, errs bytes.Buffer
		if err := command(t.Context(), []string{"-trace", c.in, "-model", "shuffle", "-emax", "7200", "-out", out, "-json"}, &stdout, &errs); err != nil {
			t.Fatal(err)
		}
		var r report
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		text := errs.String()
		if r.Truncated != c.truncated || !strings.Contains(text, "; "+strconv.Itoa(c.truncated)+" run times truncated to E_max") {
			t.Errorf("%s: run_times_truncated %d, text %q; want %d", filepath.Base(c.in), r.Truncated, text, c.truncated)
		}
		if r.Missing != c.missing || !strings.Contains(text, strconv.Itoa(c.missing)+" jobs without an estimate in the log given E_max before the shuffle") {
			t.Errorf("%s: estimates_missing %d, text %q; want %d said in the text", filepath.Base(c.in), r.Missing, text, c.missing)
		}
		warned := len(r.Warnings) == 1 && strings.HasPrefix(r.Warnings[0], "degenerate shuffle") && strings.Contains(text, "warning: degenerate shuffle")
		if warned != c.degenerate {
			t.Errorf("%s: warnings %q, text %q; want a degenerate-shuffle warning: %v", filepath.Base(c.in), r.Warnings, text, c.degenerate)
		}
		_, jobs, err := swf.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range jobs {
			if j.RunTime > 7200 || j.ReqTime <= 0 || j.ReqTime > 7200 {
				t.Errorf("%s: job %d runs %d s with estimate %d s; want both within E_max 7200 s", filepath.Base(c.in), j.ID, j.RunTime, j.ReqTime)
			}
		}
	}
}
