package convert

import (
	"encoding/json"
	"fmt"

	"github.com/batchq/batchq/swf"
)

// Result is a converted log: an SWF header and the jobs in submit order,
// numbered from 1, ready for swf.WriteAll. IDs[k] is the scheduler's own id
// of Jobs[k] ("123_4" for a Slurm array task, "127.server" for PBS).
type Result struct {
	Header *swf.Header
	Jobs   []swf.Job
	IDs    []string
	Report Report
}

// Report says what a conversion read, wrote and left out, and why. Every
// input record is accounted for: for sacct and jobcomp,
//
//	Records = Jobs + Steps + Requeued + Σ Skipped
//
// for sacct --json, whose steps sit inside their job's record,
// Records = Jobs + Requeued + Σ Skipped; a PBS job spans several log
// records, so there Records only counts lines. Reasons are short phrases,
// listed in the package documentation.
type Report struct {
	Format   string `json:"format"`
	Records  int    `json:"records"`  // input records read (lines, or jobs of sacct --json)
	Jobs     int    `json:"jobs"`     // jobs written
	Steps    int    `json:"steps"`    // Slurm job steps read: not jobs, their memory use goes to their job
	Requeued int    `json:"requeued"` // earlier attempts of requeued jobs, replaced by the last one
	// Demands counts the jobs written with a Demand (nodes, memory,
	// GPUs beyond the processors; see the package documentation).
	Demands int `json:"demands"`
	// States counts the jobs written by the scheduler's final state
	// (COMPLETED, TIMEOUT, ...; for PBS the record type that ended them).
	States map[string]int `json:"states"`
	// Skipped counts the records not written, by reason.
	Skipped map[string]int `json:"skipped"`
	// Anomalies counts written jobs with a field set to -1 or derived
	// another way than the usual one, by reason.
	Anomalies map[string]int `json:"anomalies"`
	// Errors are the first Options.MaxErrors parse errors; each is also
	// counted under Skipped or Anomalies.
	Errors []*ParseError `json:"errors,omitempty"`
	// Notes are remarks on the whole input (an absent column, say).
	Notes []string `json:"notes,omitempty"`
}

// ParseError is a malformed record or field. Line counts from 1 (for
// sacct --json, the line where the job's object starts); Field names the
// input column or key, empty when the whole record is bad; Value quotes
// the offending text, cut to about 64 bytes.
type ParseError struct {
	Format string `json:"format"`
	Line   int    `json:"line"`
	Field  string `json:"field,omitempty"`
	Value  string `json:"value,omitempty"`
	Err    error  `json:"-"`
}

func (e *ParseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("convert: %s line %d: %v", e.Format, e.Line, e.Err)
	}
	return fmt.Sprintf("convert: %s line %d, field %s: %q: %v", e.Format, e.Line, clip(e.Field), e.Value, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// MarshalJSON adds the message, which the Err field cannot carry.
func (e *ParseError) MarshalJSON() ([]byte, error) {
	type plain ParseError
	return json.Marshal(struct {
		*plain
		Error string `json:"error"`
	}{(*plain)(e), e.Error()})
}
