package main

import (
	"bytes"
	"io"
	"maps"

	"github.com/batchq/batchq/examples/internal/cli"
)

// leftJSON is what -json says beside the sections of what reading left
// out of the logs, as the other commands' -json does: the malformed
// lines skipped (-lenient) and the header lines not taken as written, of
// all logs (cli.Skipped's keys), and the jobs left out before simulating
// (not sane, or a later job under a number already read), by reason in
// replay's and simulate's keys (rejected, summed over the logs) and by
// log file name (rejected_by_log), and the machines smaller than a trial's
// N (smaller_than_trial). They were said only on standard error.
type leftJSON struct {
	cli.Skipped
	Rejected      map[string]int            `json:"rejected"`
	RejectedByLog map[string]map[string]int `json:"rejected_by_log,omitempty"`
	// Smaller are the machines smaller than a trial's N (said under the
	// table too): why such a trial executed no co-allocation.
	Smaller []smallerJSON `json:"smaller_than_trial,omitempty"`
}

// add adds machine m's jobs left out.
func (l *leftJSON) add(m machine) {
	if l.Rejected == nil {
		l.Rejected = map[string]int{}
	}
	if len(m.left) == 0 {
		return
	}
	keys := cli.ReasonKeys(m.left)
	for k, n := range keys {
		l.Rejected[k] += n
	}
	if l.RejectedByLog == nil {
		l.RejectedByLog = map[string]map[string]int{}
	}
	if by := l.RejectedByLog[m.name]; by != nil { // (one log given twice)
		for k, n := range keys {
			by[k] += n
		}
		return
	}
	l.RejectedByLog[m.name] = maps.Clone(keys)
}

// output is where the report goes: stdout itself, or with asJSON a buffer
// whose flush writes its sections as JSON with left beside them (the
// report fills it: options.left).
func output(stdout io.Writer, asJSON bool) (w io.Writer, flush func() error, left *leftJSON) {
	if !asJSON {
		return stdout, func() error { return nil }, nil
	}
	var b bytes.Buffer
	left = &leftJSON{Rejected: map[string]int{}}
	return &b, func() error {
		return cli.WriteJSON(stdout, struct {
			cli.ReportJSON
			*leftJSON
		}{cli.Report(b.String()), left})
	}, left
}
