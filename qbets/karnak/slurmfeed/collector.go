package slurmfeed

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// Collector feeds one Slurm cluster to a karnak service. Its methods are
// safe for concurrent use (Poll calls are serialized).
//
// Every poll reads the partitions (`scontrol show partition
// --oneliner`: each one a queue, its CPUs and time limit), the jobs
// slurmctld holds (`squeue --json`) and those that left it since the last
// poll (`sacct --json`), and turns what changed into karnak events: a job
// submitted, started, ended (a job cancelled while waiting ends without
// starting). A submit carries the job's CPUs and GPUs (gres/gpu of its
// TRES: squeue's tres_alloc_str, else tres_req_str; sacct's allocated,
// else requested; karnak.Event.GPUs, in thousandths of a GPU). Events
// are sent once they are Config.Delay old, in time order;
// each batch is written ahead to the cursor file with an id of its own, so
// that a batch is sent again after a crash or a service outage and stored
// once (the service's ingest is idempotent by batch id). A batch the
// service rejects for good (a karnak.Error that is not Temporary, as an
// in-process Service and Client both return it) is dropped and counted;
// a transient failure or a refused token keeps it for the next poll. What
// cannot be fed is counted by reason in the Report.
//
// Beside each job that waits, the collector notes Slurm's own expected
// start (the start time `squeue --start` shows) and asks the service for
// the QBETS bound and the IBL estimate; when the job starts, the Report
// gives each method's error: the mean |log10(predicted / actual wait)| and
// the share within a factor of 2.
//
// Every Config.ProbeEvery it also asks Slurm when a hypothetical job of
// each of a few shapes would start in each partition (`sbatch
// --test-only`, probe.go) and sends the answers as karnak "estimate"
// events: the service shows Slurm's own estimate beside its predictions
// for a hypothetical job. Probes are counted by outcome in the Report.
// Each waiting job's expected start (squeue) is sent too, as an estimate
// of the job, when it is new or moved, for the job's prediction, with
// its priority (squeue --json's "priority", as `squeue -o %Q` shows it:
// Slurm's order of the queue, which the service's forecast simulates;
// sent on the submit event, and again when it moves, at most once a
// minute per job). What the forecast needs of a running job is in the
// events already: its start (so its elapsed time) and its time limit
// (the submit's wall time).
type Collector struct {
	cfg Config
	mu  sync.Mutex
	st  *cursor
	// notDueAt is the time of the last poll that read the jobs (events),
	// which a poll that then fails to send leaves ahead of LastPoll (0:
	// none since New; the cursor's NotDue were seen before it).
	notDueAt int64
	// roundClockForTests, when set, is the time a probe round has taken
	// (roundTime), in place of the real time: a round of a test dated its
	// later probes a second late when the machine stalled it that long.
	roundClockForTests func(began time.Time) time.Duration
}

// New returns a collector with the settings of cfg, resuming from the
// cursor file when there is one. It runs no command.
func New(cfg Config) (*Collector, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.fill()
	var st *cursor
	var err error
	if cfg.Cursor != "" {
		if st, err = loadCursor(cfg.Cursor, cfg.System); err != nil {
			return nil, err
		}
	}
	if st == nil {
		if st, err = newCursor(cfg.System); err != nil {
			return nil, err
		}
		st.Horizon = cfg.Now().Unix() - int64(cfg.Since/time.Second)
		if err := st.save(cfg.Cursor); err != nil {
			return nil, err
		}
	}
	return &Collector{cfg: cfg, st: st}, nil
}

// maxBackoff caps the wait between two failed polls.
const maxBackoff = time.Minute

// Run polls every Config.Poll until ctx is done, and then returns nil. A
// failed poll (a Slurm command, or the service down) is counted in the
// Report, logged, and retried after a wait that doubles up to a minute;
// a batch not acknowledged is sent again, with the same id, before any
// new one.
func (c *Collector) Run(ctx context.Context) error {
	var backoff time.Duration
	for {
		wait := c.cfg.Poll
		if err := c.Poll(ctx); err != nil && ctx.Err() == nil {
			backoff = min(max(2*backoff, c.cfg.Poll), maxBackoff)
			wait = backoff
		} else {
			backoff = 0
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// Poll runs one round: send the batches in flight, read the partitions,
// squeue and sacct, send the events that are at least Config.Delay old in
// time order, ask the service about every job still waiting, probe
// Slurm's estimates when a round is due (Config.ProbeEvery), and save
// the cursor.
func (c *Collector) Poll(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.poll(ctx)
	if err != nil && ctx.Err() == nil { // not a poll cut short by the caller
		r := &c.st.Report
		r.Errors++
		r.LastError = text(err.Error())
		c.cfg.Logf("slurmfeed: %v", err)
		if serr := c.st.save(c.cfg.Cursor); serr != nil {
			c.cfg.Logf("%v", serr)
		}
	}
	return err
}

func (c *Collector) poll(ctx context.Context) error {
	now := c.cfg.Now().Unix()
	if err := c.flush(); err != nil {
		return err
	}
	parts, jobs, err := c.observe(ctx, now)
	if err != nil {
		return err
	}
	cutoff := now - int64(c.cfg.Delay/time.Second)
	evs := c.events(parts, jobs, now, cutoff)
	c.enqueue(evs)
	if err := c.st.save(c.cfg.Cursor); err != nil {
		return err
	}
	if err := c.flush(); err != nil {
		return err
	}
	c.predict(jobs, now)
	if evs := c.probe(ctx, parts, now); len(evs) > 0 {
		c.enqueue(evs)
		if err := c.st.save(c.cfg.Cursor); err != nil {
			return err
		}
		if err := c.flush(); err != nil {
			return err
		}
	}
	c.prune(now)
	c.st.LastPoll = now
	c.st.Report.Polls++
	return c.st.save(c.cfg.Cursor)
}

// sacctMargin widens sacct's window before the last poll (clock skew
// between slurmdbd and the collector).
const sacctMargin = 10

// observe runs the Slurm commands: the partitions, squeue (every job
// slurmctld holds), and sacct (allocations only, not steps) for what left
// squeue since the last poll: the jobs active since a little before it.
func (c *Collector) observe(ctx context.Context, now int64) (map[string]partition, map[string]job, error) {
	out, err := c.cfg.Runner.Run(ctx, "scontrol", "show", "partition", "--oneliner")
	if err != nil {
		return nil, nil, fmt.Errorf("scontrol show partition: %w", err)
	}
	pl, err := parsePartitions(out)
	if err != nil {
		return nil, nil, err
	}
	parts := map[string]partition{}
	for _, p := range pl {
		parts[p.name] = p
	}
	if out, err = c.cfg.Runner.Run(ctx, "squeue", "--json"); err != nil {
		return nil, nil, fmt.Errorf("squeue --json: %w", err)
	}
	sq, err := parseSqueue(out)
	if err != nil {
		return nil, nil, err
	}
	since := c.st.Horizon
	if c.st.LastPoll > 0 {
		since = max(since, c.st.LastPoll-sacctMargin)
	}
	since = min(since, now)
	start := time.Unix(since, 0).Format("2006-01-02T15:04:05")
	if out, err = c.cfg.Runner.Run(ctx, "sacct", "--json", "--allocations", "--allusers", "--starttime", start); err != nil {
		return nil, nil, fmt.Errorf("sacct --json: %w", err)
	}
	sa, err := parseSacct(out)
	if err != nil {
		return nil, nil, err
	}
	c.degenerate(sq, sa)
	distinctKeys(sq)
	distinctKeys(sa)
	jobs := make(map[string]job, len(sq)+len(sa))
	for _, j := range sq {
		jobs[j.key] = j
	}
	for _, j := range sa { // squeue's record, when there is one, is the fresher
		if _, ok := jobs[j.key]; !ok {
			jobs[j.key] = j
		}
	}
	return parts, jobs, nil
}

// degenerate counts and logs a poll in which squeue's or sacct's records
// (sq, sa) were all bad (Report.Degenerate): it feeds nothing of that
// output, which its skipped records alone would not say.
func (c *Collector) degenerate(sq, sa []job) {
	var notes []string
	for _, o := range []struct {
		cmd  string
		jobs []job
	}{{"squeue --json", sq}, {"sacct --json", sa}} {
		if len(o.jobs) == 0 || slices.ContainsFunc(o.jobs, func(j job) bool { return j.bad == "" }) {
			continue
		}
		what := fmt.Sprintf("all %d job records bad", len(o.jobs))
		if len(o.jobs) == 1 {
			what = "its one job record bad"
		}
		notes = append(notes, fmt.Sprintf("%s: %s (the first: %s)", o.cmd, what, o.jobs[0].bad))
	}
	if len(notes) == 0 {
		return
	}
	r := &c.st.Report
	r.Degenerate++
	r.LastDegenerate = text(strings.Join(notes, "; "))
	c.cfg.Logf("slurmfeed: degenerate poll: %s", r.LastDegenerate)
}

// distinctKeys gives each unnamed record of one output a key of its own:
// the n-th record under a key after the first gets " (n)". Records that
// share an unreadable job id (two "job_id 0", two without one) are then
// counted one each, and once over the polls that show them in the same
// order, instead of the last one standing for all.
func distinctKeys(js []job) {
	seen := map[string]int{}
	for i := range js {
		if !js[i].unnamed {
			continue
		}
		k := js[i].key
		if seen[k]++; seen[k] > 1 {
			js[i].key = fmt.Sprintf("%s (%d)", k, seen[k])
		}
	}
}

// pending is an event and what orders it among the events of a poll.
type pending struct {
	ev    karnak.Event
	class int // at equal times: queues, ends of jobs that ran, submits, starts, other ends
	key   string
}

// events turns what changed since the last poll into events of at most
// cutoff, marking them sent in the cursor (they are written ahead before
// being sent).
func (c *Collector) events(parts map[string]partition, jobs map[string]job, now, cutoff int64) []pending {
	c.notDueAt = now
	c.notDueAt = now
	var out []pending
	add := func(kind string, j *job, st *jobState, t int64, class int) {
		e := karnak.Event{Kind: kind, System: c.cfg.System, Job: st.ID, Time: t}
		if kind == "submit" {
			e.Queue, e.Cores, e.GPUs, e.WallTime = st.Queue, j.cores, j.gpus, max(j.wall, 0)
			if j.wall < 0 { // NO_VAL: the partition's limit
				e.WallTime = parts[st.Queue].wall
			}
			e.User, e.Project, e.Name = j.user, j.account, j.name
			if !j.started && !j.ended {
				e.Priority = j.priority
				st.PrioritySent, st.PrioritySentAt = j.priority, now
			}
		}
		out = append(out, pending{e, class, j.key})
	}
	for _, k := range sortedKeys(jobs) {
		j := jobs[k]
		st := c.st.Jobs[k]
		reread := false // a job skipped before that this poll can feed
		if st != nil && st.Skip != "" {
			// Its reason is the latest poll's: a record unreadable once
			// (or in a partition then unknown) may be read now. The job is
			// counted once, under its latest reason, or fed.
			if why := c.why(&j, parts); why != st.Skip {
				c.unskip(k, st, why)
				if why == "" {
					delete(c.st.Jobs, k)
					st, reread = nil, true
				} else {
					st.Skip = why
					st.SkipCount = c.skip(why, 1)
				}
			}
		}
		if st == nil {
			if j.ended && j.end < c.st.Horizon && !reread {
				continue // forgotten
			}
			if j.submit > cutoff { // not yet due: counted until it is
				if c.st.NotDue == nil {
					c.st.NotDue = map[string]seenJob{}
				}
				c.st.NotDue[k] = seenJob{j.submit, now}
				continue
			}
			delete(c.st.NotDue, k)
			st = &jobState{ID: j.id, Queue: j.partition, Submit: j.submit}
			c.st.Jobs[k] = st
			if st.Skip = c.why(&j, parts); st.Skip != "" {
				st.SkipCount = c.skip(st.Skip, 1)
			}
		}
		st.LastSeen = now
		if st.Skip != "" || st.Ended {
			continue
		}
		if j.bad != "" { // a bad record of a job already fed: wait for a good one
			c.skip(j.bad+" (a job already fed; counted at every poll)", 1)
			continue
		}
		if !st.Submitted {
			st.Submitted = true
			add("submit", &j, st, j.submit, 2)
		}
		if st.Started && !j.started && !j.ended {
			// Requeued: it waits again. The service holds it as running;
			// end it there, and leave its later run out.
			st.Ended, st.End = true, cutoff
			add("end", &j, st, cutoff, 1)
			c.skip("requeued: the run after the requeue is not fed", 1)
			continue
		}
		if !st.Started && j.started && j.start <= cutoff {
			st.Started, st.Start = true, j.start
			add("start", &j, st, j.start, 3)
			c.score(k, st)
		}
		if j.ended && j.end <= cutoff && (st.Started || !j.started) {
			st.Ended, st.End = true, j.end
			class := 4
			if st.Started && j.end > st.Start {
				class = 1
			}
			add("end", &j, st, j.end, class)
		}
	}
	// A job the collector sent and no longer sees, for longer than Keep,
	// is ended at the cutoff; not while a record without a readable job
	// id is in the poll: the job may be that record (a Slurm whose job
	// ids the feed cannot read would otherwise end every job it holds).
	unnamed := 0
	for _, j := range jobs {
		if j.unnamed {
			unnamed++
		}
	}
	if unnamed > 0 {
		c.cfg.Logf("slurmfeed: %d records without a readable job id: no job is ended as vanished in this poll", unnamed)
	}
	for _, k := range sortedKeys(c.st.Jobs) {
		st := c.st.Jobs[k]
		if unnamed == 0 && st.Skip == "" && st.Submitted && !st.Ended && now-st.LastSeen > int64(c.cfg.Keep/time.Second) {
			st.Ended, st.End = true, cutoff
			add("end", &job{key: k}, st, cutoff, 4)
			c.skip("vanished from squeue and sacct: ended at the collector's time", 1)
		}
	}
	// Estimates are out of band: after the events, in no time order.
	return append(c.declare(parts, out, cutoff), c.jobEstimates(jobs, now)...)
}

// why says why a job cannot be fed ("" if it can).
func (c *Collector) why(j *job, parts map[string]partition) string {
	if j.bad != "" {
		return j.bad
	}
	p, ok := parts[j.partition]
	switch {
	case strings.Contains(j.partition, ","):
		return "submitted to several partitions"
	case !ok:
		return "partition not in scontrol's list (or without CPUs)"
	case !validQueue(j.partition):
		return "partition name is not a service queue name ([A-Za-z0-9._-], 1–64 bytes)"
	case j.cores < 1:
		return "no CPU count"
	case j.cores > p.cores:
		return "more CPUs than its partition has"
	}
	return ""
}

func validQueue(s string) bool {
	return len(s) > 0 && len(s) <= 64 && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	}) < 0
}

// declare adds a queue event for every partition whose limits the service
// does not have yet, at the time of its first event in this poll (or the
// cutoff), sorts the events and raises late ones to the watermark.
func (c *Collector) declare(parts map[string]partition, evs []pending, cutoff int64) []pending {
	first := map[string]int64{}
	for _, p := range evs {
		if p.ev.Kind == "submit" {
			if t, ok := first[p.ev.Queue]; !ok || p.ev.Time < t {
				first[p.ev.Queue] = p.ev.Time
			}
		}
	}
	for _, name := range sortedKeys(parts) {
		p := parts[name]
		lim := queueLimits{Cores: p.cores, Wall: p.wall}
		if old, ok := c.st.Queues[name]; (ok && old == lim) || !validQueue(name) {
			continue
		}
		t, ok := first[name]
		if !ok {
			t = cutoff
		}
		c.st.Queues[name] = lim
		evs = append(evs, pending{karnak.Event{Kind: "queue", System: c.cfg.System, Time: t, Queue: name, Cores: p.cores, WallTime: p.wall}, 0, name})
	}
	slices.SortStableFunc(evs, func(a, b pending) int {
		return cmp.Or(cmp.Compare(a.ev.Time, b.ev.Time), cmp.Compare(a.class, b.class), strings.Compare(a.key, b.key))
	})
	for i := range evs {
		if e := &evs[i].ev; e.Time < c.st.Watermark {
			if e.Kind != "queue" {
				c.st.Report.Late++
			}
			e.Time = c.st.Watermark
		}
		c.st.Watermark = evs[i].ev.Time
	}
	return evs
}

// maxBatch is the most events in one batch (the service takes 20,000),
// and maxBatchBytes the most bytes of their JSON (the service takes a
// body of 4 MiB; the rest is left for the batch's id and brackets). A
// batch past either is a 413, dropped for good (rejected): 10,000
// submits of a job array named with 256 bytes were 4.1 MB, at the
// limit (a longer user, project or queue past it), and with a name of
// '<' (escaped \u003c) 16.9 MB (TestBatchesFitTheBody).
const (
	maxBatch      = 10000
	maxBatchBytes = 3 << 20
)

// enqueue writes the events ahead as numbered batches.
func (c *Collector) enqueue(evs []pending) {
	for len(evs) > 0 {
		n, size := 0, 0
		for ; n < min(len(evs), maxBatch); n++ {
			b, _ := json.Marshal(&evs[n].ev) // (an Event always encodes)
			if size += len(b) + 1; n > 0 && size > maxBatchBytes {
				break
			}
		}
		c.st.Seq++
		b := batch{ID: fmt.Sprintf("slurmfeed/%s/%s/%d", c.cfg.System, c.st.Session, c.st.Seq)}
		for _, p := range evs[:n] {
			b.Events = append(b.Events, p.ev)
		}
		c.st.Pending = append(c.st.Pending, b)
		evs = evs[n:]
	}
}

// rejected reports whether the service refused a batch for good (a
// karnak.Error that is not Temporary): sending it again would get the
// same answer, so the collector drops it and counts its events as
// skipped. Every other error is retried, the batch kept: a transient
// one (the service down, rebuilding, rate-limiting), and a refused
// token (401, 403), which the operator fixes without losing the
// feed.
func rejected(err error) bool {
	var ke *karnak.Error
	return errors.As(err, &ke) && !ke.Temporary() && ke.Code != http.StatusUnauthorized && ke.Code != http.StatusForbidden
}

// flush sends the batches in flight, in order.
func (c *Collector) flush() error {
	for len(c.st.Pending) > 0 {
		b := c.st.Pending[0]
		_, err := c.cfg.Service.IngestBatch(b.ID, b.Events)
		switch {
		case rejected(err):
			c.cfg.Logf("slurmfeed: batch %s dropped: %v", b.ID, err)
			c.skip("rejected by the service (batch dropped)", int64(len(b.Events)))
		case err != nil:
			return fmt.Errorf("sending batch %s: %w", b.ID, err)
		default:
			r := &c.st.Report
			r.Batches++
			if r.Events == nil {
				r.Events = map[string]int64{}
			}
			for _, e := range b.Events {
				r.Events[e.Kind]++
			}
		}
		c.st.Pending = c.st.Pending[1:]
		if err := c.st.save(c.cfg.Cursor); err != nil {
			return err
		}
	}
	c.st.Pending = nil
	return nil
}

// maxPredictions bounds the service queries of one poll.
const maxPredictions = 1000

// predict asks the service about every job sent and still waiting that
// lacks a prediction of some method, and notes Slurm's expected start.
func (c *Collector) predict(jobs map[string]job, now int64) {
	asked := 0
	for _, k := range sortedKeys(jobs) {
		j := jobs[k]
		st := c.st.Jobs[k]
		if st == nil || !st.Submitted || st.Started || st.Ended || j.started || j.ended || st.Skip != "" {
			continue
		}
		if st.At[mSlurm] == 0 && j.estimate > 0 {
			st.Wait[mSlurm], st.At[mSlurm] = j.estimate-st.Submit, now
		}
		if st.At[mQBETS] != 0 && st.At[mIBL] != 0 {
			continue
		}
		if asked++; asked > maxPredictions {
			c.skip("predictions beyond the per-poll limit (asked at the next poll)", 1)
			continue
		}
		p, err := c.cfg.Service.PredictJob(c.cfg.System, st.ID, c.cfg.Quantile, c.cfg.Confidence, 0)
		if err != nil {
			c.cfg.Logf("slurmfeed: predicting job %s: %v", k, err)
			c.skip("prediction failed (asked again at the next poll)", 1)
			continue
		}
		if st.At[mQBETS] == 0 && p.QBETS != nil {
			st.Wait[mQBETS], st.At[mQBETS] = p.QBETS.Start-st.Submit, now
		}
		if st.At[mIBL] == 0 && p.IBL != nil {
			st.Wait[mIBL], st.At[mIBL] = p.IBL.Start-st.Submit, now
		}
	}
}

// prune forgets the jobs that ended more than Keep ago, and those skipped
// and not seen for as long; they are behind the new horizon.
func (c *Collector) prune(now int64) {
	keep := int64(c.cfg.Keep / time.Second)
	c.st.Horizon = max(c.st.Horizon, now-keep)
	for k, st := range c.st.Jobs {
		if st.Ended && st.End < c.st.Horizon || st.Skip != "" && now-st.LastSeen > keep {
			delete(c.st.Jobs, k)
		}
	}
	for k, j := range c.st.NotDue {
		if now-j.Seen > keep {
			delete(c.st.NotDue, k)
			c.skip("seen before it was due, then gone from squeue and sacct", 1)
		}
	}
}

// maxReasons caps the distinct reasons of Report.Skipped and
// Report.Probes.
const maxReasons = 64

// skip counts n skipped under reason, and returns the reason they are
// counted under (count's).
func (c *Collector) skip(reason string, n int64) string {
	c.cfg.Logf("slurmfeed: skipped %d: %s", n, reason)
	return count(&c.st.Report.Skipped, reason, n)
}

// unskip takes back the count of a job skipped (st.Skip) whose reason is
// now why ("": it is fed).
func (c *Collector) unskip(key string, st *jobState, why string) {
	m := c.st.Report.Skipped
	under := cmp.Or(st.SkipCount, st.Skip) // (a cursor from before SkipCount: the reason)
	if m[under] == 0 {
		under = "other reasons"
	}
	if m[under] > 0 {
		if m[under]--; m[under] == 0 {
			delete(m, under)
		}
	}
	now := "it is fed"
	if why != "" {
		now = "now: " + why
	}
	c.cfg.Logf("slurmfeed: job %s no longer skipped as %s (%s)", key, st.Skip, now)
}

// count adds n to (*m)[reason], made when nil; beyond maxReasons reasons,
// a new one is counted as "other reasons". It returns the reason counted.
func count(m *map[string]int64, reason string, n int64) string {
	if *m == nil {
		*m = map[string]int64{}
	}
	if _, ok := (*m)[reason]; !ok && len(*m) >= maxReasons {
		reason = "other reasons"
	}
	(*m)[reason] += n
	return reason
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
