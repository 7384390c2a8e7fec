package slurmfeed

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// Probes: Slurm's own estimate for hypothetical jobs (issue #25). Every
// Config.ProbeEvery the collector asks Slurm, with `sbatch --test-only`,
// when a job of each of a few shapes would start in each partition, and
// sends each answer as a karnak "estimate" event, which the service shows
// beside its predictions for a job of that shape or smaller. An answer
// is sent when it is new, when the wait it implies moved by more than a
// minute and a tenth, or when the last one sent for its shape is
// probeRefresh old (the service shows none older than an hour), so that a
// quiet cluster does not fill the service's log with the same answer.
// Estimates are out of band for the service (they need not be in time
// order with the jobs' events): they are sent at once, dated when Slurm
// was asked, in a batch of their own after the poll's.

const (
	// maxProbes bounds the probes of one round (the shapes of every
	// partition, taken in turns when there are more); each one costs
	// slurmctld a scheduling pass for the job.
	maxProbes = 64
	// probeTimeout bounds one probe, probeBudget a round.
	probeTimeout = 10 * time.Second
	probeBudget  = time.Minute
	// probeRefresh is how often an unchanged answer is sent again.
	probeRefresh = 15 * 60
	// maxProbeCores bounds the default sizes per partition (× 3 wall
	// times: 24 shapes).
	maxProbeCores = 8
)

// shape is one probed job: a partition, cores and a wall time (seconds,
// whole minutes).
type shape struct {
	part        string
	cores, wall int64
}

func (s shape) key() string { return fmt.Sprintf("%s/%d/%d", s.part, s.cores, s.wall) }

// probeSent is the last answer sent for a shape.
type probeSent struct {
	Wait int64 `json:"wait"`
	At   int64 `json:"at"`
}

// defaultCores are the probed sizes of a partition of max CPUs: 1, powers
// of 2 (every other one, or sparser, when there would be more than
// maxProbeCores) and max.
func defaultCores(max int64) []int64 {
	if max <= 1 {
		return []int64{1}
	}
	for step := 1; ; step++ {
		out := []int64{1}
		for e := step; e < 63 && int64(1)<<e < max; e += step {
			out = append(out, 1<<e)
		}
		if out = append(out, max); len(out) <= maxProbeCores {
			return out
		}
	}
}

// shapes are the probed jobs of partition p: Config.ProbeCores (else
// defaultCores) × Config.ProbeWalls (else 10 minutes, an hour and the
// partition's limit), those within its limits, in whole minutes.
func (c *Collector) shapes(p partition) []shape {
	cores := c.cfg.ProbeCores
	if cores == nil {
		cores = defaultCores(p.cores)
	}
	walls := make([]int64, 0, 3)
	for _, w := range c.cfg.ProbeWalls {
		walls = append(walls, int64(w/time.Minute)*60)
	}
	if c.cfg.ProbeWalls == nil {
		walls = append(walls, 600, 3600)
		if p.wall < unlimitedWall {
			walls = append(walls, p.wall/60*60)
		}
	}
	slices.Sort(walls)
	walls = slices.Compact(walls)
	var out []shape
	for _, n := range cores {
		for _, w := range walls {
			if n <= p.cores && w >= 60 && w <= p.wall {
				out = append(out, shape{p.name, n, w})
			}
		}
	}
	return out
}

// probe runs a round of probes when one is due: the shapes of every
// partition the service has declared, up to maxProbes of them, starting
// where the last round stopped. It returns the answers to send.
func (c *Collector) probe(ctx context.Context, parts map[string]partition, now int64) []pending {
	every := int64(c.cfg.ProbeEvery / time.Second)
	if c.cfg.ProbeEvery < 0 || c.st.LastProbe > 0 && now-c.st.LastProbe < every {
		return nil
	}
	c.st.LastProbe = now
	for k, v := range c.st.ProbeSent {
		if now-v.At >= probeRefresh {
			delete(c.st.ProbeSent, k) // sent again anyway; a partition gone is forgotten
		}
	}
	var all []shape
	for _, name := range sortedKeys(parts) {
		if _, declared := c.st.Queues[name]; declared {
			all = append(all, c.shapes(parts[name])...)
		}
	}
	if len(all) == 0 {
		return nil
	}
	n := min(len(all), maxProbes)
	first := c.st.ProbeNext % len(all)
	c.st.ProbeNext = (first + n) % len(all)
	// Each probe is dated the poll's clock plus the real time the round
	// has taken (Config.Now is read once per poll: a recording's clock).
	began := time.Now()
	var out []pending
	for i := range n {
		if ctx.Err() != nil {
			return out // the poll was cut short by its caller
		}
		if c.roundTime(began) > probeBudget {
			c.probed(fmt.Sprintf("not asked: the round took longer than %v", probeBudget), int64(n-i))
			return out
		}
		s := all[(first+i)%len(all)]
		if e, ok := c.probeOne(ctx, s, now+int64(c.roundTime(began)/time.Second)); ok {
			out = append(out, pending{e, 6, s.key()})
		}
	}
	return out
}

// roundTime is the real time since a probe round began (or the tests'
// clock's, roundClockForTests).
func (c *Collector) roundTime(began time.Time) time.Duration {
	if c.roundClockForTests != nil {
		return c.roundClockForTests(began)
	}
	return time.Since(began)
}

// probeOne asks Slurm about one shape at time at and returns the answer
// to send, if it is worth sending.
func (c *Collector) probeOne(ctx context.Context, s shape, at int64) (karnak.Event, bool) {
	pctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	out, err := c.cfg.Runner.Run(pctx, "sbatch", "--test-only", "--partition="+s.part,
		"--ntasks="+strconv.FormatInt(s.cores, 10), "--time="+strconv.FormatInt(s.wall/60, 10),
		"--job-name=karnak-probe", "--output=/dev/null", "--wrap=true")
	if err != nil {
		c.cfg.Logf("slurmfeed: probe %s: %v", s.key(), err)
		c.probed("sbatch --test-only failed", 1)
		return karnak.Event{}, false
	}
	start, why := parseTestOnly(out)
	if why != "" {
		c.cfg.Logf("slurmfeed: probe %s: %s: %s", s.key(), why, quote(string(out)))
		c.probed(why, 1)
		return karnak.Event{}, false
	}
	wait := max(start-at, 0)
	if c.st.ProbeSent == nil {
		c.st.ProbeSent = map[string]probeSent{}
	}
	k := s.key()
	if last, ok := c.st.ProbeSent[k]; ok && abs(wait-last.Wait) <= max(60, last.Wait/10) {
		c.probed("answered, unchanged (not sent again)", 1)
		return karnak.Event{}, false
	}
	c.probed("answered, sent", 1)
	c.st.ProbeSent[k] = probeSent{Wait: wait, At: at}
	return karnak.Event{Kind: "estimate", System: c.cfg.System, Time: at, Queue: s.part, Cores: s.cores, WallTime: s.wall, Start: start}, true
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// maxJobEstimates bounds the waiting jobs' estimates sent in one poll;
// the others are sent at the next.
const maxJobEstimates = 1000

// jobEstimates are "estimate" events of the waiting jobs whose expected
// start (squeue) is new, moved (by more than a minute and a tenth of the
// wait it implied) or probeRefresh old, or whose priority (squeue's; the
// order of the service's forecast) moved, dated now (when squeue was
// read).
// They go after the poll's other events, and only for jobs waiting in
// what the service has then (submit sent, start and end not), so that
// the service never has one for a job that is not waiting (it would
// reject the batch).
func (c *Collector) jobEstimates(jobs map[string]job, now int64) []pending {
	var out []pending
	for _, k := range sortedKeys(jobs) {
		j := jobs[k]
		st := c.st.Jobs[k]
		if st == nil || st.Skip != "" || !st.Submitted || st.Started || st.Ended || j.started || j.ended || j.bad != "" {
			continue
		}
		newStart := j.estimate > 0 && !(st.SlurmSentAt > 0 && now-st.SlurmSentAt < probeRefresh && abs(j.estimate-st.SlurmSent) <= max(60, (st.SlurmSent-st.SlurmSentAt)/10))
		// A priority that moved is sent at most once a minute: under
		// multifactor priority every job's age factor grows at every
		// poll, and the order, which is what the forecast needs, moves
		// far less often.
		newPriority := j.priority > 0 && j.priority != st.PrioritySent && now-st.PrioritySentAt >= 60
		if !newStart && !newPriority {
			continue
		}
		if len(out) == maxJobEstimates {
			break // the rest at the next poll
		}
		e := karnak.Event{Kind: "estimate", System: c.cfg.System, Job: st.ID, Time: now}
		if j.estimate > 0 {
			e.Start = j.estimate
			st.SlurmSent, st.SlurmSentAt = j.estimate, now
		}
		if j.priority > 0 {
			e.Priority = j.priority
			st.PrioritySent, st.PrioritySentAt = j.priority, now
		}
		out = append(out, pending{e, 6, k})
	}
	return out
}

// probed counts a probe's outcome in the Report.
func (c *Collector) probed(outcome string, n int64) { count(&c.st.Report.Probes, outcome, n) }

// parseTestOnly reads Slurm's expected start from what `sbatch
// --test-only` printed (on standard error: "sbatch: Job 123 to start at
// 2026-11-24T09:10:00 using 4 processors on nodes n1 in partition debug";
// without "in partition" before 18.08). The time is Unix seconds when
// SLURM_TIME_FORMAT=%s (Exec sets it), else Slurm's default ISO format
// in the local time zone. It returns why when there is no usable time.
func parseTestOnly(out []byte) (start int64, why string) {
	const marker = " to start at "
	for line := range strings.Lines(string(out)) {
		_, rest, ok := strings.Cut(line, marker)
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, "sbatch --test-only: no time after \"to start at\""
		}
		tok := f[0]
		switch t, err := strconv.ParseInt(tok, 10, 64); {
		case err == nil:
			start = t
		case tok == "Unknown":
			return 0, "sbatch --test-only: start Unknown"
		default:
			lt, err := time.ParseInLocation("2006-01-02T15:04:05", tok, time.Local)
			if err != nil {
				return 0, "sbatch --test-only: unreadable start time (SLURM_TIME_FORMAT?)"
			}
			start = lt.Unix()
		}
		if start < 1 || start > maxSlurmTime {
			return 0, "sbatch --test-only: start time out of range"
		}
		return start, ""
	}
	return 0, "sbatch --test-only: no \"to start at\" in its answer"
}
