package cli

import (
	"slices"

	"github.com/batchq/batchq/swf"
)

// PartialOnly counts, as a log's lines are read (Add), the jobs given by
// partial-execution lines only (status 2, 3 or 4) with no summary line
// under their number anywhere in the log. Every simulator leaves such a
// job out whole (sanitize.PartialExecution), its lines counted as partial
// executions, which the report explains as "its summary line carries the
// whole run": the job's work was gone with no word of it (40 such jobs
// beside 360 whole ones: "simulated 360, rejected 160 partial execution").
//
// The numbers of both kinds of line are kept as runs of consecutive
// numbers (idRuns), so that a log holds what its numbers' gaps need, not
// a number a line, whether its numbers rise (an archive log's: a few
// runs, where cleaning left gaps) or come shuffled (400,000 lines
// shuffled in windows of 64 held 9.8 MB in a map of the numbers that did
// not rise, under 8 kB as runs: TestPartialOnlyShuffledBounded).
type PartialOnly struct {
	partial idRuns // numbers of partial lines
	other   idRuns // numbers of the other lines
}

// Add notes line j. A line without a number (below 1) is none of a
// checkpointed job's.
func (p *PartialOnly) Add(j *swf.Job) {
	id := j.ID
	if id < 1 {
		return
	}
	if j.Status.Partial() {
		p.partial.add(id)
		return
	}
	// idRuns.add, written out: the rising numbers of the common case cost
	// no call.
	r := &p.other
	switch n := len(r.runs); {
	case n > 0 && id == r.runs[n-1][1]+1:
		r.runs[n-1][1] = id
	case n == 0 || id > r.runs[n-1][1]:
		r.runs = append(r.runs, [2]int64{id, id})
	default:
		r.addLoose(id)
	}
}

// Jobs is the number of job numbers of partial lines that no other line
// has.
func (p *PartialOnly) Jobs() int {
	p.partial.fold()
	p.other.fold()
	n := int64(0) // at most the partial lines: every number counted was read
	o := p.other.runs
	for _, r := range p.partial.runs {
		n += r[1] - r[0] + 1
		for len(o) > 0 && o[0][1] < r[0] {
			o = o[1:]
		}
		for _, c := range o {
			if c[0] > r[1] {
				break
			}
			n -= min(r[1], c[1]) - max(r[0], c[0]) + 1
		}
	}
	return int(n)
}

// idRuns is a set of numbers of 1 and above: sorted runs of consecutive
// numbers, disjoint and, after a fold, not adjacent, and the numbers that
// came at or below the last run (loose), folded into the runs when they
// are as many as the runs (and at least foldMin). Its memory is thus
// proportional to the runs its numbers make, not to the numbers, and a
// number costs O(log n) amortised: a fold sorts the loose numbers and
// merges them in one pass over runs they outnumber.
type idRuns struct {
	runs  [][2]int64 // first and last number of each run
	loose []int64    // numbers not yet in the runs, in any order
}

// foldMin is the fewest loose numbers folded: a few runs are merged
// seldom.
const foldMin = 256

func (r *idRuns) add(id int64) {
	switch n := len(r.runs); {
	case n > 0 && id == r.runs[n-1][1]+1:
		r.runs[n-1][1] = id
	case n == 0 || id > r.runs[n-1][1]:
		r.runs = append(r.runs, [2]int64{id, id})
	default:
		r.addLoose(id)
	}
}

// addLoose is not inlined: in Add it costs the rising numbers spills (Add
// cost 30 instructions a line inlined, 28 not, 29 with the map before
// idRuns: callgrind, simulate on KTH-SP2).
//
//go:noinline
func (r *idRuns) addLoose(id int64) {
	r.loose = append(r.loose, id)
	if len(r.loose) >= max(foldMin, len(r.runs)) {
		r.fold()
	}
}

// fold merges the loose numbers into the runs.
func (r *idRuns) fold() {
	if len(r.loose) == 0 {
		return
	}
	slices.Sort(r.loose)
	var out [][2]int64 // (grown by append: at most twice the runs it ends with)
	push := func(lo, hi int64) {
		// lo-1, not last+1: numbers are 1 and above, and a last of
		// MaxInt64 would wrap.
		if n := len(out); n > 0 && lo-1 <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], hi)
			return
		}
		out = append(out, [2]int64{lo, hi})
	}
	i, j := 0, 0
	for i < len(r.runs) || j < len(r.loose) {
		if j == len(r.loose) || i < len(r.runs) && r.runs[i][0] <= r.loose[j] {
			push(r.runs[i][0], r.runs[i][1])
			i++
		} else {
			push(r.loose[j], r.loose[j])
			j++
		}
	}
	r.runs, r.loose = out, r.loose[:0]
	if cap(r.loose) > 2*max(foldMin, len(r.runs)) {
		r.loose = nil // (the runs merged: what held them is let go)
	}
}
