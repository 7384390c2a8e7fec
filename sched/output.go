package sched

import (
	"io"

	"github.com/batchq/batchq/swf"
)

// WriteSWF writes the simulated schedule as an SWF trace: every record that
// started, in input order, with Wait filled with the simulated wait (and
// ReqTime with the effective estimate). h may be nil.
func (r *Result) WriteSWF(w io.Writer, h *swf.Header) error {
	sw := swf.NewWriter(w)
	if h != nil {
		if err := sw.WriteHeader(h); err != nil {
			return err
		}
	}
	for i := range r.Records {
		rec := &r.Records[i]
		if rec.Start < 0 {
			continue
		}
		if err := sw.Write(&rec.Job); err != nil {
			return err
		}
	}
	return sw.Flush()
}
