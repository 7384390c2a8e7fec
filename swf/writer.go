package swf

import (
	"bufio"
	"fmt"
	"io"
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
// set. A Demand that does not validate is an error, and nothing is
// written.
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

// WriteAll writes h (if not nil) and jobs to w as one SWF file.
func WriteAll(w io.Writer, h *Header, jobs []Job) error {
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
// is set. The error is that of Demand.Validate, and b is then returned
// unchanged.
func (j *Job) AppendText(b []byte) ([]byte, error) {
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
