package swf

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Writer writes SWF. Call WriteHeader once (optionally), then Write for
// each job, then Flush. Reading what it wrote gives back the same header
// fields and the same jobs.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	w   *bufio.Writer
	buf []byte
}

// NewWriter returns a Writer writing to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 64<<10)} }

// WriteHeader writes h.Lines verbatim, or, when h.Lines is nil, comment
// lines generated from the typed fields (a key of h.Other that is not one
// word of letters, digits and '_' is an error: it would not read back as a
// key). A line of h.Lines that is not one
// comment line (it does not start with ';', is a demand line, or holds
// a line break) is an error, and nothing is written:
// it would be read back as a job or a demand.
func (w *Writer) WriteHeader(h *Header) error {
	lines := h.Lines
	if lines == nil {
		for _, kv := range h.Other {
			if k, _, ok := splitKey(kv.Key + ": "); !ok || k != kv.Key {
				return fmt.Errorf("swf: header key %.80q is not one word of letters, digits and '_'", kv.Key)
			}
		}
		lines = h.generate()
	}
	for k, l := range lines {
		if !strings.HasPrefix(l, ";") || isDemandLine([]byte(l)) || strings.ContainsAny(l, "\r\n") {
			return fmt.Errorf("swf: header line %d %.80q is not one comment line", k+1, l)
		}
	}
	for _, l := range lines {
		if _, err := w.w.WriteString(l); err != nil {
			return err
		}
		if err := w.w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// Write writes one job line, preceded by its demand line when j.Demand is
// set. A field below -1 (which the Reader would read back as -1,
// Stats.BelowUnknown) or a float that is NaN or infinite (checkFields; the
// status excepted) or a Demand that does not validate is an error, and
// nothing is written: what Write accepts reads back equal.
func (w *Writer) Write(j *Job) error {
	b, err := j.AppendText(w.buf[:0])
	if err != nil {
		return err
	}
	w.buf = append(b, '\n')
	_, err = w.w.Write(w.buf)
	return err
}

// Flush writes buffered data to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// WriteAll writes h (if not nil) and jobs to w as one SWF file. When a
// job has a field the Reader would refuse, it writes nothing and returns
// that job's error (wrapping ErrRange): not a file cut short at the job.
func WriteAll(w io.Writer, h *Header, jobs []Job) error {
	for i := range jobs {
		if err := jobs[i].checkFields(); err != nil {
			return err
		}
	}
	sw := NewWriter(w)
	if h != nil {
		if err := sw.WriteHeader(h); err != nil {
			return err
		}
	}
	for i := range jobs {
		if err := sw.Write(&jobs[i]); err != nil {
			return err
		}
	}
	return sw.Flush()
}

// AppendText appends j's line, its 18 fields space separated, to b
// (encoding.TextAppender), after its demand line and a "\n" when j.Demand
// is set. The error is a field the Reader would refuse (wrapping
// ErrRange, naming the job, the field and the value) or that of
// Demand.Validate, and b is then returned unchanged.
func (j *Job) AppendText(b []byte) ([]byte, error) {
	if err := j.checkFields(); err != nil {
		return b, err
	}
	if j.Demand != nil {
		if err := j.Demand.Validate(); err != nil {
			return b, fmt.Errorf("swf: writing job %d: %w", j.ID, err)
		}
		b = appendDemand(b, j.Demand)
		b = append(b, '\n')
	}
	return appendJob(b, j), nil
}

// appendJob appends j's 18 fields, space separated, to b.
func appendJob(b []byte, j *Job) []byte {
	fields := [NumFields]int64{j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, 0, 0,
		j.ReqProcs, j.ReqTime, 0, int64(j.Status), j.User, j.Group, j.Executable,
		j.Queue, j.Partition, j.PrecedingJob, j.ThinkTime}
	floats := [NumFields]float64{5: j.AvgCPUTime, 6: j.UsedMemory, 9: j.ReqMemory}
	for i, v := range fields {
		if i > 0 {
			b = append(b, ' ')
		}
		if floatField[i] {
			b = strconv.AppendFloat(b, floats[i], 'f', -1, 64)
		} else {
			b = strconv.AppendInt(b, v, 10)
		}
	}
	return b
}

// checkFields refuses a field the Reader refuses, so that a written line
// reads back: SWF's fields are -1 (unknown) or a natural number, the
// status any integer (archive logs use -2 and -4), and a float is finite.
// The error wraps ErrRange, as the Reader's does, and names the job, the
// field and its value.
//
// Each field is refused, none written as -1 and counted, because in none
// of them is -1 what the caller meant: a submit time below -1 is one
// before the log's origin (a log shifted or cut, whose submit -1 sanitize
// would drop as "no submit time"), a wait, run time, size or estimate
// below -1 a computation gone wrong, a user, group, executable, queue or
// partition below -1 a distinct id (a hash, say) that -1 would merge with
// every other, a job number below -1 a key of the caller's (to sched any
// number below 1 is "missing", and -1 says so: a caller that means it
// writes -1), and a NaN or infinite average or memory a division by zero.
// The caller knows which; a Writer that wrote -1 would have changed the
// job for it.
func (j *Job) checkFields() error {
	// Every field in range, the case of any line worth writing, in a
	// few compares (NaN fails both of okFloat's): the loop below, which
	// names the field, cost about 470 instructions a job, 13 % of Write.
	if min(j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, j.ReqProcs, j.ReqTime, j.User, j.Group,
		j.Executable, j.Queue, j.Partition, j.PrecedingJob, j.ThinkTime) >= -1 &&
		okFloat(j.AvgCPUTime) && okFloat(j.UsedMemory) && okFloat(j.ReqMemory) {
		return nil
	}
	ints := [NumFields]int64{j.ID, j.Submit, j.Wait, j.RunTime, j.AllocProcs, 0, 0,
		j.ReqProcs, j.ReqTime, 0, 0, j.User, j.Group, j.Executable,
		j.Queue, j.Partition, j.PrecedingJob, j.ThinkTime}
	floats := [NumFields]float64{5: j.AvgCPUTime, 6: j.UsedMemory, 9: j.ReqMemory}
	for i := range NumFields {
		bad := ""
		switch f := floats[i]; {
		case floatField[i]:
			if f < -1 || math.IsNaN(f) || math.IsInf(f, 0) {
				bad = strconv.FormatFloat(f, 'g', -1, 64)
			}
		case ints[i] < -1:
			bad = strconv.FormatInt(ints[i], 10)
		}
		if bad != "" {
			return fmt.Errorf("swf: writing job %d: field %d (%s) is %s, which no SWF reader reads (-1 is unknown): %w",
				j.ID, i+1, FieldName(i), bad, ErrRange)
		}
	}
	return nil
}

// okFloat reports whether a float field reads back: finite and -1 or
// above.
func okFloat(f float64) bool { return f >= -1 && f <= math.MaxFloat64 }
