package sanitize

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/batchq/batchq/swf"
)

// field is a job attribute a clause can test.
type field int

// The fields of the filter language, with their keys.
const (
	fieldUser      field = iota // "user"
	fieldJob                    // "job": job number (SWF field 1)
	fieldSubmit                 // "submit": submit time, seconds
	fieldGroup                  // "group"
	fieldExec                   // "exec": executable number
	fieldQueue                  // "queue"
	fieldPartition              // "partition"
	fieldSize                   // "size": allocated processors, else requested
	fieldReqTime                // "reqtime": the user's runtime estimate
	fieldRunTime                // "runtime"
	fieldStatus                 // "status"
	numFields
)

var fieldKeys = [numFields]string{"user", "job", "submit", "group", "exec", "queue", "partition", "size", "reqtime", "runtime", "status"}

func (f field) String() string {
	if f < 0 || f >= numFields {
		return fmt.Sprintf("field(%d)", int(f))
	}
	return fieldKeys[f]
}

func (f field) value(j *swf.Job) int64 {
	switch f {
	case fieldJob:
		return j.ID
	case fieldSubmit:
		return j.Submit
	case fieldUser:
		return j.User
	case fieldGroup:
		return j.Group
	case fieldExec:
		return j.Executable
	case fieldQueue:
		return j.Queue
	case fieldPartition:
		return j.Partition
	case fieldSize:
		return j.Size()
	case fieldReqTime:
		return j.ReqTime
	case fieldRunTime:
		return j.RunTime
	case fieldStatus:
		return int64(j.Status)
	}
	return 0
}

// clause holds when lo <= field <= hi. Open ends are math.MinInt64 and
// math.MaxInt64.
type clause struct {
	field  field
	lo, hi int64
}

// Filter is one line of the filter language, a conjunction of clauses, as
// ParseFilters reads it or DetectFlurries proposes it; String formats it
// back. Comment is kept for round trips.
type Filter struct {
	clauses []clause
	Comment string
}

// Match reports whether every clause of f holds for j. A filter with no
// clauses matches nothing (an empty line must not delete the log).
func (f *Filter) Match(j *swf.Job) bool {
	if len(f.clauses) == 0 {
		return false
	}
	for _, c := range f.clauses {
		v := c.field.value(j)
		if v < c.lo || v > c.hi {
			return false
		}
	}
	return true
}

// String formats f in the filter language.
func (f Filter) String() string {
	parts := make([]string, 0, len(f.clauses)+1)
	for _, c := range f.clauses {
		parts = append(parts, c.String())
	}
	s := strings.Join(parts, " ")
	if f.Comment != "" {
		if s != "" {
			s += " "
		}
		s += "# " + f.Comment
	}
	return s
}

func (c clause) String() string {
	switch {
	case c.lo == c.hi:
		return fmt.Sprintf("%s=%d", c.field, c.lo)
	case c.lo == math.MinInt64:
		return fmt.Sprintf("%s=..%d", c.field, c.hi)
	case c.hi == math.MaxInt64:
		return fmt.Sprintf("%s=%d..", c.field, c.lo)
	}
	return fmt.Sprintf("%s=%d..%d", c.field, c.lo, c.hi)
}

// Filters is a filter file: a job is removed if any filter matches.
type Filters []Filter

// Match returns the index of the first filter matching j, or -1.
func (fs Filters) Match(j *swf.Job) int {
	for i := range fs {
		if fs[i].Match(j) {
			return i
		}
	}
	return -1
}

// Apply returns the jobs no filter matches (a new slice, order kept) and
// how many jobs each filter removed (counted by the first match).
func (fs Filters) Apply(jobs []swf.Job) (kept []swf.Job, removed []int) {
	removed = make([]int, len(fs))
	kept = make([]swf.Job, 0, len(jobs))
	for i := range jobs {
		if k := fs.Match(&jobs[i]); k >= 0 {
			removed[k]++
			continue
		}
		kept = append(kept, jobs[i])
	}
	return kept, removed
}

// Write writes fs, one filter per line.
func (fs Filters) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, f := range fs {
		if _, err := fmt.Fprintln(bw, f.String()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ParseFilters reads a filter file (one line: strings.NewReader(line)). A
// malformed line gives an error naming the line number. Comment-only lines
// are dropped.
//
// The filter language (thesis §7.4 step 3, spec §8.2): a filter names the
// jobs to remove by user, job-number range, time window and shared
// attributes; the PWA publishes its cleaning filters this way. A filter file
// holds one filter per line; '#' starts a comment and blank lines are
// ignored. A filter is a space-separated list of clauses key=range, all of
// which must hold (AND); a job is removed if any filter of the file matches
// it (OR). A range is "v" (exactly v), "lo..hi" (inclusive), "lo.." or
// "..hi" (open on one side), of whole numbers. The keys are the SWF fields
// user, job (the job number), submit (seconds), group, exec (the
// executable number), queue, partition, size (allocated processors, else
// requested: swf.Job.Size), reqtime (the user's estimate), runtime and
// status. Example:
//
//	user=374 job=14969..28552   # SDSC-SP2 start-of-log flurry
//	user=328 submit=50000000.. size=32 reqtime=300
func ParseFilters(r io.Reader) (Filters, error) {
	var fs Filters
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		f, err := parseFilter(sc.Text())
		if err != nil {
			return nil, fmt.Errorf("sanitize: filter line %d: %w", line, err)
		}
		if len(f.clauses) > 0 {
			fs = append(fs, f)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("sanitize: filter line %d: %w", line+1, err)
	}
	return fs, nil
}

// parseFilter parses one line of the filter language.
func parseFilter(s string) (Filter, error) {
	var f Filter
	if i := strings.IndexByte(s, '#'); i >= 0 {
		f.Comment = strings.TrimSpace(s[i+1:])
		s = s[:i]
	}
	seen := map[field]bool{}
	for _, tok := range strings.Fields(s) {
		key, rng, ok := strings.Cut(tok, "=")
		if !ok {
			return Filter{}, fmt.Errorf("clause %q: want key=range", tok)
		}
		fld := field(-1)
		for i, k := range fieldKeys {
			if k == key {
				fld = field(i)
			}
		}
		if fld < 0 {
			return Filter{}, fmt.Errorf("clause %q: unknown key %q (want one of %s)", tok, key, strings.Join(fieldKeys[:], ", "))
		}
		if seen[fld] {
			return Filter{}, fmt.Errorf("clause %q: key %q repeated", tok, key)
		}
		seen[fld] = true
		lo, hi, err := parseRange(rng)
		if err != nil {
			return Filter{}, fmt.Errorf("clause %q: %w", tok, err)
		}
		f.clauses = append(f.clauses, clause{field: fld, lo: lo, hi: hi})
	}
	if len(f.clauses) == 0 {
		// A comment without clauses is not a filter; keep no comment so
		// that round trips stay exact.
		f.Comment = ""
	}
	sort.SliceStable(f.clauses, func(a, b int) bool { return f.clauses[a].field < f.clauses[b].field })
	return f, nil
}

func parseRange(s string) (lo, hi int64, err error) {
	a, b, isRange := strings.Cut(s, "..")
	if !isRange {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("bad value %q", s)
		}
		return v, v, nil
	}
	lo, hi = math.MinInt64, math.MaxInt64
	if a == "" && b == "" {
		return 0, 0, fmt.Errorf("range %q open on both sides", s)
	}
	if a != "" {
		if lo, err = strconv.ParseInt(a, 10, 64); err != nil || lo == math.MinInt64 {
			return 0, 0, fmt.Errorf("bad lower bound %q", a)
		}
	}
	if b != "" {
		if hi, err = strconv.ParseInt(b, 10, 64); err != nil || hi == math.MaxInt64 {
			return 0, 0, fmt.Errorf("bad upper bound %q", b)
		}
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("empty range %q", s)
	}
	return lo, hi, nil
}
