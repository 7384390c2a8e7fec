package sched

import (
	"io"

	"github.com/batchq/batchq/swf"
)

// WriteSWF writes the simulated schedule as an SWF trace: every record that
// started, in input order, as Record.SWF gives it (the simulated wait,
// estimate, run time and processors). h may be nil.
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
		j := rec.SWF()
		if err := sw.Write(&j); err != nil {
			return err
		}
	}
	return sw.Flush()
}
