package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// slurmSide is what the recording says of Slurm's own pace, which no
// simulation that starts jobs the moment they fit reproduces: how busy
// the CPUs were while jobs waited, how often the highest-priority waiting
// job fitted in the free CPUs at a sample and how long it then waited
// still, and how far apart the main scheduler's and backfill's starts
// came (bursts of starts less than 0.5 s apart count once). From
// slurmctld's log (milliseconds); nil without it.
type slurmSide struct {
	BusyWhileWaiting float64 `json:"busy_cpus_while_waiting"` // mean CPUs allocated while some job waits
	TopFits          int     `json:"samples_top_fits"`        // samples where the top pending job fits
	TopSamples       int     `json:"samples_with_pending"`
	TopDelay         float64 `json:"top_fits_median_delay"` // median s from such a sample to its start
	MainGap          float64 `json:"main_median_gap"`       // median s between main-scheduler bursts
	BackfillGap      float64 `json:"backfill_median_gap"`   // median s between backfill bursts
	// BackfillSeen counts backfill's starts of jobs some earlier sample
	// shows pending, BackfillJumped those of them that left a job of
	// higher priority (at that sample) pending for more than 0.5 s: the
	// others were starts in priority order that a backfill cycle made
	// before the main scheduler's next run.
	BackfillSeen   int `json:"backfill_seen"`
	BackfillJumped int `json:"backfill_jumped"`
	// OwnPairs counts the pairs of jobs pending together at a sample
	// with different priorities there (the first such sample of each
	// pair) that Slurm started at different seconds; OwnOrder is the
	// share it started the one of higher priority first: how far its
	// order follows its priorities of one moment.
	OwnPairs int     `json:"own_pairs"`
	OwnOrder float64 `json:"own_order"`
	// Usage is, per user association ("user/account", in sshare's
	// order), the RawUsage sshare showed after the run (what Slurm
	// charged, decayed) beside the CPU-seconds sacct shows its jobs
	// used: the fair-share factors follow the former.
	Usage []usageRow `json:"usage,omitempty"`
}

type usageRow struct {
	Assoc    string `json:"assoc"`
	RawUsage int64  `json:"raw_usage"`
	CPUSecs  int64  `json:"cpu_seconds"`
	// AtRuns is the usage a charge at the recalculations only gives:
	// at each decay run, each job running then is charged its CPUs ×
	// the time since the previous run or its start, whichever is later,
	// and what was charged before decays by the half-life. A job that
	// starts and ends between two runs is never charged.
	AtRuns int64 `json:"charged_at_runs"`
}

// sshareUsage reads the user lines of sshare -a -P -l: account (its
// leading blanks dropped), user, RawUsage.
func sshareUsage(text string) []usageRow {
	var out []usageRow
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) == 0 {
		return nil
	}
	head := strings.Split(lines[0], "|")
	col := func(name string) int { return slices.Index(head, name) }
	ca, cu, cr := col("Account"), col("User"), col("RawUsage")
	if ca < 0 || cu < 0 || cr < 0 {
		return nil
	}
	for _, l := range lines[1:] {
		f := strings.Split(l, "|")
		if len(f) != len(head) || f[cu] == "" || f[cu] == "root" {
			continue
		}
		v, err := strconv.ParseInt(f[cr], 10, 64)
		if err != nil {
			return nil
		}
		out = append(out, usageRow{Assoc: f[cu] + "/" + strings.TrimSpace(f[ca]), RawUsage: v})
	}
	return out
}

// halfLife is PriorityDecayHalfLife in seconds (0: none known). Without a
// log it measures nothing and says nothing (recordings made before the log
// was kept); with one it cannot use, it says why (why != "").
func measureSlurm(c *checked, halfLife int64) (_ *slurmSide, why string) {
	rec := c.rec
	if len(rec.Log) == 0 {
		return nil, ""
	}
	log := map[string]logJob{}
	for _, l := range rec.Log {
		if _, ok := c.index[l.ID]; ok {
			log[l.ID] = l
		}
	}
	if len(log) != len(c.real) {
		return nil, fmt.Sprintf("slurmctld's log names %d of the %d jobs", len(log), len(c.real))
	}
	cpus := func(id string) int64 { return c.real[c.index[id]].CPUs }
	busyAt := func(t int64) int64 {
		var b int64
		for id, l := range log {
			if l.Start <= t && t < l.End {
				b += cpus(id)
			}
		}
		return b
	}
	waiting := func(t int64) bool {
		for id, l := range log {
			if c.real[c.index[id]].Submit*1000 <= t && t < l.Start {
				return true
			}
		}
		return false
	}
	s := &slurmSide{}
	var first, last int64 = 1 << 62, 0
	for _, l := range log {
		first, last = min(first, l.Start), max(last, l.End)
	}
	for _, r := range c.real {
		if r.Submit > 0 { // (0: sacct's Unknown)
			first = min(first, r.Submit*1000)
		}
	}
	if last-first > maxRunMs {
		return nil, "sacct's submits and the log's times span more than a week: not one live run"
	}
	var sum, n int64
	for t := first; t < last; t += 250 {
		if waiting(t) {
			sum += busyAt(t)
			n++
		}
	}
	if n > 0 {
		s.BusyWhileWaiting = float64(sum) / float64(n)
	}
	var delays []float64
	for _, smp := range rec.Samples {
		ps, err := parseSprio(smp.Sprio)
		if err != nil {
			return nil, "a sprio sample: " + err.Error()
		}
		var top *prio
		for i := range ps {
			l, ok := log[ps[i].ID]
			if ok && l.Start > smp.T && (top == nil || ps[i].Priority > top.Priority) {
				top = &ps[i]
			}
		}
		if top == nil {
			continue
		}
		s.TopSamples++
		if cpus(top.ID) <= c.cpus-busyAt(smp.T) {
			s.TopFits++
			delays = append(delays, float64(log[top.ID].Start-smp.T)/1000)
		}
	}
	s.TopDelay = median(delays)
	gaps := func(backfill bool) float64 {
		var ts []int64
		for _, l := range log {
			if l.Backfill == backfill {
				ts = append(ts, l.Start)
			}
		}
		slices.Sort(ts)
		var g []float64
		for i := 1; i < len(ts); i++ {
			if d := ts[i] - ts[i-1]; d >= 500 {
				g = append(g, float64(d)/1000)
			}
		}
		return median(g)
	}
	s.MainGap, s.BackfillGap = gaps(false), gaps(true)
	type pair struct{ a, b string }
	seen := map[pair]bool{}
	own := 0
	for _, smp := range rec.Samples {
		ps, _ := parseSprio(smp.Sprio)
		for i, a := range ps {
			for _, b := range ps[i+1:] {
				ka, oka := c.index[a.ID]
				kb, okb := c.index[b.ID]
				if !oka || !okb || a.Priority == b.Priority || seen[pair{a.ID, b.ID}] {
					continue
				}
				sa, sb := c.real[ka].Start, c.real[kb].Start
				if sa == sb {
					continue
				}
				seen[pair{a.ID, b.ID}] = true
				s.OwnPairs++
				if (a.Priority > b.Priority) == (sa < sb) {
					own++
				}
			}
		}
	}
	if s.OwnPairs > 0 {
		s.OwnOrder = float64(own) / float64(s.OwnPairs)
	}
	s.Usage = sshareUsage(rec.SharesEnd)
	atRuns := map[string]float64{}
	if halfLife > 0 {
		for k := 1; k < len(rec.Decays); k++ {
			d, prev := rec.Decays[k], rec.Decays[k-1]
			f := math.Pow(0.5, float64(d-prev)/1000/float64(halfLife))
			for a := range atRuns {
				atRuns[a] *= f
			}
			for id, l := range log {
				if l.Start < d && d < l.End {
					r := c.real[c.index[id]]
					atRuns[r.User+"/"+r.Account] += float64(r.CPUs) * float64(d-max(l.Start, prev)) / 1000
				}
			}
		}
	}
	for i := range s.Usage {
		for _, r := range c.real {
			if r.User+"/"+r.Account == s.Usage[i].Assoc {
				s.Usage[i].CPUSecs += (r.End - r.Start) * r.CPUs
			}
		}
		s.Usage[i].AtRuns = int64(math.Round(atRuns[s.Usage[i].Assoc]))
	}
	for id, l := range log {
		if !l.Backfill {
			continue
		}
		k, _ := slices.BinarySearchFunc(rec.Samples, l.Start+1, func(a sample, t int64) int { return cmp.Compare(a.T, t) })
		if k == 0 {
			continue
		}
		ps, _ := parseSprio(rec.Samples[k-1].Sprio)
		i := slices.IndexFunc(ps, func(p prio) bool { return p.ID == id })
		if i < 0 {
			continue
		}
		s.BackfillSeen++
		for _, p := range ps {
			if o, ok := log[p.ID]; ok && p.Priority > ps[i].Priority && o.Start > l.Start+500 {
				s.BackfillJumped++
				break
			}
		}
	}
	return s, ""
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func (s *slurmSide) text(cpus int64) string {
	// Without a sample where the top job fitted, or a pair of pending
	// jobs, there is no delay and no share to give: "–", not 0.
	delay := "; "
	if s.TopFits > 0 {
		delay = fmt.Sprintf(", and it started a median %.1f s later; ", s.TopDelay)
	}
	order := "–."
	if s.OwnPairs > 0 {
		order = fmt.Sprintf("%.1f%%: its order follows its priorities of one moment only so far (ages and fair shares change, and a job that fits starts before one that does not).", 100*s.OwnOrder)
	}
	return fmt.Sprintf("Slurm's own pace (slurmctld's log): while jobs waited, %.1f of the %d CPUs were allocated on average; "+
		"at %d of the %d samples with a pending job the highest-priority one fitted in the free CPUs%s"+
		"the main scheduler's starts came in bursts a median %.1f s apart, backfill's %.1f s apart; "+
		"of %d backfill starts of jobs a sample showed pending, %d left a job of higher priority waiting (the others were starts in priority order that a backfill cycle made before the main scheduler's next run). "+
		"Of %d pairs of jobs pending together at a sample with different priorities, Slurm started the one of higher priority first in %s\n",
		s.BusyWhileWaiting, cpus, s.TopFits, s.TopSamples, delay, s.MainGap, s.BackfillGap, s.BackfillSeen, s.BackfillJumped, s.OwnPairs, order) +
		s.usageText()
}

func (s *slurmSide) usageText() string {
	if len(s.Usage) == 0 {
		return ""
	}
	parts := make([]string, len(s.Usage))
	for i, u := range s.Usage {
		parts[i] = fmt.Sprintf("%s %d (%d; %d)", u.Assoc, u.RawUsage, u.CPUSecs, u.AtRuns)
	}
	return "\nUsage Slurm charged, as sshare's RawUsage after the run, and in parentheses the CPU-seconds sacct shows the association's jobs used and what charging only the jobs running at each recalculation gives (each its CPUs × the time since the previous recalculation or its start, decayed with the half-life; a job that starts and ends between two recalculations is never charged): " + strings.Join(parts, ", ") + ".\n"
}
