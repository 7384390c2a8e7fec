package cli

import (
	"fmt"
	"math"

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
