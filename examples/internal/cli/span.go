package cli

import (
	"fmt"
	"math"

	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

// maxSpan bounds a log's submissions, first to last known one, for the
// commands that bin them (weekly activity, flurries): 100 years. The
// bins' memory grows with the span; no archive log spans more than a
// decade, and a submit time of 2^63 − 1 (a corrupt line) panicked
// (makeslice: len out of range in sanitize.DetectFlurries and
// activity.Totals).
const maxSpan = 100 * 365 * 86400

// SubmitSpan refuses jobs whose known submit times (≥ 0) span more than
// 100 years; known is how many jobs have one.
func SubmitSpan(jobs []swf.Job) (known int, err error) {
	lo, hi := int64(math.MaxInt64), int64(-1)
	for _, j := range jobs {
		if j.Submit >= 0 {
			lo, hi, known = min(lo, j.Submit), max(hi, j.Submit), known+1
		}
	}
	if known > 0 && hi-lo > maxSpan {
		return known, fmt.Errorf("submissions span %d s (from %d to %d), more than 100 years: a corrupt submit time?", hi-lo, lo, hi)
	}
	return known, nil
}

// SubmitsInRange is jobs without those whose submit time is past
// sanitize.MaxTime (2^40 s), in order, and how many it left out: a
// corrupt field, which every simulator rejects ("time out of range") and
// swfstat leaves out of the span. One such job refused a whole log in the
// commands that bin submissions (its submissions spanned more than 100
// years: SubmitSpan), where it is left out and counted now. A span past
// 100 years within the bound is still refused (SubmitSpan): the bins'
// memory grows with it, and which end is wrong is not known. jobs is not
// changed: a copy is made only when a job is left out.
func SubmitsInRange(jobs []swf.Job) ([]swf.Job, int) {
	far := 0
	for _, j := range jobs {
		if j.Submit > sanitize.MaxTime {
			far++
		}
	}
	if far == 0 {
		return jobs, 0
	}
	kept := make([]swf.Job, 0, len(jobs)-far)
	for _, j := range jobs {
		if j.Submit <= sanitize.MaxTime {
			kept = append(kept, j)
		}
	}
	return kept, far
}
