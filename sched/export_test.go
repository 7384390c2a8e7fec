package sched

import (
	"cmp"
	"slices"
)

// DrawNodesDemand is drawNodesDemand, for the external rapid tests.
var DrawNodesDemand = drawNodesDemand

// SummarizeRecords recomputes a summary from records alone, sorting the
// termination order, to check the order the simulation keeps.
var SummarizeRecords = summarizeRecords

// summarizeRecords is summarize with the termination order sorted from
// the records, as a check of the one the simulation keeps (tests only).
func summarizeRecords(recs []Record, P int64) Summary {
	// the completed jobs in termination order, ties by record order
	var ended []int32
	for i := range recs {
		if !recs[i].Cancelled && recs[i].End >= 0 {
			ended = append(ended, int32(i))
		}
	}
	slices.SortFunc(ended, func(a, b int32) int { // a total order: no need for a stable sort
		if c := cmp.Compare(recs[a].End, recs[b].End); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var lastSubmit int64
	for i := range recs {
		lastSubmit = max(lastSubmit, recs[i].Job.Submit)
	}
	return summarize(recs, P, ended, lastSubmit)
}

// Overloaded is overloadedJobs, for the benchmarks.
var Overloaded = overloadedJobs
