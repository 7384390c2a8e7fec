package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batchq/batchq/examples/internal/slurmtest"
	"github.com/batchq/batchq/qbets/karnak"
	"github.com/batchq/batchq/qbets/karnak/slurmfeed"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// envRunner runs the Slurm commands with the cluster's SLURM_CONF; sbatch
// as slurmfeed.Exec runs it (SLURM_TIME_FORMAT=%s, its standard error
// after its output: `sbatch --test-only` answers there).
type envRunner struct{ env []string }

func (r envRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = r.env
	if name == "sbatch" {
		cmd.Env = append(slices.Clone(r.env), "SLURM_TIME_FORMAT=%s")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %v: %s", name, err, stderr.Bytes())
	}
	if name == "sbatch" {
		out = append(out, stderr.Bytes()...)
	}
	return out, nil
}

// tap is the service as the test sees it: every acknowledged batch is kept,
// and ingest fails while down is set (a service outage).
type tap struct {
	svc     *karnak.Service
	mu      sync.Mutex
	down    bool
	refused int
	batches []string
	events  []karnak.Event
	// withSlurm counts the job predictions that carried Slurm's expected
	// start.
	withSlurm int
}

func (s *tap) IngestBatch(id string, evs []karnak.Event) (karnak.Ack, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		s.refused++
		return karnak.Ack{}, errors.New("service unavailable (test outage)")
	}
	ack, err := s.svc.IngestBatch(id, evs)
	if err == nil {
		s.batches = append(s.batches, id)
		s.events = append(s.events, evs...)
	}
	return ack, err
}

func (s *tap) PredictJob(system string, id int64, q, c int, within int64) (karnak.Prediction, error) {
	p, err := s.svc.PredictJob(system, id, q, c, within)
	if err == nil && p.Slurm != nil {
		s.mu.Lock()
		s.withSlurm++
		s.mu.Unlock()
	}
	return p, err
}

func (s *tap) refusals() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refused
}

func (s *tap) setDown(d bool) {
	s.mu.Lock()
	s.down = d
	s.mu.Unlock()
}

// sacctColumns is the column set of the sacct → SWF converter.
const sacctColumns = "JobID,JobIDRaw,JobName,User,UID,Group,GID,Partition,State,ExitCode,Submit,Start,End,ElapsedRaw,TimelimitRaw,AllocCPUS,ReqCPUS,NNodes,ReqMem,ReqTRES,AllocTRES,TotalCPU,AveRSS,MaxRSS,NTasks"

// TestLiveSlurm starts a cluster, runs the collector against it into an
// in-process service while the workload of scripts/slurm-cluster.sh runs
// (restarting the collector and taking the service down on the way), and
// checks every event against sacct, and the predictions.
func TestLiveSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the live Slurm test takes about three minutes")
	}
	dir, env := slurmtest.Start(t)
	script, err := slurmtest.Script()
	if err != nil {
		t.Fatal(err)
	}
	svc, err := karnak.New(nil, karnak.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	tp := &tap{svc: svc}
	cfg := slurmfeed.Config{
		System: "live", Service: tp, Runner: envRunner{env}, Cursor: filepath.Join(dir, "cursor.json"),
		Poll: time.Second, Delay: 2 * time.Second, ProbeEvery: 5 * time.Second, Logf: t.Logf,
	}
	collect := func(ctx context.Context) (*slurmfeed.Collector, chan struct{}) {
		c, err := slurmfeed.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() { c.Run(ctx); close(done) }()
		return c, done
	}

	ctx1, stop1 := context.WithCancel(context.Background())
	_, done1 := collect(ctx1)
	wl := exec.Command(script, "workload", dir)
	wl.Env = env
	var wlOut bytes.Buffer
	wl.Stdout, wl.Stderr = &wlOut, &wlOut
	if err := wl.Start(); err != nil {
		t.Fatal(err)
	}
	// Restart the collector from its cursor 10 s in, then take the service
	// down until it has refused two batches (the second wave, at 30 s).
	time.Sleep(10 * time.Second)
	stop1()
	<-done1
	ctx2, stop2 := context.WithCancel(context.Background())
	defer stop2()
	c, done2 := collect(ctx2)
	tp.setDown(true)
	for end := time.Now().Add(60 * time.Second); tp.refusals() < 2 && time.Now().Before(end); {
		time.Sleep(200 * time.Millisecond)
	}
	tp.setDown(false)
	if err := wl.Wait(); err != nil {
		t.Fatalf("workload: %v\n%s", err, wlOut.Bytes())
	}
	names := map[string]string{} // Slurm job id → name
	for _, l := range strings.Split(strings.TrimSpace(wlOut.String()), "\n") {
		if name, id, ok := strings.Cut(l, " "); ok {
			names[id] = name
		}
	}

	// Wait (bounded) until Slurm is done and the collector has sent the last end.
	deadline := time.Now().Add(150 * time.Second)
	for {
		out, err := envRunner{env}.Run(context.Background(), "squeue", "-h", "-o", "%i")
		if err != nil {
			t.Fatal(err)
		}
		r := c.Report()
		if len(bytes.TrimSpace(out)) == 0 && r.Events["end"] == r.Events["submit"] && r.Events["submit"] > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workload did not finish within the bound: squeue shows %q; report %+v", out, r)
		}
		time.Sleep(time.Second)
	}
	stop2()
	<-done2
	r := c.Report()

	sacctPath := filepath.Join(dir, "sacct.txt")
	out, err := envRunner{env}.Run(context.Background(), "sacct", "--parsable2", "--allusers", "--starttime", "now-1hour", "-o", sacctColumns)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sacctPath, out, 0o644); err != nil {
		t.Fatal(err)
	}
	jobs := sacctJobs(t, out)
	if len(jobs) != 19 {
		t.Errorf("sacct shows %d jobs, want 19 (8 jobs, 6 array tasks, 5 of the second wave)", len(jobs))
	}
	checkSacctSWF(t, sacctPath, jobs)

	checkEvents(t, tp, jobs, r)
	checkScores(t, r, jobs)
	checkEstimates(t, tp, r, jobs)
	if tp.refused == 0 || r.Errors == 0 {
		t.Errorf("the outage was not seen: %d batches refused, %d failed polls", tp.refused, r.Errors)
	}
	if len(names) != 14 {
		t.Errorf("workload printed %d jobs, want 14:\n%s", len(names), wlOut.Bytes())
	}
	for _, name := range []string{"timeout", "failed", "cancel-running", "cancel-pending"} {
		want := map[string]string{"timeout": "TIMEOUT", "failed": "FAILED", "cancel-running": "CANCELLED", "cancel-pending": "CANCELLED"}[name]
		found := false
		for _, j := range jobs {
			if j.name == name {
				found = true
				if !strings.HasPrefix(j.state, want) {
					t.Errorf("job %s (%s) ended %s, want %s", j.id, name, j.state, want)
				}
			}
		}
		if !found {
			t.Errorf("job %s is not in sacct", name)
		}
	}
	t.Logf("report:\n%s", summary(&r))
}

// checkSacctSWF converts the workload's sacct output to SWF with
// swf/convert, strictly, and checks every job and field that sacct gives
// against the allocation lines read here on their own: one SWF job per
// allocation line (steps are not jobs), submit relative to the header's
// UnixStartTime, wait and run time for the jobs that started (-1 for the
// one cancelled while pending), processors, requested time from the time
// limit, and the status from the job state (TIMEOUT and FAILED with exit 3
// are 0, CANCELLED is 5), never from the exit code.
func checkSacctSWF(t *testing.T, path string, jobs map[string]sacctJob) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := convert.Sacct(f, convert.Options{Location: time.Local, Strict: true})
	if err != nil {
		t.Fatalf("sacct → SWF: %v", err)
	}
	if len(res.Jobs) != len(jobs) {
		t.Errorf("sacct → SWF: %d jobs, want %d (one per allocation line)", len(res.Jobs), len(jobs))
	}
	t0 := res.Header.UnixStartTime
	for k := range res.Jobs {
		j, id := &res.Jobs[k], res.IDs[k]
		sj, ok := jobs[id]
		if !ok {
			t.Errorf("SWF job %d: id %q is not an allocation line of sacct", j.ID, id)
			continue
		}
		want := swf.Job{Submit: sj.submit - t0, Wait: -1, RunTime: -1, AllocProcs: -1, ReqTime: sj.limit}
		if sj.start != 0 && sj.cpus > 0 {
			want.Wait, want.RunTime, want.AllocProcs = sj.start-sj.submit, sj.end-sj.start, sj.cpus
		}
		want.Status = map[string]swf.Status{"COMPLETED": 1, "FAILED": 0, "TIMEOUT": 0, "CANCELLED": 5}[strings.Fields(sj.state)[0]]
		got := swf.Job{Submit: j.Submit, Wait: j.Wait, RunTime: j.RunTime, AllocProcs: j.AllocProcs, ReqTime: j.ReqTime, Status: j.Status}
		if got != want {
			t.Errorf("SWF job %d (%s %s, %s): got %+v, want %+v", j.ID, id, sj.name, sj.state, got, want)
		}
	}
	if t.Failed() {
		return
	}
	var buf bytes.Buffer
	if err := swf.WriteAll(&buf, res.Header, res.Jobs); err != nil {
		t.Fatal(err)
	}
	if back, err := swf.NewReader(&buf).ReadAll(); err != nil || len(back) != len(res.Jobs) {
		t.Errorf("the SWF does not read back strictly: %d jobs, %v", len(back), err)
	}
}

// sacctJob is one allocation line of sacct --parsable2 (steps left out).
type sacctJob struct {
	id, name, partition, state string
	submit, start, end         int64 // Unix seconds; 0 = none
	cpus                       int64
	limit                      int64 // the time limit in seconds; -1 = none
}

func sacctJobs(t *testing.T, out []byte) map[string]sacctJob {
	t.Helper()
	jobs := map[string]sacctJob{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	var cols []string
	col := func(f []string, name string) string {
		for i, c := range cols {
			if c == name && i < len(f) {
				return f[i]
			}
		}
		t.Fatalf("sacct: no column %s", name)
		return ""
	}
	at := func(s string) int64 {
		if s == "None" || s == "Unknown" || s == "" {
			return 0
		}
		tm, err := time.ParseInLocation("2006-01-02T15:04:05", s, time.Local)
		if err != nil {
			t.Fatalf("sacct: time %q: %v", s, err)
		}
		return tm.Unix()
	}
	for sc.Scan() {
		f := strings.Split(sc.Text(), "|")
		if cols == nil {
			cols = f
			continue
		}
		id := col(f, "JobID")
		if strings.Contains(id, ".") {
			continue // a step
		}
		cpus, _ := strconv.ParseInt(col(f, "AllocCPUS"), 10, 64)
		limit, err := strconv.ParseInt(col(f, "TimelimitRaw"), 10, 64)
		if err != nil {
			limit = -1
		} else {
			limit *= 60
		}
		jobs[id] = sacctJob{id: id, name: col(f, "JobName"), partition: col(f, "Partition"), state: col(f, "State"),
			submit: at(col(f, "Submit")), start: at(col(f, "Start")), end: at(col(f, "End")), cpus: cpus, limit: limit}
	}
	return jobs
}

// checkEvents checks the events the service acknowledged: each batch once,
// time order, and for every job of sacct one submit, one start when it
// started and one end, at sacct's times and with its partition and CPUs.
func checkEvents(t *testing.T, tp *tap, jobs map[string]sacctJob, r slurmfeed.Report) {
	t.Helper()
	seen := map[string]bool{}
	for _, b := range tp.batches {
		if seen[b] {
			t.Errorf("batch %s acknowledged twice", b)
		}
		seen[b] = true
	}
	byJob := map[int64]map[string]karnak.Event{}
	queues := map[string]karnak.Event{}
	prev := int64(0)
	for i, e := range tp.events {
		if e.Kind == "estimate" {
			continue // out of band, in no time order (checkEstimates)
		}
		if e.Time < prev {
			t.Errorf("event %d (%s of job %d) at %d, before the previous one (%d)", i, e.Kind, e.Job, e.Time, prev)
		}
		prev = e.Time
		if e.Kind == "queue" {
			queues[e.Queue] = e
			continue
		}
		if byJob[e.Job] == nil {
			byJob[e.Job] = map[string]karnak.Event{}
		}
		if _, dup := byJob[e.Job][e.Kind]; dup {
			t.Errorf("job %d: %s sent twice", e.Job, e.Kind)
		}
		byJob[e.Job][e.Kind] = e
	}
	if q := queues["short"]; q.Cores != 8 || q.WallTime != 120 {
		t.Errorf("queue short declared as %+v, want 8 cores, 120 s", q)
	}
	if q := queues["long"]; q.Cores != 8 || q.WallTime != 600 {
		t.Errorf("queue long declared as %+v, want 8 cores, 600 s", q)
	}
	for id, j := range jobs {
		kid := serviceID(t, id)
		evs := byJob[kid]
		sub, ok := evs["submit"]
		if !ok {
			t.Errorf("job %s (%s): no submit event", id, j.name)
			continue
		}
		if sub.Time != j.submit || sub.Queue != j.partition || sub.Cores != j.cpus {
			t.Errorf("job %s (%s): submit %+v, sacct says at %d on %s with %d CPUs", id, j.name, sub, j.submit, j.partition, j.cpus)
		}
		if st, ok := evs["start"]; ok != (j.start > 0) || ok && st.Time != j.start {
			t.Errorf("job %s (%s): start event %v %+v, sacct says start %d", id, j.name, ok, st, j.start)
		}
		if end, ok := evs["end"]; !ok || end.Time != j.end {
			t.Errorf("job %s (%s): end event %v %+v, sacct says end %d", id, j.name, ok, end, j.end)
		}
	}
	if len(byJob) != len(jobs) {
		t.Errorf("events for %d jobs, sacct shows %d", len(byJob), len(jobs))
	}
	if r.Late != 0 || len(r.Skipped) != 0 {
		t.Errorf("late %d, skipped %v: want none on this workload", r.Late, r.Skipped)
	}
}

// checkEstimates checks Slurm's own estimates: of hypothetical jobs
// (sbatch --test-only, every 5 s), some sent, each for a shape within its
// partition's limits and a start not before it was asked (a second of
// slack) nor a day after, and the service shows one for a small job on
// each partition; of the waiting jobs (squeue), some sent, each of a job
// of the workload, and the service's job predictions carried them.
func checkEstimates(t *testing.T, tp *tap, r slurmfeed.Report, jobs map[string]sacctJob) {
	t.Helper()
	var sent []karnak.Event
	ofJobs := 0
	ids := map[int64]bool{}
	for id := range jobs {
		ids[serviceID(t, id)] = true
	}
	for _, e := range tp.events {
		if e.Kind != "estimate" {
			continue
		}
		if e.Job != 0 {
			ofJobs++
			if !ids[e.Job] || e.Start <= 0 {
				t.Errorf("estimate of job %d (start %d): not a job of the workload", e.Job, e.Start)
			}
			continue
		}
		sent = append(sent, e)
		limit := map[string]int64{"short": 120, "long": 600}[e.Queue]
		if e.Cores < 1 || e.Cores > 8 || e.WallTime < 60 || e.WallTime > limit || e.Start < e.Time-1 || e.Start > e.Time+86400 {
			t.Errorf("estimate %+v: not a probe of short (8 CPUs, 2 min) or long (8 CPUs, 10 min)", e)
		}
	}
	if len(sent) == 0 || r.Probes["answered, sent"] == 0 {
		t.Fatalf("no estimate reached the service: probes %v", r.Probes)
	}
	longest := int64(0)
	for _, e := range sent {
		longest = max(longest, e.Start-e.Time)
	}
	t.Logf("%d estimates of probes sent, the longest wait %d s; probes %v; %d estimates of waiting jobs, %d job predictions with one",
		len(sent), longest, r.Probes, ofJobs, tp.withSlurm)
	if ofJobs == 0 || tp.withSlurm == 0 {
		t.Errorf("Slurm's expected starts of the waiting jobs: %d sent, %d job predictions carried one", ofJobs, tp.withSlurm)
	}
	for _, q := range []string{"short", "long"} {
		ps, err := tp.svc.PredictHypothetical(&karnak.PredictRequest{Cores: 1, WallTime: 60, Quantile: 95, Confidence: 90,
			Locations: []karnak.Location{{System: "live", Queue: q}}})
		if err != nil {
			t.Fatal(err)
		}
		if sl := ps[0].Slurm; sl == nil || sl.Cores != 1 || sl.WallTime < 60 {
			t.Errorf("%s: Slurm's estimate for 1 core, 60 s: %+v", q, sl)
		}
	}
}

// serviceID is the service's id of a Slurm job id as sacct prints it (the
// collector's scheme: see slurmfeed's jobID).
func serviceID(t *testing.T, id string) int64 {
	a, task, isTask := strings.Cut(id, "_")
	n, err := strconv.ParseInt(a, 10, 64)
	if err != nil {
		t.Fatalf("sacct job id %q", id)
	}
	if !isTask {
		return n
	}
	k, err := strconv.ParseInt(task, 10, 64)
	if err != nil {
		t.Fatalf("sacct job id %q", id)
	}
	return 1<<62 | n<<22 | k
}

// checkScores checks the comparison: every scored job's wait is sacct's,
// each method predicted some jobs, and the summary is the mean of the rows.
func checkScores(t *testing.T, r slurmfeed.Report, jobs map[string]sacctJob) {
	t.Helper()
	if len(r.Jobs) < 5 {
		t.Fatalf("%d jobs scored, want at least 5 of the jobs that queue", len(r.Jobs))
	}
	for _, s := range r.Jobs {
		j, ok := jobs[s.Job]
		if !ok {
			t.Errorf("scored job %s is not in sacct", s.Job)
			continue
		}
		if s.Wait != j.start-j.submit || s.Submit != j.submit {
			t.Errorf("job %s: scored wait %d from %d, sacct says %d from %d", s.Job, s.Wait, s.Submit, j.start-j.submit, j.submit)
		}
	}
	// Slurm and QBETS answer from the first waits on; IBL's queued-job
	// base learns only from jobs a 5-minute snapshot of the service saw
	// waiting (Karnak's archiver, spec karnak-ibl-service §3), and this
	// workload lasts two minutes: whether one falls inside is the clock's.
	for _, m := range r.Methods[:2] {
		if m.Jobs == 0 {
			t.Errorf("%s predicted no job", m.Name)
		}
	}
	if r.Methods[2].Jobs == 0 {
		t.Logf("IBL predicted no job (no 5-minute snapshot of the service fell while jobs waited)")
	}
	if int(r.Methods[0].Jobs+r.Methods[0].Missing) != len(r.Jobs) {
		t.Errorf("Slurm: %d predicted + %d missing, %d jobs scored", r.Methods[0].Jobs, r.Methods[0].Missing, len(r.Jobs))
	}
}
