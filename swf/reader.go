package swf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
)

// defaultMaxErrors is how many parse errors a lenient Reader keeps.
const defaultMaxErrors = 100

// Reader reads an SWF trace one job at a time, in O(1) memory. Its shape
// follows encoding/csv: set the option fields before the first call, then
// call Read (or ReadInto) until io.EOF, or use All or ReadAll.
//
// Header comment lines are collected as they are met; Header reads ahead to
// the first job line to return them. Comment lines that appear after the
// first job are appended to Header.Lines too (they are counted in
// Stats.LateComments), so nothing is lost, but they change no typed field.
// A demand line (see the package doc) is not a comment: it sets the next
// job's Demand.
// Header values that bend the format are warnings (Stats.Warnings), never
// errors; see Header. A line over 16 MiB is malformed (its error wraps
// ErrRange), and its bytes are not kept, so that memory stays bounded.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	// Lenient makes Read skip malformed lines instead of failing. Skipped
	// lines are counted and the first MaxErrors errors are kept (Stats).
	Lenient bool
	// MaxErrors bounds the errors kept in lenient mode; 0 means 100, and
	// a negative value keeps none (the lines are still counted in
	// Stats.Skipped): the way to skip a damaged log's lines without
	// holding their errors.
	MaxErrors int

	src     io.Reader
	buf     []byte // input; buf[rpos:wpos] is not consumed yet
	rpos    int
	wpos    int
	srcErr  error  // what ended src; returned once buf is drained
	cr      bool   // a lone '\r' ended a line: search for '\r' first
	skipLF  bool   // the last line ended in '\r': a '\n' next belongs to it
	afterCR bool   // the last line cut ended in "\r\n" or was the first to end in a lone '\r': nextFast leaves the next to readLine
	clean   int    // buf[rpos:rpos+clean] was searched and holds no line terminator
	noCR    int    // buf[rpos:noCR] holds no '\r' (noCR may lie below rpos: nothing known)
	long    bool   // the line being read is over maxLine: its bytes are dropped
	dropped int64  // the bytes of the long line dropped so far
	name    string // the file's, for an error that is not a *ParseError (OpenReader); "" none
	line    int
	header  Header
	hp      headerParser
	pending bool // job holds a parsed line that Header read ahead
	job     Job
	dem     *Demand // a demand line's demand, for the next job line
	demLine int     // the line of dem
	stats   Stats
	fast    fastScratch // parseFast's
	last    int64       // the last known submit time read (0 before any)
	// damage, set by OpenReader on a gzip stream, reads on after the
	// first malformed line in strict mode for the stream's own error
	// (see damagedError); nil on any other source.
	damage func() error
	seen   bool
	err    error // sticky error (strict mode) or io.EOF
}

// Stats describes what a Reader has read so far.
type Stats struct {
	Jobs    int           // job lines returned
	Skipped int           // malformed lines skipped (lenient mode)
	Errors  []*ParseError // the first MaxErrors errors behind Skipped
	// OutOfOrder counts jobs whose known submit time is earlier than that
	// of the job before them (the last one with a known submit time): the
	// places where the log goes back in time, as sanitize.Reorder counts
	// them. One job logged with a huge submit time counts once (the job
	// after it), not every later job as well, as when each was compared
	// with the largest submit time before it. Unknown submit times (-1)
	// are never compared: they are counted in UnknownSubmit instead, so
	// that a log with missing submits does not look unsorted. Nor are the
	// lines of partial executions (status 2, 3 and 4): they repeat their
	// job's submit time where the log puts each run (a checkpointed job's
	// runs were each counted as going back in time).
	OutOfOrder    int
	UnknownSubmit int // jobs whose submit time is -1 (unknown)
	LateComments  int // comment lines after the first job line (demand lines aside)
	Demands       int // jobs returned with a demand line (Job.Demand set)
	// Warnings lists, in order, every header line that did not set what it
	// names: a numeric value kept as text (wrapping ErrSyntax or ErrRange),
	// a repeated key (ErrRepeatedKey), a key after the first job line
	// (ErrLateHeader). They never stop reading, in strict mode either.
	// Each comes from a comment line, all of which Header.Lines keeps too.
	Warnings []*ParseError
	// OtherStatus counts jobs whose status (field 11) is outside the
	// standard -1..5, such as -2, -4 or 6 in some archive logs. Such jobs
	// are returned with their status as written, in strict and lenient
	// mode alike; callers decide what the value means.
	OtherStatus int
	// OtherStatusCounts splits OtherStatus by value, for the first 64
	// distinct values, so that memory stays bounded on any input; jobs
	// with further values are only in OtherStatus.
	OtherStatusCounts map[Status]int
	// Rounded counts the time fields of the jobs read (submit, wait, run
	// time, requested time, think time: fields 2, 3, 4, 9 and 18) that
	// were written with a fraction, such as "20.5", which the SWF
	// definition allows, and were read rounded to the nearest second,
	// halves away from zero ("20.5" is 21, as math.Round has it). A
	// value whose fraction is zero ("100.0") is not counted: it is read
	// unchanged. A value below -1 is read as -1 (BelowUnknown), as in
	// whole seconds; "-0.5" is refused (ErrRange: no "unknown" and no 0);
	// a value in another notation ("1e3", "0x10", "inf") is still not a
	// number.
	Rounded int
	// RoundedFields splits Rounded by field: RoundedFields[k] counts
	// field k+1 (only the time fields' entries, 1, 2, 3, 8 and 17, can be
	// other than 0). A simulator uses fields 2, 4 and 9 alone (submit,
	// run and requested time): a log whose fractions are all in the wait
	// or the think time simulates as it would in whole seconds.
	RoundedFields [NumFields]int
	// BelowUnknown counts the fields of the jobs read that held a number
	// below -1 ("-5", "-2.5"; the status excepted, whose negative codes
	// are kept): SWF defines none, and such a value was read as -1,
	// unknown, the job kept. pyss and predictsim simulate such a job as
	// one with -1 there (checked field by field); refusing the line made a
	// log with one clock-skewed wait unreadable without -lenient, which
	// then dropped the job. BelowUnknownFields splits it by field, as
	// RoundedFields does.
	BelowUnknown       int
	BelowUnknownFields [NumFields]int
}

// maxStatusValues bounds Stats.OtherStatusCounts (its doc says 64).
const maxStatusValues = 64

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	rd := &Reader{src: r, buf: make([]byte, 64<<10)}
	rd.hp.h = &rd.header
	return rd
}

// Header returns the header comments. It reads ahead to the first job line
// (which the next Read returns), so call it before or after reading jobs.
func (r *Reader) Header() (*Header, error) {
	if !r.seen && !r.pending && r.err == nil {
		switch err := r.next(&r.job, false); {
		case err == nil:
			r.pending = true
		case err != io.EOF:
			return &r.header, err
		}
	}
	return &r.header, nil
}

// Stats reports counts of what has been read so far. The result is a
// snapshot: reading on does not change it.
func (r *Reader) Stats() Stats {
	st := r.stats
	st.Errors = slices.Clip(st.Errors)
	st.Warnings = slices.Clip(st.Warnings)
	st.OtherStatusCounts = maps.Clone(st.OtherStatusCounts)
	return st
}

// Read returns the next job, or io.EOF after the last one. In strict mode
// the first malformed line ends reading with a *ParseError.
func (r *Reader) Read() (j Job, err error) {
	// (Into the named result: a local returned was one more copy of
	// the job a line.)
	if err = r.readInto(&j); err != nil {
		return Job{}, err
	}
	return j, nil
}

// ReadInto is Read into *j, for a caller that keeps jobs in a slice of
// its own: it writes every field of *j (Demand included), whatever *j
// held, and spares Read's copy of the job. On error, io.EOF included, *j
// is the zero Job, as Read returns it.
func (r *Reader) ReadInto(j *Job) error {
	if err := r.readInto(j); err != nil {
		*j = Job{}
		return err
	}
	return nil
}

// readInto is Read into *j, which holds garbage on error: ReadAll parses
// straight into its slice, without copying each 144-byte Job.
func (r *Reader) readInto(j *Job) error {
	switch {
	case r.pending:
		r.pending = false
		*j = r.job
	case r.err == nil && r.nextFast(j):
		// next's first step, taken here: a call less a line (KTH-SP2's
		// whole EASY run: 154.3 M → 153.7 M instructions)
	default:
		if err := r.next(j, true); err != nil {
			return err
		}
	}
	// count's work on a line in order, without a demand and with a known
	// status, inline (last is never below 0: its submit is known); the
	// call a line cost 22 instructions.
	r.stats.Jobs++
	if j.Demand == nil && j.Submit >= r.last && j.Status.defined() {
		r.last = j.Submit
	} else {
		r.count(j)
	}
	return nil
}

// count adds line j (counted in Jobs) to the statistics.
func (r *Reader) count(j *Job) {
	if j.Demand != nil {
		r.stats.Demands++
	}
	if j.Submit < 0 {
		r.stats.UnknownSubmit++
	} else if j.Submit >= r.last {
		// last starts at 0 and submits here are >= 0, so the first known
		// submit is never out of order. The previous submit, not the
		// largest so far: one corrupt submit (a year 2100 in a 1998 log)
		// made every later job out of order.
		r.last = j.Submit
	} else if !j.Status.Partial() { // (tested here only: no cost to lines in order)
		r.stats.OutOfOrder++
		r.last = j.Submit
	}
	if !j.Status.defined() {
		r.countStatus(j.Status)
	}
}

func (r *Reader) countStatus(s Status) {
	r.stats.OtherStatus++
	m := r.stats.OtherStatusCounts
	if m == nil {
		m = make(map[Status]int)
		r.stats.OtherStatusCounts = m
	}
	if _, ok := m[s]; ok || len(m) < maxStatusValues {
		m[s]++
	}
}

// All iterates over the remaining jobs. Iteration stops after yielding an
// error.
func (r *Reader) All() iter.Seq2[Job, error] {
	return func(yield func(Job, error) bool) {
		for {
			j, err := r.Read()
			if err == io.EOF {
				return
			}
			if !yield(j, err) || err != nil {
				return
			}
		}
	}
}

// ReadAll reads the remaining jobs.
func (r *Reader) ReadAll() ([]Job, error) {
	var jobs []Job
	// Size the slice from the header's counts when it has them (bounded,
	// so a hostile header cannot reserve much): growing a 243k-job slice by
	// appends alone allocates about five times its final size.
	if h, err := r.Header(); err == nil {
		if n := max(h.MaxRecords, h.MaxJobs); n > 0 {
			jobs = make([]Job, 0, min(n, 1<<22))
		}
	}
	// Parse into the slice's next free element; only at full capacity
	// into a local, then appended (which also keeps a trace without jobs
	// nil, as appends alone leave it).
	var spare Job
	for {
		dst := &spare
		if n := len(jobs); n < cap(jobs) {
			dst = &jobs[:n+1][n]
		}
		switch err := r.readInto(dst); {
		case err == io.EOF:
			return jobs, nil
		case err != nil:
			return jobs, err
		case dst == &spare:
			jobs = append(jobs, spare)
		default:
			jobs = jobs[:len(jobs)+1]
		}
	}
}

// next parses lines until it has a job, which it writes into *j (garbage
// on error), handling comments and blank lines. tried says the caller
// just tried nextFast, which failed: it is not tried again on this line.
func (r *Reader) next(j *Job, tried bool) error {
	for r.err == nil {
		if !tried && r.nextFast(j) {
			return nil
		}
		tried = false
		line, err := r.readLine()
		if err == errLongNow {
			r.line++
			r.fail(&ParseError{Line: r.line, Err: errLongLine}) // (strict: it stops)
			return r.err
		}
		if err == errEndless {
			// Not a *ParseError (no skipping it): it names the file as
			// the other errors of a read do.
			name := "swf: "
			if r.name != "" {
				name += r.name + ": "
			}
			err = fmt.Errorf("%sline %d: %w", name, r.line+1, errEndless)
		}
		if err != nil {
			if err == io.EOF && r.orphan() {
				return r.err
			}
			r.err = err
			break
		}
		r.line++
		if r.long {
			// The line was dropped as it came: a malformed line, its
			// demand line with it (as for any malformed job line).
			r.long, r.dem = false, nil
			if r.fail(&ParseError{Line: r.line, Err: errLongLine}) {
				return r.err
			}
			continue
		}
		if len(line) > 0 && line[0] == 0xef {
			// A UTF-8 byte order mark, as some editors write, is not
			// text: at line 1, or where a second file begins (cat a.swf
			// b.swf), where it made the line malformed.
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		line = line[blanks(line, 0):]
		if len(line) == 0 {
			continue
		}
		if line[0] == ';' {
			// A pending demand belongs to the next line: a comment or
			// another demand line there leaves it without its job.
			if r.orphan() {
				return r.err
			}
			if isDemandLine(line) {
				d, perr := parseDemand(line[len(demandMark):])
				if perr != nil {
					perr.Line = r.line
					if r.fail(perr) {
						return r.err
					}
					continue
				}
				r.dem, r.demLine = d, r.line
				continue
			}
			if r.seen {
				r.stats.LateComments++
			}
			// Keep the comment as written (minus its line terminator and
			// leading blanks) so that a Writer reproduces the header byte
			// for byte ("\n" files) or line for line.
			if w := r.hp.add(string(line), r.seen); w != nil {
				w.Line = r.line
				r.stats.Warnings = append(r.stats.Warnings, w)
			}
			continue
		}
		seen := r.seen
		r.seen = true
		// A malformed job line takes its demand line with it.
		d := r.dem
		r.dem = nil
		rounded, perr := parseJob(line, j, &r.fast)
		if perr != nil {
			if bytes.HasPrefix(line, []byte("\xff\xfe")) || bytes.HasPrefix(line, []byte("\xfe\xff")) {
				// UTF-16's byte-order mark, at line 1 or where a second
				// file begins (cat a.swf b.swf): every line of it fails
				// with a NUL after each character, the first as a job
				// number "\xff\xfe;\x00". Checked on the error path
				// only, so a good line costs nothing. It is no job line:
				// the header goes on after it (Lenient), as it did when
				// line 1 was checked apart.
				perr = &ParseError{Err: errUTF16}
				r.seen = seen
			}
			perr.Line = r.line
			if r.fail(perr) {
				return r.err
			}
			continue
		}
		if j.Demand != d { // (nil into a fresh slice: no write, no barrier)
			j.Demand = d
		}
		// Counted as read, as Skipped is: a job that Header reads
		// ahead is counted before Read returns it.
		if rounded != 0 { // (a line with a fraction in a time field, or a value below -1: rare)
			r.countRounded(rounded)
		}
		return nil
	}
	return r.err
}

// nextFast is next for a job line that parseLine takes and that lies
// whole in the buffer: parsed where it lies, it is not cut out by
// readLine, copied and walked again (whole process, archive logs: 2.2 to
// 2.5% fewer instructions). It reports whether it read such a line; else
// the Reader and its buffer are as they were (*j may be written, by a
// line of 241 to 254 bytes), and next reads the line as any other. A line
// with a '\r' (CRLF or lone CR files), a comment, a demand line, a blank
// line, a long or malformed one are all refused by parseLine; after a
// line that ended in '\r', nextFast leaves lines to readLine at once.
func (r *Reader) nextFast(j *Job) bool {
	// After a line that ended in '\r' (skipLF in a lone-CR file, afterCR
	// in a CRLF one and at a file's first lone '\r'), parseLine would walk the next line to its '\r' and
	// refuse it, and readLine would parse it again: KTH-SP2 with CRLF line
	// ends counted 188.9 M instructions against 154.9 M before nextFast.
	if r.wpos-r.rpos < len(r.fast.b) || r.skipLF || r.afterCR {
		return false
	}
	// The 258 bytes ahead, a 0 in b[255] for the time of the parse:
	// parseLine stops there at the latest (one store where a search for
	// the line's '\n' was 60 instructions a line), and its byte index
	// cannot wrap around (without the 0, 300 blanks loop for ever). The
	// buffer is the Reader's own: src wrote into it before (io.Reader
	// keeps no p) and nothing else reads it; parseLine cannot panic.
	b := (*[258]byte)(r.buf[r.rpos:])
	last := b[255]
	b[255] = 0
	n, ok := parseLine(b, j, &r.fast)
	b[255] = last
	if !ok || n > maxFastLine {
		return false
	}
	r.rpos += int(n) + 1
	r.line++
	r.seen = true
	if j.Demand != r.dem { // (as in next)
		j.Demand = r.dem
	}
	r.dem = nil
	return true
}

// orphan fails a pending demand line that no job line followed; it
// reports whether reading must stop (strict mode).
func (r *Reader) orphan() bool {
	if r.dem == nil {
		return false
	}
	r.dem = nil
	return r.fail(&ParseError{Line: r.demLine, Err: errDemandOrphan})
}

// fail records e; it reports whether reading must stop (strict mode).
func (r *Reader) fail(e *ParseError) bool {
	if !r.Lenient {
		r.err = e
		if r.damage != nil {
			d := r.srcErr // (the stream may have failed already, behind the line)
			if d == nil || d == io.EOF {
				d = r.damage()
			}
			if d != nil && d != io.EOF {
				r.err = &damagedError{gzip: d, first: e}
			}
		}
		return true
	}
	r.stats.Skipped++
	limit := r.MaxErrors
	if limit == 0 {
		limit = defaultMaxErrors
	}
	if len(r.stats.Errors) < limit {
		r.stats.Errors = append(r.stats.Errors, e)
	}
	return false
}

// readLine returns the next line without its terminator, which is "\n",
// "\r\n" or a lone "\r" (old Mac files), in any mix. It does not allocate
// unless a line is longer than the buffer, which then grows to hold it. The
// slice is valid until the next call. A partial last line is returned at
// io.EOF, but dropped before any other read error, which is returned
// instead (it explains the cut).
func (r *Reader) readLine() ([]byte, error) {
	for {
		data := r.buf[r.rpos:r.wpos]
		if r.skipLF && len(data) > 0 {
			r.skipLF = false
			if data[0] == '\n' {
				r.rpos++
				data = data[1:]
			}
		}
		if line, n, ok := r.cut(data, r.clean); ok {
			r.rpos += n
			r.clean = 0
			r.long = r.long || len(line) > maxLine // (whatever the reads' sizes)
			r.dropped = 0
			return line, nil
		}
		// No line yet: the next search starts where this one ended (a
		// '\r' last aside), else a line that comes in many small reads
		// (gzip gives 32 KiB at most) is searched from its start after
		// each: a 64 MiB line took 3.5 s of CPU, 16 times a 16 MiB one.
		r.clean = max(len(data)-1, 0)
		if r.clean > maxLine {
			// Past any real line: strict, it is an error at once (read on
			// to its end, /dev/zero, whose line has none, was read until
			// the command was killed); lenient, drop what came (its last
			// byte aside, a '\r' maybe) and read on to its end, so that a
			// line of gigabytes (a megabyte of gzip) does not take as much
			// memory, up to maxDropped.
			if !r.Lenient {
				return nil, errLongNow
			}
			r.long = true
			r.dropped += int64(r.wpos - 1 - r.rpos)
			if r.dropped > maxDropped {
				return nil, errEndless
			}
			r.rpos, r.clean = r.wpos-1, 0
			continue
		}
		if r.srcErr != nil {
			if r.srcErr != io.EOF || len(data) == 0 {
				return nil, r.srcErr
			}
			r.rpos, r.clean = r.wpos, 0
			line := bytes.TrimSuffix(data, []byte{'\r'})
			r.long = r.long || len(line) > maxLine
			return line, nil
		}
		r.fill()
	}
}

// cut finds the first complete line in data, whose first c bytes were
// searched already and hold no line terminator: it returns the line
// without its terminator, the bytes it takes up with the terminator, and
// whether a line was found. data is buf[rpos:wpos] (noCR, an index of
// buf, is data's noCR-rpos). Files with "\n" or "\r\n" cost one extra
// IndexByte (the check for a lone '\r'): a "\n" file's once a buffer, a
// "\r\n" file's once a line; after the first lone '\r', '\r' is searched
// for first, so that CR files do not scan to the end of the buffer for
// each line.
func (r *Reader) cut(data []byte, c int) ([]byte, int, bool) {
	if r.cr {
		i := index(data, c, '\r')
		if k := bytes.IndexByte(data[c:i], '\n'); k >= 0 {
			r.afterCR = false
			return data[:c+k], c + k + 1, true
		}
		if i == len(data) {
			return nil, 0, false
		}
		r.skipLF = true
		return data[:i], i + 1, true
	}
	i := index(data, c, '\n')
	// The first '\r' in data[c:i], from the first '\r' at or after c,
	// which one search finds for all the lines before it (a search of
	// each line cost more than the search to the buffer's end).
	if r.rpos+i > r.noCR {
		r.noCR = r.rpos + index(data, c, '\r')
	}
	j := -1
	if k := r.noCR - r.rpos; k < i {
		j = k
	}
	switch {
	case j >= 0 && j+1 < len(data) && data[j+1] != '\n':
		r.cr, r.afterCR = true, true // a lone '\r'
		return data[:j], j + 1, true
	case i == len(data):
		return nil, 0, false // no terminator yet, or '\r' last
	case j >= 0:
		r.afterCR = true
		return data[:j], i + 1, true // "\r\n"
	}
	r.afterCR = false
	return data[:i], i + 1, true
}

// fill moves the unread bytes to the front of buf, grows buf when they
// fill it, and reads more.
func (r *Reader) fill() {
	if r.rpos > 0 {
		r.wpos = copy(r.buf, r.buf[r.rpos:r.wpos])
		r.noCR -= r.rpos
		r.rpos = 0
	}
	if r.wpos == len(r.buf) {
		r.buf = append(r.buf, make([]byte, len(r.buf))...)
	}
	for range 100 {
		n, err := r.src.Read(r.buf[r.wpos:])
		if n < 0 || n > len(r.buf)-r.wpos {
			r.srcErr = errBadRead
			return
		}
		r.wpos += n
		if err != nil {
			r.srcErr = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.srcErr = io.ErrNoProgress
}

// index is the index of the first b in data at or after from, or
// len(data).
func index(data []byte, from int, b byte) int {
	if i := bytes.IndexByte(data[from:], b); i >= 0 {
		return from + i
	}
	return len(data)
}

// maxLine bounds a line (an SWF job line takes about 100 bytes): a longer
// one is malformed, and its bytes are not kept.
const maxLine = 16 << 20

// errLongLine is the error of a line over maxLine, wrapping ErrRange.
var errLongLine = fmt.Errorf("line longer than 16 MiB: %w", ErrRange)

// errLongNow is readLine's word to a strict read that the line is over
// maxLine (next makes it errLongLine's ParseError, at once).
var errLongNow = errors.New("swf: a line over maxLine")

// maxDropped bounds the line a lenient read drops to find its end: an
// endless "line" (/dev/zero, a stream of NULs) is not a log's, and has no
// end to skip to.
const maxDropped = 1 << 30

// errEndless is the error of a lenient read of a line over maxDropped
// (next names the file and the line).
var errEndless = fmt.Errorf("a line longer than 1 GiB, not ended (binary data, not a text log?): reading stopped: %w", ErrRange)

// errUTF16 is the error of a line that begins with UTF-16's byte-order
// mark (a file's first, or a second file's after cat); it wraps ErrSyntax.
var errUTF16 error = utf16Error{}

type utf16Error struct{}

func (utf16Error) Error() string {
	return "UTF-16 text (byte-order mark FF FE or FE FF, as an editor or Windows PowerShell's > saves it), not SWF's ASCII; make it UTF-8 first (iconv -f UTF-16 -t UTF-8)"
}

func (utf16Error) Unwrap() error { return ErrSyntax }

var errBadRead = errors.New("swf: the underlying reader returned an invalid count")

// blanks returns the index of the first byte at or after i that is not a
// field separator (isBlank), or len(line).
func blanks(line []byte, i int) int {
	for uint(i) < uint(len(line)) && isBlank(line[i]) { // (unsigned: no bounds check)
		i++
	}
	return i
}

// isBlank reports whether c separates fields: a space or a tab, and a
// form feed or a vertical tab. The SWF definition separates fields by
// "white space", which the peers' readers take as Python's str.split and
// C's isspace do (a form feed is an old log's page break); a line's
// terminators ('\n', '\r') never reach here. No value changes, so nothing
// is counted. (Two comparisons on a digit, as for a space and a tab: c−'\t'
// below 4 is '\t', '\n', '\v' or '\f'.)
func isBlank(c byte) bool { return c == ' ' || c-'\t' < 4 && c != '\n' }

// digits appends the decimal digits from line[i] on to v and returns v and
// the index after them (v wraps around past 19 digits: callers count).
func digits(line []byte, i int, v uint64) (uint64, int) {
	for ; uint(i) < uint(len(line)); i++ { // (as in blanks)
		c := line[i] - '0'
		if c > 9 {
			break
		}
		v = v*10 + uint64(c)
	}
	return v, i
}

// timeField marks the integer fields that hold a time in seconds (submit,
// wait, run time, requested time, think time), which the SWF definition
// lets a log write with a fraction: parseJobScan rounds them (parseTime).
// Field 6, the average CPU time, is a float field and keeps its fraction.
var timeField = [NumFields]bool{1: true, 2: true, 3: true, 8: true, 17: true}

// floatField marks the fields that archive logs write with decimals.
var floatField = [NumFields]bool{5: true, 6: true, 9: true}

// statusField is the index of field 11, the only field that may hold any
// integer.
const statusField = 10

// countRounded adds the time fields of a line that were read rounded
// (parseJob's mask: bit k for field k+1) to Stats.Rounded and
// RoundedFields.
func (r *Reader) countRounded(mask uint64) {
	r.stats.Rounded += bits.OnesCount32(uint32(mask))
	r.stats.BelowUnknown += bits.OnesCount32(uint32(mask >> 32))
	for k := range NumFields {
		if mask&(1<<k) != 0 {
			r.stats.RoundedFields[k]++
		}
		if mask&(1<<(32+k)) != 0 {
			r.stats.BelowUnknownFields[k]++
		}
	}
}

// parseJob parses the 18 fields of a job line that starts with a field
// into j (left partly written on error), all but j.Demand. A line in the
// archive's plain forms goes by parseFast, a byte at a time without bounds
// checks (s its scratch); parseJobScan takes any other, and decides every
// error. It returns the time fields it rounded, bit k for field k+1
// (parseFast rounds none: a '.' in an integer field sends the line to parseJobScan, so
// that whole-second logs pay nothing for the rounding).
func parseJob(line []byte, j *Job, s *fastScratch) (uint64, *ParseError) {
	if parseFast(line, j, s) {
		return 0, nil
	}
	return parseJobScan(line, j)
}

// parseJobScan is parseJob for any line. Each field is converted as it is
// scanned: a plain integer ("-1", "35100", up to 18 digits), or in a float
// field a plain decimal ("142.00", up to 15 digits), takes one pass over its
// bytes; any other token is cut out and handed to parseInt or parseFloat,
// which give the same values on the plain forms and decide the rest; a
// time field's fraction goes to parseTime. It returns the time fields it
// rounded, bit k for field k+1.
func parseJobScan(line []byte, j *Job) (uint64, *ParseError) {
	var ints [NumFields]int64
	var floats [NumFields]float64
	n, rounded, below := 0, uint32(0), uint32(0)
	for i := 0; ; n++ {
		i = blanks(line, i)
		if uint(i) >= uint(len(line)) { // (i == len(line), or len(line)+1 after a last field; unsigned here and below: no bounds checks)
			break
		}
		if uint(n) >= NumFields { // (== in effect; unsigned, so that ints[n] needs no bounds check)
			return 0, &ParseError{Err: fieldCountError(line)}
		}
		start := i
		if line[i] == '-' {
			i++
		}
		d := i
		var v uint64
		v, i = digits(line, i, 0)
		nd := i - d
		if !floatField[n] {
			if uint(nd-1) < 18 && (uint(i) >= uint(len(line)) || isBlank(line[i])) {
				x := int64(v)
				if start != d {
					// SWF allows -1 (unknown) and natural numbers, except
					// for the status, where archive logs use other
					// negative codes.
					if x > 1 && n != statusField {
						x, below = 1, below|1<<n // (read as -1, unknown)
					}
					x = -x
				}
				ints[n] = x
				i++ // past the blank (or the end) just checked: blanks need not look at it again
				continue
			}
		} else if nd > 0 {
			frac := 0
			if uint(i) < uint(len(line)) && line[i] == '.' {
				f := i + 1
				v, i = digits(line, f, v)
				frac = i - f
				nd += frac
			}
			if nd <= 15 && (uint(i) >= uint(len(line)) || isBlank(line[i])) {
				x := float64(v) // as parseFloat computes it
				if frac > 0 {
					x /= pow10[frac]
				}
				if start != d {
					if x = -x; x < -1 {
						x, below = -1, below|1<<n
					}
				}
				floats[n] = x
				i++ // (as above)
				continue
			}
		}
		for i < len(line) && !isBlank(line[i]) {
			i++
		}
		var err error
		if floatField[n] {
			floats[n], err = parseFloat(line[start:i])
		} else if timeField[n] {
			var r bool
			if ints[n], r, err = parseTime(line[start:i]); r {
				rounded |= 1 << n
			}
		} else {
			ints[n], err = parseInt(line[start:i])
		}
		// A value below -1 (SWF has none; peers read it as unknown) is
		// read as -1, counted (Stats.BelowUnknown).
		if err == nil && floats[n] < -1 {
			floats[n], below = -1, below|1<<n
		}
		if err == nil && ints[n] < -1 && n != statusField {
			ints[n], below = -1, below|1<<n
		}
		if err != nil {
			return 0, &ParseError{Field: n + 1, Value: clip(line[start:i]), Err: err}
		}
	}
	if n != NumFields {
		return 0, &ParseError{Err: fieldCountError(line)}
	}
	// The 18 fields one by one, Demand left to the caller: a Job literal
	// writes Demand too, through a write barrier while a collection
	// runs (Job has a pointer), and is built on the stack and copied.
	j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs = ints[0], ints[1], ints[2], ints[3], ints[4]
	j.AvgCPUTime, j.UsedMemory, j.ReqProcs, j.ReqTime = floats[5], floats[6], ints[7], ints[8]
	j.ReqMemory, j.Status, j.User, j.Group = floats[9], Status(ints[10]), ints[11], ints[12]
	j.Executable, j.Queue, j.Partition, j.PrecedingJob = ints[13], ints[14], ints[15], ints[16]
	j.ThinkTime = ints[17]
	return uint64(rounded) | uint64(below)<<32, nil
}

func fieldCountError(line []byte) error {
	n := 0
	for i := 0; i < len(line); n++ {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		for i < len(line) && !isBlank(line[i]) {
			i++
		}
	}
	return fieldCount{n: n}
}

type fieldCount struct{ n int }

func (f fieldCount) Error() string {
	return "wrong number of fields: " + strconv.Itoa(f.n) + ", want 18"
}
func (f fieldCount) Is(target error) bool { return target == ErrFieldCount }

// parseInt parses a decimal integer; the caller checks the range.
func parseInt(b []byte) (int64, error) {
	neg := false
	i := 0
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		i++
	}
	if i == len(b) {
		return 0, ErrSyntax
	}
	if len(b)-i <= 18 { // below 10^18: no overflow possible, no check per digit
		var v int64
		for _, ch := range b[i:] {
			c := ch - '0'
			if c > 9 {
				if ch == '.' {
					return integralFloat(b)
				}
				return 0, ErrSyntax
			}
			v = v*10 + int64(c)
		}
		if neg {
			v = -v
		}
		return v, nil
	}
	limit := uint64(math.MaxInt64)
	if neg {
		limit++ // math.MinInt64
	}
	var v uint64
	for ; i < len(b); i++ {
		c := b[i] - '0'
		if c > 9 {
			if b[i] == '.' {
				// "35100.00" style integers occur in converted logs;
				// accept them when the fraction is zero.
				return integralFloat(b)
			}
			return 0, ErrSyntax
		}
		if v > (limit-uint64(c))/10 {
			return 0, ErrRange
		}
		v = v*10 + uint64(c)
	}
	x := int64(v)
	if neg {
		x = -x
	}
	return x, nil
}

func integralFloat(b []byte) (int64, error) {
	f, err := parseFloat(b)
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > math.MaxInt64/2 {
		return 0, ErrSyntax
	}
	return int64(f), nil
}

var pow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// parseFloat parses a finite decimal number; the caller checks the range.
// Plain "ddd.ddd" with at most 15
// significant digits takes an exact fast path (mantissa and power of ten are
// both exact in float64, so one division rounds correctly); anything else
// goes through strconv.
func parseFloat(b []byte) (float64, error) {
	neg := false
	i := 0
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		i++
	}
	var mant uint64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			mant = mant*10 + uint64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			digits = 99 // not plain: let strconv decide
			i = len(b)
		}
	}
	var f float64
	if digits == 0 {
		return 0, ErrSyntax
	}
	if digits <= 15 {
		f = float64(mant)
		if frac > 0 {
			f /= pow10[frac]
		}
		if neg {
			f = -f
		}
	} else {
		var err error
		f, err = strconv.ParseFloat(string(b), 64)
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return 0, ErrRange
			}
			return 0, ErrSyntax
		}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, ErrRange
	}
	return f, nil
}
