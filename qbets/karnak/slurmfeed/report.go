package slurmfeed

import (
	"maps"
	"math"
	"slices"
)

// Report is what the collector did, what it skipped and why, and how well
// each method predicted the waits of the jobs that started.
type Report struct {
	System  string           `json:"system"`
	Polls   int64            `json:"polls"`
	Batches int64            `json:"batches"`          // acknowledged
	Events  map[string]int64 `json:"events,omitempty"` // acknowledged, by kind
	// Late counts events that came to light after later ones were sent
	// (beyond the reorder delay): sent at the last sent time instead.
	Late int64 `json:"late"`
	// Skipped counts, by reason, the jobs not fed (once each, under the
	// reason of the latest poll that saw them: one a later poll can read
	// is fed, and no longer counted here) and the records not used (at
	// every poll that shows them).
	Skipped map[string]int64 `json:"skipped,omitempty"`
	// NotDue counts, by reason, the jobs seen and not yet due (submitted
	// within the reorder delay before the poll that saw them, or after its
	// time on a clock that ran backwards; or seen so but not at the last
	// poll, until Keep counts them in Skipped): neither fed nor skipped
	// yet, a later poll feeds them. With Skipped and the events fed, every
	// job read is accounted for. They are kept in the cursor: one gone from
	// squeue and sacct while the collector was down is still counted as
	// skipped, as a run without the restart counts it.
	NotDue map[string]int64 `json:"notDue,omitempty"`
	// Probes counts the probes of Slurm's own estimate (Config.ProbeEvery)
	// by outcome: answered and sent, answered unchanged, or why not.
	Probes map[string]int64 `json:"probes,omitempty"`
	// Degenerate counts the polls in which squeue's or sacct's output
	// held job records and every one was bad (Skipped has them): nothing
	// of that output could be fed, as when Slurm writes its JSON in a
	// form the feed does not read. LastDegenerate says what the last such
	// poll read.
	Degenerate     int64  `json:"degenerate,omitempty"`
	LastDegenerate string `json:"lastDegenerate,omitempty"`
	// Errors counts the failed polls (a command or the service); each was
	// retried.
	Errors    int64  `json:"errors"`
	LastError string `json:"lastError,omitempty"`
	// Unpredicted counts the jobs that started before any method was
	// asked: they waited less than the reorder delay plus a poll, or
	// started while the collector was away.
	Unpredicted int64 `json:"unpredicted"`
	// Methods compares Slurm's own expected start (squeue --start), the
	// QBETS bound and the IBL estimate, over the started jobs each one
	// predicted.
	Methods []Method `json:"methods"`
	// Jobs are the latest scored jobs, oldest first (at most 1,000).
	Jobs []Score `json:"jobs,omitempty"`
}

// Method is one method's accuracy. The error of a prediction is
// log10(predicted wait / actual wait), both counted from submission and
// floored at 1 s (a wait of 0 is a wait of 1 s).
type Method struct {
	Name string `json:"name"`
	// Jobs is the number of started jobs this method predicted; Missing
	// the started jobs another method predicted and this one did not
	// (QBETS without enough history, Slurm without an estimate yet).
	Jobs    int64 `json:"jobs"`
	Missing int64 `json:"missing"`
	// MeanAbsLog10 is the mean |error| in orders of magnitude; Within2
	// the share of predictions within a factor of 2 of the actual wait.
	MeanAbsLog10 float64 `json:"meanAbsLog10"`
	Within2      float64 `json:"within2"`
	SumAbsLog10  float64 `json:"sumAbsLog10"`
	NWithin2     int64   `json:"nWithin2"`
}

// Score is one started job: its actual wait and each method's prediction
// (nil: that method made none).
type Score struct {
	Job    string `json:"job"` // Slurm's id: 123, or 120_3 for an array task
	Queue  string `json:"queue"`
	Submit int64  `json:"submit"`
	Start  int64  `json:"start"`
	Wait   int64  `json:"wait"`
	Slurm  *Guess `json:"slurm,omitempty"`
	QBETS  *Guess `json:"qbets,omitempty"`
	IBL    *Guess `json:"ibl,omitempty"`
}

// Guess is one method's predicted wait, seconds from submission, and when
// it was made (Unix seconds): the first poll at which the method answered
// while the job waited.
type Guess struct {
	Wait int64 `json:"wait"`
	At   int64 `json:"at"`
}

const maxScores = 1000

// score adds a job that just started to the comparison.
func (c *Collector) score(key string, st *jobState) {
	r := &c.st.Report
	if len(r.Methods) != nMethods {
		r.Methods = make([]Method, nMethods)
		for m := range r.Methods {
			r.Methods[m].Name = methodNames[m]
		}
	}
	s := Score{Job: key, Queue: st.Queue, Submit: st.Submit, Start: st.Start, Wait: st.Start - st.Submit}
	predicted := false
	for m := range nMethods {
		if st.At[m] == 0 {
			continue
		}
		predicted = true
		w := st.Wait[m]
		g := &Guess{Wait: w, At: st.At[m]}
		switch m {
		case mSlurm:
			s.Slurm = g
		case mQBETS:
			s.QBETS = g
		case mIBL:
			s.IBL = g
		}
		e := math.Abs(math.Log10(float64(max(w, 1)) / float64(max(s.Wait, 1))))
		me := &r.Methods[m]
		me.Jobs++
		me.SumAbsLog10 += e
		if e <= math.Log10(2)+1e-12 {
			me.NWithin2++
		}
		me.MeanAbsLog10 = me.SumAbsLog10 / float64(me.Jobs)
		me.Within2 = float64(me.NWithin2) / float64(me.Jobs)
	}
	if !predicted {
		r.Unpredicted++
		return
	}
	for m := range nMethods {
		if st.At[m] == 0 {
			r.Methods[m].Missing++
		}
	}
	r.Jobs = append(r.Jobs, s)
	if len(r.Jobs) > maxScores {
		r.Jobs = slices.Delete(r.Jobs, 0, len(r.Jobs)-maxScores)
	}
}

// Report returns a copy of the collector's report.
func (c *Collector) Report() Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.st.Report
	r.System = c.cfg.System
	r.Events = maps.Clone(r.Events)
	r.Skipped = maps.Clone(r.Skipped)
	r.Probes = maps.Clone(r.Probes)
	r.NotDue = nil
	for _, j := range c.st.NotDue {
		// By the poll that saw it (j.Seen), not LastPoll: a poll whose
		// batch the service did not take (down) read the jobs but left
		// LastPoll behind, which made a job submitted since "after the
		// last poll's time". Before the first poll since New (a restart),
		// every kept job was seen by an earlier process.
		reason := "submitted within the reorder delay before the last poll"
		switch {
		case c.notDueAt != 0 && j.Seen != c.notDueAt:
			reason = "seen before it was due, not at the last poll"
		case j.Submit > j.Seen:
			reason = "submitted after the last poll's time (a clock that ran backwards)"
		}
		count(&r.NotDue, reason, 1)
	}
	r.Methods = slices.Clone(r.Methods)
	if len(r.Methods) != nMethods {
		r.Methods = make([]Method, nMethods)
		for m := range r.Methods {
			r.Methods[m].Name = methodNames[m]
		}
	}
	r.Jobs = slices.Clone(r.Jobs)
	return r
}
