package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/examples/internal/cli/clitest"
	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// A log whose jobs name several partitions is simulated as one pool and
// says so, in text and -json, with the jobs by partition and the header's
// names; -partition simulates one alone on a guessed size, said. It was
// simulated as one pool of 400 without a word.
func TestPartitionsSaid(t *testing.T) {
	p := clitest.DAS2File(t, 4, true)
	code, out, errs := runCmd(t, p)
	for _, re := range []string{
		`(?m)^partitions +the jobs name 5 partitions \(SWF field 16; jobs: 12 in partition 1 fs0, 4 in partition 2 fs1, 4 in partition 3 fs2, 4 in partition 4 fs3, 4 in partition 5 fs4\); ` +
			`simulated as one pool of 400 processors \(header MaxProcs\), the archive's reading when they share one machine; ` +
			`if they are separate machines \(clusters\), simulate -partition N simulates one alone$`,
		`(?m)^simulated +28$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("exit %d, stderr %q; text lacks %s, got:\n%s", code, errs, re, out)
		}
	}
	want := &cli.Partitions{Pool: 400, ByPartition: []cli.PartitionJobs{
		{Number: 1, Name: "fs0", Jobs: 12, Largest: 48},
		{Number: 2, Name: "fs1", Jobs: 4, Largest: 16},
		{Number: 3, Name: "fs2", Jobs: 4, Largest: 24},
		{Number: 4, Name: "fs3", Jobs: 4, Largest: 32},
		{Number: 5, Name: "fs4", Jobs: 4, Largest: 40},
	}}
	// The whole-trace path (-check) says the same as the streamed one.
	for _, args := range [][]string{{p, "-json"}, {p, "-check", "-json"}} {
		code, out, errs := runCmd(t, args...)
		if got := clitest.PartitionsOf(t, out); code != 0 || !json.Valid([]byte(out)) || !reflect.DeepEqual(got, want) {
			t.Errorf("%v: exit %d, %s; -json (one JSON value) partitions %+v\nwant %+v\n%s", args[1:], code, errs, got, want, out)
		}
	}

	// -partition 1: fs0 alone, on the most processors its jobs held at
	// once (144), else (no waits logged) on its largest job (48).
	for _, c := range []struct {
		wait    bool
		machine float64
		guess   string
	}{{true, 144, "peak logged use"}, {false, 48, "largest job"}} {
		q := clitest.DAS2File(t, 4, c.wait)
		m := runJSON(t, q, "-partition", "1")
		sel := map[string]any{"partition": 1.0, "name": "fs0", "jobs": 12.0, "left_out": 16.0, "size_guess": c.guess}
		if !reflect.DeepEqual(m["partition"], sel) || m["machine"] != c.machine || m["jobs_simulated"] != 12.0 || m["partitions"] != nil {
			t.Errorf("waits %v: -partition 1: partition %v machine %v (%v) simulated %v partitions %v; want %v on %v",
				c.wait, m["partition"], m["machine"], m["machine_from"], m["jobs_simulated"], m["partitions"], sel, c.machine)
		}
		if from, _ := m["machine_from"].(string); !strings.Contains(from, "a guess") || !strings.Contains(from, "partition 1 fs0") {
			t.Errorf("machine_from %q does not say the size is a guess for partition 1 fs0", from)
		}
	}
	// -machine gives the size: no guess.
	if m := runJSON(t, p, "-partition", "2", "-machine", "64"); m["machine"] != 64.0 || m["machine_from"] != "-machine" {
		t.Errorf("-partition 2 -machine 64: machine %v from %v", m["machine"], m["machine_from"])
	}
	code, out, errs = runCmd(t, p, "-partition", "1")
	if !regexp.MustCompile(`(?m)^partition +1 fs0 alone \(-partition\): 12 jobs, 16 of other partitions or of none left out$`).MatchString(out) {
		t.Errorf("-partition 1: exit %d, stderr %q, text:\n%s", code, errs, out)
	}
	code, _, errs = runCmd(t, p, "-partition", "9")
	if code != 1 || !strings.Contains(errs, "-partition 9: no job names partition 9 (the log's: 1 fs0: 12 jobs, 2 fs1: 4 jobs") {
		t.Errorf("-partition 9: exit %d, stderr %q", code, errs)
	}
	if code, _, errs = runCmd(t, p, "-partition", "-1"); code != 2 {
		t.Errorf("-partition -1: exit %d, want 2 (usage), stderr %q", code, errs)
	}
}

// A log of one partition, or of none (field 16 -1), says nothing of
// partitions: no text line, no -json key.
func TestOnePartitionSilent(t *testing.T) {
	dir := t.TempDir()
	one := strings.ReplaceAll(small, "-1 -1 -1 -1 -1\n", "-1 -1 3 -1 -1\n")
	for name, text := range map[string]string{"none": small, "one": one} {
		p := writeTrace(t, dir, name+".swf", text)
		_, out, _ := runCmd(t, p)
		if strings.Contains(out, "partition") {
			t.Errorf("%s: text speaks of partitions:\n%s", name, out)
		}
		if m := runJSON(t, p); m["partitions"] != nil || m["partition"] != nil {
			t.Errorf("%s: -json partitions %v partition %v", name, m["partitions"], m["partition"])
		}
	}
}

// SDSC-Par's batch and interactive partitions, named by the header, are
// said with their jobs; its batch partition alone gets the header's 400
// (its jobs held more at once in the log: the log's own schedule exceeds
// the machine at times).
func TestPartitionsSDSCPar(t *testing.T) {
	p := tracetest.Path(t, tracetest.SDSCPar)
	m := runJSON(t, p, "-policy", "fcfs")
	want := []any{
		map[string]any{"partition": 1.0, "name": "interactive", "jobs": 13694.0, "largest_job": 129.0},
		map[string]any{"partition": 2.0, "name": "batch", "jobs": 18441.0, "largest_job": 320.0},
	}
	if ps, _ := m["partitions"].(map[string]any); !reflect.DeepEqual(ps["by_partition"], want) || ps["one_pool_processors"] != 400.0 {
		t.Errorf("partitions %v, want %v on 400", m["partitions"], want)
	}
}

// TestReadmePartitions pins the README's SDSC-Par lines: the partitions
// line of a run as one pool, and the machine and partition lines of each
// partition alone (BATCHQ_UPDATE_README=1 rewrites them).
func TestReadmePartitions(t *testing.T) {
	p := tracetest.Path(t, tracetest.SDSCPar)
	var b strings.Builder
	b.WriteString("```\n")
	for _, args := range [][]string{{}, {"-partition", "1"}, {"-partition", "2"}} {
		args = append([]string{"-policy", "fcfs", p}, args...)
		code, out, errs := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		fmt.Fprintf(&b, "$ simulate %s\n", strings.Join(append(args[:2:2], append([]string{"SDSC-Par-1996-3.1-cln.swf.gz"}, args[3:]...)...), " "))
		for _, l := range strings.Split(out, "\n") {
			for _, k := range []string{"machine ", "partition", "simulated  ", "mean wait "} {
				if strings.HasPrefix(l, k) {
					b.WriteString(l + "\n")
				}
			}
		}
	}
	b.WriteString("```\n")
	readme.Check(t, "README.md", "partitions", []byte(b.String()))
}

// A partition whose every job is rejected says so of its own jobs, not
// of every job read (the others were left out, not rejected).
func TestPartitionNothingSimulated(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "two.swf", "; MaxProcs: 8\n"+
		"1 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n"+
		"2 10 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 1 -1 -1\n"+
		"3 20 0 -1 4 -1 -1 4 200 -1 1 1 1 -1 1 2 -1 -1\n")
	code, _, errs := runCmd(t, p, "-partition", "2")
	if want := "no job was simulated: every one of the 1 of partition 2 was rejected (1 no run time)"; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want %q", code, errs, want)
	}
}

// A partition whose largest job is larger than the header's machine gets
// the machine's size, and says why.
func TestPartitionSizeOverHeader(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "over.swf", "; MaxProcs: 100\n"+
		"1 0 0 100 150 -1 -1 150 200 -1 1 1 1 -1 1 1 -1 -1\n"+
		"2 10 -1 100 40 -1 -1 40 200 -1 1 1 1 -1 1 1 -1 -1\n"+
		"3 20 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 2 -1 -1\n")
	m := runJSON(t, p, "-partition", "1")
	sel, _ := m["partition"].(map[string]any)
	from, _ := m["machine_from"].(string)
	if m["machine"] != 100.0 || sel["size_guess"] != "header" || sel["size_guess_over_header"] != "largest job" ||
		!strings.Contains(from, "its largest job is larger") {
		t.Errorf("machine %v from %q, partition %v", m["machine"], from, sel)
	}
}

// A job's partial-execution lines (status 2, 3, 4), which the summary
// line's counts, do not add to the partition's peak: 16 held at once,
// not 32.
func TestPartitionSizePartialLines(t *testing.T) {
	p := writeTrace(t, t.TempDir(), "partial.swf", "; MaxProcs: 100\n"+
		"1 0 0 200 16 -1 -1 16 300 -1 1 1 1 -1 1 1 -1 -1\n"+
		"1 0 0 100 16 -1 -1 16 300 -1 2 1 1 -1 1 1 -1 -1\n"+
		"1 0 100 100 16 -1 -1 16 300 -1 3 1 1 -1 1 1 -1 -1\n"+
		"2 0 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 2 -1 -1\n")
	if m := runJSON(t, p, "-partition", "1"); m["machine"] != 16.0 {
		t.Errorf("machine %v from %v, want 16 (the summary line's)", m["machine"], m["machine_from"])
	}
}

// A header whose machine size cannot be read (no size line, one not a
// size, one above 2^40) bounds no partition's guess: the guess says so,
// in text and -json, where it was taken unbounded without a word.
func TestPartitionSizeHeaderUnread(t *testing.T) {
	jobs := "1 0 0 100 150 -1 -1 150 200 -1 1 1 1 -1 1 1 -1 -1\n" +
		"2 10 0 100 40 -1 -1 40 200 -1 1 1 1 -1 1 1 -1 -1\n" +
		"3 20 0 100 4 -1 -1 4 200 -1 1 1 1 -1 1 2 -1 -1\n"
	dir := t.TempDir()
	for name, c := range map[string]struct{ header, why string }{
		"abc":  {"; MaxProcs: abc\n", `header line "; MaxProcs: abc" gives no machine size`},
		"huge": {"; MaxProcs: 2000000000000\n", "machine size 2000000000000 above 2^40 processors"},
		"none": {"; Computer: a\n", "header has neither MaxProcs nor MaxNodes"},
	} {
		p := writeTrace(t, dir, name+".swf", c.header+jobs)
		m := runJSON(t, p, "-partition", "1")
		sel, _ := m["partition"].(map[string]any)
		from, _ := m["machine_from"].(string)
		why, _ := sel["header_size_unread"].(string)
		if m["machine"] != 190.0 || !strings.HasPrefix(why, c.why) || !strings.Contains(from, "not bounded by the header's whole machine, unread: "+c.why) {
			t.Errorf("%s: machine %v from %q, header_size_unread %q; want 190, the guess unbounded, said: %s", name, m["machine"], from, why, c.why)
		}
		_, out, _ := runCmd(t, p, "-partition", "1")
		if !regexp.MustCompile(`(?m)^machine +190 processors \(a guess: .*; not bounded by the header's whole machine, unread: ` + regexp.QuoteMeta(c.why)).MatchString(out) {
			t.Errorf("%s: text:\n%s", name, out)
		}
	}
	// A header that gives the size says nothing of it.
	p := writeTrace(t, dir, "ok.swf", "; MaxProcs: 1000\n"+jobs)
	if m := runJSON(t, p, "-partition", "1"); m["machine"] != 190.0 || m["partition"].(map[string]any)["header_size_unread"] != nil {
		t.Errorf("readable header: machine %v partition %v", m["machine"], m["partition"])
	}
}
