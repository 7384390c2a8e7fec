package main

import (
	"cmp"
	"fmt"
	"slices"
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
	BackfillSeen, BackfillJumped int
	// OwnPairs counts the pairs of jobs pending together at a sample
	// with different priorities there (the first such sample of each
	// pair) that Slurm started at different seconds; OwnOrder is the
	// share it started the one of higher priority first: how far its
	// order follows its priorities of one moment.
	OwnPairs int     `json:"own_pairs"`
	OwnOrder float64 `json:"own_order"`
}

func measureSlurm(c *checked) *slurmSide {
	rec := c.rec
	if len(rec.Log) == 0 {
		return nil
	}
	log := map[string]logJob{}
	for _, l := range rec.Log {
		if _, ok := c.index[l.ID]; ok {
			log[l.ID] = l
		}
	}
	if len(log) != len(c.real) {
		return nil
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
		first = min(first, r.Submit*1000)
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
			return nil
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
	return s
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
	return fmt.Sprintf("Slurm's own pace (slurmctld's log): while jobs waited, %.1f of the %d CPUs were allocated on average; "+
		"at %d of the %d samples with a pending job the highest-priority one fitted in the free CPUs, and it started a median %.1f s later; "+
		"the main scheduler's starts came in bursts a median %.1f s apart, backfill's %.1f s apart; "+
		"of %d backfill starts of jobs a sample showed pending, %d left a job of higher priority waiting (the others were starts in priority order that a backfill cycle made before the main scheduler's next run). "+
		"Of %d pairs of jobs pending together at a sample with different priorities, Slurm started the one of higher priority first in %.1f%%: its order follows its priorities of one moment only so far (ages and fair shares change, and a job that fits starts before one that does not).\n",
		s.BusyWhileWaiting, cpus, s.TopFits, s.TopSamples, s.TopDelay, s.MainGap, s.BackfillGap, s.BackfillSeen, s.BackfillJumped, s.OwnPairs, 100*s.OwnOrder)
}
