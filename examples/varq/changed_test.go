package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/jobid"
	"github.com/batchq/batchq/internal/tracetest"
)

// writeRuleLog writes n jobs on 8 processors, a minute apart, job i
// numbered id(i): every 10th without an estimate (estimate_filled) and
// every 7th without allocated processors (size_from_requested). Job 0
// runs a day, so that it is live at every later arrival.
func writeRuleLog(t *testing.T, n int, id func(int) int64) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := range n {
		run, alloc, est := 900, 2, 1800
		if i == 0 {
			run, est = 86400, 86400
		}
		if i%10 == 5 {
			est = -1
		}
		if i%7 == 3 {
			alloc = -1
		}
		fmt.Fprintf(&b, "%d %d 0 %d %d -1 -1 2 %d -1 1 1 1 1 1 -1 -1 -1\n", id(i), 60*i, run, alloc, est)
	}
	p := filepath.Join(t.TempDir(), "rules.swf")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The heading says the jobs the simulator's rules changed in the run
// without VARQ, as simulate and forecast do, in the text and in -json: a
// log without numbers said nothing of the 300 numbers made up for it (nor
// of the estimates filled in and the sizes taken from the requested
// processors).
func TestChangedSaid(t *testing.T) {
	const n = 300
	path := writeRuleLog(t, n, func(int) int64 { return -1 })
	want := "jobs changed per rule: estimate_filled 30, id_made_up 300, size_from_requested 43."
	for _, asJSON := range []bool{false, true} {
		args := []string{"-trace", path, "-fractions", "0.1", "-targets", "0.5"}
		if asJSON {
			args = append(args, "-json")
		}
		var out, errs bytes.Buffer
		if err := commandIn(args, strings.NewReader(""), &out, &errs); err != nil {
			t.Fatal(err)
		}
		text := out.String()
		if asJSON {
			var r struct {
				Sections []struct{ Text []string }
			}
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			text = fmt.Sprint(r.Sections)
		}
		if !strings.Contains(text, want) {
			t.Errorf("-json %v: output lacks %q:\n%s", asJSON, want, text)
		}
		if !strings.Contains(errs.String(), "jobs changed per rule: ") {
			t.Errorf("-json %v: the cells' progress lines say no rule counts:\n%s", asJSON, errs.String())
		}
	}
}

// Hostile numbers: a log of -1s, of -1, 0 and numbers, with numbers
// repeated, and with a real number 10^18 + 2 that line 2's made-up number
// is (while job 1 is live). No panic, and every job read is said: sane
// (simulated, or rejected by the simulator, counted) or left out, counted.
func TestHostileNumbersSaid(t *testing.T) {
	const n = 200
	for _, c := range []struct {
		name string
		id   func(int) int64
		want []string
	}{
		{"all -1", func(int) int64 { return -1 }, []string{"200 sane jobs (0 not sane, 0 beyond", "id_made_up 200"}},
		{"mixed", func(i int) int64 { return []int64{int64(i + 1), -1, 0}[i%3] }, []string{"200 sane jobs (0 not sane, 0 beyond", "id_made_up 133"}},
		{"duplicates", func(i int) int64 { return int64(1 + i%50) }, []string{"50 sane jobs (0 not sane, 150 duplicate ID, 0 beyond", "size_from_requested"}},
		{"10^18 + 2", func(i int) int64 { return []int64{jobid.MadeUp(2), -1}[min(i, 1)] }, []string{"200 sane jobs (0 not sane, 0 beyond",
			"id_made_up 198, size_from_requested 29; rejected by the simulator: 1 duplicate ID."}}, // (199 without a number: one rejected)
	} {
		path := writeRuleLog(t, n, c.id)
		var out, errs bytes.Buffer
		if err := commandIn([]string{"-trace", path, "-fractions", "0.5", "-targets", "0.5"}, strings.NewReader(""), &out, &errs); err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out.String())
			}
		}
	}
}

// A copy of CTC-SP2 whose job numbers are all -1 gives the original's
// cells: the simulator numbers its jobs 10^18 + n and orders the arrivals
// of one instant by number, and the agent's jobs now come after them, as
// after the original's (cli.AgentFirstID). The agent numbered from 1, before
// every made-up number, and the cells differed (50 %, 0.50: 3,109 requests
// accepted, 3,104 without numbers; `varq -jobs 8000` differed in 3 of 4
// cells).
func TestNoNumbersSameCells(t *testing.T) {
	if testing.Short() {
		t.Skip("four VARQ simulations of 8,000 jobs of CTC-SP2")
	}
	w, err := loadWorkload(tracetest.Path(t, tracetest.CTC), 8000, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	neg := w
	neg.jobs = slices.Clone(w.jobs)
	for i := range neg.jobs {
		neg.jobs[i].ID = -1
	}
	for _, c := range []struct{ f, q float64 }{{0.1, 0.95}, {0.5, 0.5}} {
		a, err := simulate(w, c.f, c.q, options{seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		b, err := simulate(neg, c.f, c.q, options{seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if n := b.changed["id_made_up"]; n < len(w.jobs)/4 || a.changed["id_made_up"] != 0 {
			t.Errorf("%v: %d numbers made up (%d in the original)", c, n, a.changed["id_made_up"])
		}
		if a.Summary != b.Summary || a.makespan != b.makespan || a.wait != b.wait || a.dropped != b.dropped {
			t.Errorf("%v: without numbers %+v, makespan %d, wait %.0f; want %+v, %d, %.0f", c, b.Summary, b.makespan, b.wait, a.Summary, a.makespan, a.wait)
		}
	}
}

// The jobs the sane filter leaves out are said with their reasons on
// standard error, as coalloc says its left-out jobs: the heading counts
// them ("60 not sane"), and nothing said why (a time past 2^40 s, no size,
// larger than the machine, …).
func TestNotSaneReasonsSaid(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 16\n")
	for i := range 200 {
		run, size := 300+(i*53)%3000, 1+i%16
		switch i % 10 {
		case 3:
			run = 1 << 62
		case 7:
			size = 32
		}
		fmt.Fprintf(&b, "%d %d %d %d %d -1 -1 %d %d -1 1 %d 1 -1 1 -1 -1 -1\n", i+1, 600*i, (i*37)%900, run, size, size, 4000, 1+i%5)
	}
	path := filepath.Join(t.TempDir(), "notsane.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := commandIn([]string{"-trace", path, "-fractions", "0.5", "-targets", "0.5"}, strings.NewReader(""), &out, &errs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "160 sane jobs (40 not sane") ||
		!strings.Contains(errs.String(), "varq: notsane.swf: 40 of 200 jobs not sane: 20 larger than machine, 20 time out of range") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	}
}
