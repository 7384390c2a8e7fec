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
// The numbers of the other lines are kept as runs of consecutive numbers
// while they rise (an archive log's: a few runs, where cleaning left gaps),
// the others in a map, so that a streamed run holds a few runs, not a
// number a job.
type PartialOnly struct {
	partial map[int64]struct{} // numbers of partial lines
	runs    [][2]int64         // rising numbers of the other lines, first and last of each run
	other   map[int64]struct{} // the other lines' numbers that did not rise
}

// Add notes line j. A line without a number (below 1) is none of a
// checkpointed job's.
func (p *PartialOnly) Add(j *swf.Job) {
	id := j.ID
	if id < 1 {
		return
	}
	if j.Status.Partial() {
		if p.partial == nil {
			p.partial = map[int64]struct{}{}
		}
		p.partial[id] = struct{}{}
		return
	}
	switch n := len(p.runs); {
	case n > 0 && id == p.runs[n-1][1]+1:
		p.runs[n-1][1] = id
	case n == 0 || id > p.runs[n-1][1]:
		p.runs = append(p.runs, [2]int64{id, id})
	default:
		if p.other == nil {
			p.other = map[int64]struct{}{}
		}
		p.other[id] = struct{}{}
	}
}

// Jobs is the number of job numbers of partial lines that no other line
// has.
func (p *PartialOnly) Jobs() int {
	n := 0
	for id := range p.partial {
		if _, ok := p.other[id]; ok {
			continue
		}
		i, _ := slices.BinarySearchFunc(p.runs, id, func(r [2]int64, id int64) int {
			switch {
			case r[1] < id:
				return -1
			case r[0] > id:
				return 1
			}
			return 0
		})
		if i < len(p.runs) && p.runs[i][0] <= id && id <= p.runs[i][1] {
			continue
		}
		n++
	}
	return n
}
