package slurmfeed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// What sbatch --test-only prints, in several Slurm versions' wording and
// time formats, and what is made of it.
func TestParseTestOnly(t *testing.T) {
	iso := time.Date(2026, 11, 24, 9, 10, 0, 0, time.Local).Unix()
	for _, c := range []struct {
		out  string
		want int64
		why  string
	}{
		// 18.08 and later (22.05, 23.11, 24.05): with the partition.
		{"sbatch: Job 123 to start at 2026-11-24T09:10:00 using 4 processors on nodes n1 in partition debug\n", iso, ""},
		// SLURM_TIME_FORMAT=%s (Exec sets it).
		{"sbatch: Job 0 to start at 1795425000 using 1 processors on nodes c[1-4] in partition batch\n", 1795425000, ""},
		// 17.11 and earlier: no partition.
		{"sbatch: Job 77 to start at 2026-11-24T09:10:00 using 16 processors on nodes n[1-2]", iso, ""},
		// Warnings first, the preempted jobs after.
		{"sbatch: Warning: can't honor --ntasks-per-node set to 2\nsbatch: Job 9 to start at 1795425000 using 2 processors on nodes n1 in partition p\n  Preempts: 12 13\n", 1795425000, ""},
		// A job_submit plugin's message on its own line.
		{"sbatch: please use --account\r\nsbatch: Job 9 to start at 1795425000 using 2 processors on nodes n1 in partition p\r\n", 1795425000, ""},
		{"sbatch: Job 9 to start at Unknown using 2 processors on nodes  in partition p\n", 0, "start Unknown"},
		{"sbatch: Job 9 to start at Tomorr 09:10 using 2 processors on nodes n1\n", 0, "unreadable start time"},
		{"sbatch: Job 9 to start at 24.11.2026 09:10 using 2 processors\n", 0, "unreadable start time"},
		{"sbatch: Job 9 to start at 99999999999999999999999 using 2 processors\n", 0, "unreadable start time"},
		{"sbatch: Job 9 to start at 9000000000 using 2 processors\n", 0, "out of range"},
		{"sbatch: Job 9 to start at -5 using 2 processors\n", 0, "out of range"},
		{"sbatch: Job 9 to start at \n", 0, "no time after"},
		{"sbatch: error: Batch job submission failed: Requested node configuration is not available\n", 0, "no \"to start at\""},
		{"", 0, "no \"to start at\""},
		{"\x00\xff\xfe to start at\xff", 0, "no \"to start at\""},
		{strings.Repeat("x", 1<<16), 0, "no \"to start at\""},
	} {
		got, why := parseTestOnly([]byte(c.out))
		if got != c.want || (c.why == "") != (why == "") || !strings.Contains(why, c.why) {
			t.Errorf("%.80q: %d %q, want %d %q", c.out, got, why, c.want, c.why)
		}
	}
}

func FuzzParseTestOnly(f *testing.F) {
	f.Add([]byte("sbatch: Job 123 to start at 2026-11-24T09:10:00 using 4 processors on nodes n1 in partition debug\n"))
	f.Add([]byte("sbatch: Job 0 to start at 1795425000 using 1 processors"))
	f.Fuzz(func(t *testing.T, b []byte) {
		start, why := parseTestOnly(b)
		if why == "" && (start < 1 || start > maxSlurmTime) {
			t.Fatalf("start %d accepted", start)
		}
		if len(why) > 100 {
			t.Fatalf("reason of %d bytes: a reason must be one of a few", len(why))
		}
	})
}

func TestProbeShapes(t *testing.T) {
	for _, c := range []struct {
		max  int64
		want []int64
	}{
		{1, []int64{1}},
		{3, []int64{1, 2, 3}},
		{8, []int64{1, 2, 4, 8}},
		{128, []int64{1, 2, 4, 8, 16, 32, 64, 128}},
		{130, []int64{1, 4, 16, 64, 130}},
		{100000, []int64{1, 8, 64, 512, 4096, 32768, 100000}},
		{1 << 40, []int64{1, 64, 4096, 1 << 18, 1 << 24, 1 << 30, 1 << 36, 1 << 40}},
	} {
		got := defaultCores(c.max)
		if !slices.Equal(got, c.want) || len(got) > maxProbeCores {
			t.Errorf("%d CPUs: %v, want %v", c.max, got, c.want)
		}
	}
	c := &Collector{}
	if got := c.shapes(partition{"p", 2, 7230}); fmt.Sprint(got) != "[{p 1 600} {p 1 3600} {p 1 7200} {p 2 600} {p 2 3600} {p 2 7200}]" {
		t.Errorf("2 CPUs, 2 h 30 s: %v", got)
	}
	if got := c.shapes(partition{"p", 1, 120}); fmt.Sprint(got) != "[{p 1 120}]" {
		t.Errorf("1 CPU, 2 min: %v", got)
	}
	if got := c.shapes(partition{"p", 1, 30}); len(got) != 0 {
		t.Errorf("a 30 s limit: %v, want none (sbatch takes whole minutes)", got)
	}
	if got := c.shapes(partition{"p", 1, unlimitedWall}); fmt.Sprint(got) != "[{p 1 600} {p 1 3600}]" {
		t.Errorf("unlimited: %v", got)
	}
	c.cfg.ProbeCores, c.cfg.ProbeWalls = []int64{2, 64}, []time.Duration{90 * time.Second, time.Hour}
	if got := c.shapes(partition{"p", 8, 3600}); fmt.Sprint(got) != "[{p 2 60} {p 2 3600}]" {
		t.Errorf("configured: %v", got)
	}
}

// probeTest is a collector on the scenario's cluster whose sbatch
// --test-only answers a start wait(part, cores, minutes) seconds after
// the clock, with the settings of cfg.
func probeTest(t *testing.T, cfg Config, wait func(part string, cores, mins int64) (int64, error)) (*Collector, *tapService, *clock, *fakeSlurm) {
	t.Helper()
	f := scenario()
	clk := &clock{t: t0 + 30}
	f.testOnly = func(part string, cores, mins int64) ([]byte, error) {
		w, err := wait(part, cores, mins)
		if err != nil {
			return nil, err
		}
		return fmt.Appendf(nil, "sbatch: Job 0 to start at %d using %d processors on nodes n1 in partition %s\n", clk.unix()+w, cores, part), nil
	}
	tp := newTap(t, clk.unix)
	cfg.System, cfg.Service, cfg.Runner, cfg.Now, cfg.Since = "c1", tp, f, clk.now, time.Hour
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A round takes no time: with the real one, a machine that stalled
	// a round for a second dated its later probes a second late.
	c.roundClockForTests = func(time.Time) time.Duration { return 0 }
	return c, tp, clk, f
}

// A probe is dated the poll's clock plus the time its round has taken
// (whole seconds), and a round that has taken longer than probeBudget
// asks no more, counting the shapes it left.
func TestProbesDatedByRound(t *testing.T) {
	c, tp, _, _ := probeTest(t, Config{}, func(string, int64, int64) (int64, error) { return 100, nil })
	looks := 0 // two a probe: the budget, then the date
	c.roundClockForTests = func(time.Time) time.Duration {
		looks++
		if looks > 6 {
			return probeBudget + time.Second
		}
		return time.Duration(looks/2) * 1500 * time.Millisecond
	}
	mustPoll(t, c)
	var got []int64
	for _, e := range estimates(tp.events) {
		got = append(got, e.Time-t0)
	}
	if fmt.Sprint(got) != "[31 33 34]" {
		t.Errorf("probes dated %v (seconds after t0), want [31 33 34]: the poll's t0+30 plus 1.5, 3 and 4.5 s, whole seconds", got)
	}
	if r := c.Report(); r.Probes["answered, sent"] != 3 || r.Probes[fmt.Sprintf("not asked: the round took longer than %v", probeBudget)] != 13 {
		t.Errorf("probes %v, want 3 sent and 13 not asked", r.Probes)
	}
}

// estimates are the probes' estimates among evs (not the jobs').
func estimates(evs []karnak.Event) []karnak.Event {
	return slices.DeleteFunc(slices.Clone(evs), func(e karnak.Event) bool { return e.Kind != "estimate" || e.Job != 0 })
}

// Every ProbeEvery the collector asks Slurm about each shape of each
// partition the service has declared, and sends the answers at once,
// dated when asked (estimates are out of band for the service); the
// service then shows them. An unchanged answer is not sent again until
// probeRefresh; failures are counted by reason.
func TestProbesFeedEstimates(t *testing.T) {
	wait := int64(100)
	c, tp, clk, f := probeTest(t, Config{}, func(part string, cores, mins int64) (int64, error) {
		switch {
		case part == "long" && cores == 8 && mins == 1440:
			return 0, errors.New("sbatch: exit status 1: sbatch: error: Requested time limit is invalid")
		case part == "long" && cores == 4 && mins == 1440:
			return -1 << 40, nil // out of range
		}
		return wait * cores, nil
	})
	mustPoll(t, c) // t0+30: the queues are declared, the first round asked and sent
	// short: 1, 2, 4, 8 cores × 2 min (10 min and 1 h are beyond it);
	// long: 4 sizes × 10 min, 1 h, 24 h, of which two fail.
	r := c.Report()
	if r.Probes["answered, sent"] != 14 || r.Probes["sbatch --test-only failed"] != 1 || r.Probes["sbatch --test-only: start time out of range"] != 1 {
		t.Fatalf("probes %v", r.Probes)
	}
	got := estimates(tp.events)
	if len(got) != 14 {
		t.Fatalf("%d estimates sent, want 14:\n%v", len(got), got)
	}
	for _, e := range got {
		if e.Time != t0+30 || e.Start != t0+30+wait*e.Cores || e.System != "c1" {
			t.Errorf("sent %+v", e)
		}
	}
	ps, err := tp.svc.PredictHypothetical(&karnak.PredictRequest{Cores: 3, WallTime: 1800, Quantile: 95, Confidence: 90,
		Locations: []karnak.Location{{System: "c1", Queue: "long"}, {System: "c1", Queue: "short"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := karnak.SlurmPart{Wait: 400, Start: t0 + 30 + 400, At: t0 + 30, Cores: 4, WallTime: 3600}
	if ps[0].Slurm == nil || *ps[0].Slurm != want {
		t.Errorf("long: %+v, want %+v", ps[0].Slurm, want)
	}
	if ps[1].Error == "" || ps[1].Slurm != nil { // 30 min is beyond short's limit
		t.Errorf("short: %+v", ps[1])
	}
	// Not before ProbeEvery.
	clk.advance(30)
	mustPoll(t, c)
	if n := f.calls["sbatch"]; n != 16 {
		t.Errorf("%d probes 30 s after the first 16", n)
	}
	// The next round, ProbeEvery later: only the answers that moved.
	round := int64(5 * time.Minute / time.Second)
	clk.advance(round - 30) // t0+330
	wait = 105              // 1 core: +5 s, unchanged; 8 cores: +40 s, unchanged
	mustPoll(t, c)
	if n := len(estimates(tp.events)); n != 14 {
		t.Errorf("unchanged answers sent again: %d estimates", n)
	}
	clk.advance(round) // t0+630
	wait = 200         // every answer moved by more than a minute or a tenth
	mustPoll(t, c)
	if n := len(estimates(tp.events)); n != 28 {
		t.Errorf("moved answers: %d estimates in all, want 28", n)
	}
	// probeRefresh later, unchanged answers are sent again.
	for range 3 {
		clk.advance(round)
		mustPoll(t, c)
	}
	if n := len(estimates(tp.events)); n != 42 {
		t.Errorf("after %d s: %d estimates in all, want 42 (each shape refreshed)", probeRefresh, n)
	}
	r = c.Report()
	if r.Probes["answered, unchanged (not sent again)"] != 14*3 || r.Skipped != nil || r.Errors != 0 {
		t.Errorf("report: probes %v, skipped %v, errors %d", r.Probes, r.Skipped, r.Errors)
	}
}

func TestProbesBounded(t *testing.T) {
	walls := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8}
	for i := range walls {
		walls[i] *= time.Minute
	}
	cores := []int64{1, 2, 3, 4, 5, 6, 7, 8}
	asked := map[string]int{}
	c, _, clk, f := probeTest(t, Config{ProbeCores: cores, ProbeWalls: walls, ProbeEvery: time.Minute},
		func(part string, cores, mins int64) (int64, error) {
			asked[fmt.Sprint(part, cores, mins)]++
			return 0, nil
		})
	// short (2 min): 8 × 2 shapes; long: 8 × 8: 80 in all.
	for round := 1; round <= 5; round++ {
		before := f.calls["sbatch"]
		mustPoll(t, c)
		if n := f.calls["sbatch"] - before; n != maxProbes {
			t.Fatalf("round %d asked %d shapes, want %d", round, n, maxProbes)
		}
		clk.advance(60)
	}
	if len(asked) != 80 {
		t.Errorf("%d shapes asked, want all 80", len(asked))
	}
	for k, n := range asked {
		if n < 3 || n > 5 {
			t.Errorf("%s asked %d times in 5 rounds of 64 of 80", k, n)
		}
	}
	off, _, _, f := probeTest(t, Config{ProbeEvery: -1}, func(string, int64, int64) (int64, error) { return 0, nil })
	mustPoll(t, off)
	if f.calls["sbatch"] != 0 {
		t.Errorf("ProbeEvery < 0 probed %d times", f.calls["sbatch"])
	}
}

// What was sent and when the last round was are in the cursor: a
// restarted collector neither probes before ProbeEvery nor sends an
// unchanged answer again.
func TestProbeStateSurvivesRestart(t *testing.T) {
	cursor := t.TempDir() + "/cursor.json"
	c, tp, clk, f := probeTest(t, Config{Cursor: cursor}, func(string, int64, int64) (int64, error) { return 60, nil })
	mustPoll(t, c)
	again, err := New(Config{System: "c1", Service: tp, Runner: f, Cursor: cursor, Now: clk.now})
	if err != nil {
		t.Fatal(err)
	}
	clk.advance(30)
	if err := again.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.calls["sbatch"]; n != 16 {
		t.Errorf("%d probes, want 16 (the restart's round is not due)", n)
	}
	clk.advance(300)
	if err := again.Poll(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n, m := f.calls["sbatch"], len(estimates(tp.events)); n != 32 || m != 16 {
		t.Errorf("%d probes, %d estimates sent; want 32 and 16 (the same answers)", n, m)
	}
}

// Slurm's expected start of each waiting job (squeue) is sent after the
// poll's events, dated when read, only for jobs waiting in what the
// service has, and again only when it moved or is probeRefresh old; the
// service shows it on the job's prediction.
func TestJobEstimates(t *testing.T) {
	f := scenario()
	c, tp, clk := newTest(t, f, "")
	mustPoll(t, c) // jobs 2, 3_0–3_2 and 4 wait
	jobEst := func() string {
		var b strings.Builder
		for _, e := range tp.events {
			if e.Kind == "estimate" && e.Job != 0 {
				fmt.Fprintf(&b, "%d@%d→%d ", e.Job&0xffff, e.Time-t0, e.Start-t0)
			}
		}
		return b.String()
	}
	if got, want := jobEst(), "2@30→300 0@30→100 1@30→100 2@30→100 4@30→400 "; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
	p, err := tp.svc.PredictJob("c1", 2, 50, 90, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := (karnak.SlurmPart{Wait: 270, Start: t0 + 300, At: t0 + 30, Cores: 8, WallTime: 3600}); p.Slurm == nil || *p.Slurm != want {
		t.Errorf("job 2's prediction: %+v, want %+v", p.Slurm, want)
	}
	// Job 2's expected start moves by 20 s (not sent), job 4's by 200 s
	// (sent); task 0 starts (no estimate of it after it).
	f.set(func() {
		f.jobs[1].start = t0 + 320
		f.jobs[3].start = t0 + 600
		f.jobs[2].tasks = "1-2"
		f.jobs = append(f.jobs, &fakeJob{id: 10, arrayJob: 3, task: ptr(0), state: "RUNNING", submit: t0 + 3, start: t0 + 36, end: t0 + 96, limit: 1, partition: "short", cpus: 1, ran: true})
	})
	clk.advance(10)
	mustPoll(t, c)
	if got, want := jobEst(), "2@30→300 0@30→100 1@30→100 2@30→100 4@30→400 4@40→600 "; got != want {
		t.Errorf("sent %s, want %s", got, want)
	}
	// probeRefresh later, the unchanged ones are sent again.
	clk.advance(probeRefresh)
	mustPoll(t, c)
	if got := jobEst(); !strings.HasSuffix(got, "4@40→600 2@940→320 1@940→100 2@940→100 4@940→600 ") {
		t.Errorf("sent %s", got)
	}
	if r := c.Report(); r.Errors != 0 || len(r.Skipped) != 0 {
		t.Errorf("errors %d %s, skipped %v", r.Errors, r.LastError, r.Skipped)
	}
}

// Exec runs sbatch with SLURM_TIME_FORMAT=%s and returns its standard
// error after its output (where --test-only answers); another command's
// standard error is not in its output. A stand-in sbatch on the PATH
// prints what Slurm would.
func TestExecSbatch(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho out\necho \"sbatch: Job 0 to start at $SLURM_TIME_FORMAT using 1 processors on nodes n1 in partition p\" >&2\n"
	for _, name := range []string{"sbatch", "squeue"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := Exec{}.Run(context.Background(), "sbatch", "--test-only")
	if err != nil {
		t.Skipf("no /bin/sh to run a stand-in sbatch: %v", err)
	}
	if want := "out\nsbatch: Job 0 to start at %s using 1 processors on nodes n1 in partition p\n"; string(out) != want {
		t.Errorf("sbatch: %q, want %q", out, want)
	}
	if out, err := (Exec{}).Run(context.Background(), "squeue"); err != nil || string(out) != "out\n" {
		t.Errorf("squeue: %q %v, want its standard output only", out, err)
	}
}

// squeue's priority of a waiting job goes to the service on its submit
// event, and again, at most once a minute, when it moves: the order the
// service's forecast simulates.
func TestPriorityFed(t *testing.T) {
	f := scenario()
	f.jobs[1].priority, f.jobs[3].priority = 100, 200 // jobs 2 and 4
	c, tp, clk := newTest(t, f, "")
	mustPoll(t, c)
	prio := func() string {
		var b strings.Builder
		for _, e := range tp.events {
			if e.Priority != 0 {
				fmt.Fprintf(&b, "%s %d@%d:%d ", e.Kind, e.Job, e.Time-t0, e.Priority)
			}
		}
		return b.String()
	}
	if got, want := prio(), "submit 2@2:100 submit 4@4:200 estimate 2@30:100 estimate 4@30:200 "; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
	f.set(func() { f.jobs[1].priority = 300 })
	clk.advance(10)
	mustPoll(t, c) // moved, but sent a minute after the last
	clk.advance(60)
	mustPoll(t, c)
	if got, want := prio(), "submit 2@2:100 submit 4@4:200 estimate 2@30:100 estimate 4@30:200 estimate 2@100:300 "; got != want {
		t.Fatalf("sent %s, want %s", got, want)
	}
	p, err := tp.svc.PredictJob("c1", 2, 95, 90, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Forecast == nil {
		t.Errorf("job 2: no forecast: %s", p.ForecastReason)
	}
}
