package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
)

// logNotes is what reading the logs ignored or changed: zero padding
// after a gzip log's last member (a tape's, dd's), in cli.PaddingNote's
// words, as simulate, swfstat, varq and the other commands say it, the
// jobs without a number numbered by their line (id_made_up, in forecast's
// words) and the jobs left out, by reason. The experiments read a log
// several times; its notes are said once, after the output, on standard
// error (flurries has no report of its logs, and its output is README.md's
// tables), and under -json also beside the tables (output).
type logNotes struct {
	names []string // in the order first noted
	logs  map[string]*logNote
}

// logNote is one log's notes.
type logNote struct {
	zeros  int64    // zero bytes after the last gzip member, ignored
	header []string // header lines not taken as written (cli.HeaderNote)
	madeUp int      // jobs without a number, numbered by their line
	far    int      // jobs left out by load: a submit time past 2^40 s (cli.SubmitsInRange)
	// notSane counts the jobs load left out under -sane, by
	// sanitize.Sane's reason (it dropped its report).
	notSane map[string]int
	// dups and rejected count the jobs left out of the butterfly's runs,
	// by reason: those under a number an earlier job has, before
	// simulating, and those the simulator rejected.
	dups     int
	rejected map[string]int
}

// of is log name's notes, made on first use; with n nil (notes not
// kept) a note that is dropped.
func (n *logNotes) of(name string) *logNote {
	if n == nil {
		return &logNote{}
	}
	if l := n.logs[name]; l != nil {
		return l
	}
	if n.logs == nil {
		n.logs = map[string]*logNote{}
	}
	l := &logNote{}
	n.logs[name] = l
	n.names = append(n.names, name)
	return l
}

// padding keeps the note of z zero bytes after log name's last gzip member.
func (n *logNotes) padding(name string, z int64) {
	if z > 0 {
		n.of(name).zeros = z
	}
}

// headerLines keeps the note of the header lines of log name the reader
// did not take as written (cli.ReadLogHeader): a MaxProcs after the jobs
// or kept as text left the experiments on another size without a word.
func (n *logNotes) headerLines(name string, header []string) {
	if len(header) > 0 {
		n.of(name).header = header
	}
}

// numbered keeps the note of k jobs of log name numbered by their line.
func (n *logNotes) numbered(name string, k int) {
	if k > 0 {
		n.of(name).madeUp = k
	}
}

// farSubmits keeps the note of k jobs of log name left out for a submit
// time past 2^40 s.
func (n *logNotes) farSubmits(name string, k int) {
	if k > 0 {
		n.of(name).far = k
	}
}

// notSane keeps the note of the jobs of log name sanitize.Sane left
// out (-sane), by reason (cli.ByReason).
func (n *logNotes) notSane(name string, by map[string]int) {
	if len(by) > 0 {
		n.of(name).notSane = maps.Clone(by)
	}
}

// duplicates keeps the note of k jobs of log name left out of the
// butterfly for a number an earlier job has.
func (n *logNotes) duplicates(name string, k int) {
	if k > 0 {
		n.of(name).dups = k
	}
}

// simRejected keeps the note of the jobs of log name the butterfly's
// simulator rejected, by reason (cli.ByReason).
func (n *logNotes) simRejected(name string, by map[string]int) {
	if len(by) > 0 {
		n.of(name).rejected = maps.Clone(by)
	}
}

// butterflyLeft is the jobs left out of the butterfly, by reason as the
// text says them.
func (l *logNote) butterflyLeft() map[string]int {
	by := map[string]int{}
	if l.dups > 0 {
		by[sanitize.DuplicateID.String()] = l.dups
	}
	for why, k := range l.rejected {
		by[why+" (rejected by the simulator)"] = k
	}
	return by
}

// write says the notes on w, one line each, logs in the order first read.
func (n *logNotes) write(w io.Writer) {
	for _, name := range n.names {
		l := n.logs[name]
		if l.zeros > 0 {
			fmt.Fprintf(w, "flurries: %s: %s\n", name, cli.PaddingNote(l.zeros))
		}
		if len(l.header) > 0 {
			fmt.Fprintf(w, "flurries: %s: %s\n", name, cli.HeaderNote(l.header))
		}
		if l.madeUp > 0 {
			fmt.Fprintf(w, "flurries: %s: %d jobs without a job number (field 1 below 1) numbered 10^18 + n by their line n (%s)\n", name, l.madeUp, cli.MadeUpID)
		}
		if l.far > 0 {
			fmt.Fprintf(w, "flurries: %s: jobs left out: %d %s (a submit time past 2^40 s, which the simulators reject too)\n", name, l.far, sanitize.TimeOutOfRange)
		}
		if len(l.notSane) > 0 {
			fmt.Fprintf(w, "flurries: %s: -sane: jobs left out as not sane: %s\n", name, cli.Reasons(l.notSane))
		}
		if by := l.butterflyLeft(); len(by) > 0 {
			fmt.Fprintf(w, "flurries: %s: butterfly: jobs left out: %s\n", name, cli.Reasons(by))
		}
	}
}

// logJSON is one log's notes under -json, in the other commands' keys:
// trailing_zero_bytes as simulate's and swfstat's; header_warnings, the
// header lines not taken as written, as swfstat's; changed as simulate's
// and replay's (id_made_up); rejected, the jobs left out of every
// experiment by reason (time_out_of_range: a submit time past 2^40 s), as
// replay's; not_sane_by_reason, those -sane left out (sanitize.Sane's
// reasons), as estimates'; butterfly_rejected, those left out of the butterfly's runs
// (duplicate_id, and the simulator's rejections). Each is absent when
// none was.
type logJSON struct {
	TrailingZeros     int64          `json:"trailing_zero_bytes,omitempty"`
	HeaderWarnings    []string       `json:"header_warnings,omitempty"`
	Changed           map[string]int `json:"changed,omitempty"`
	Rejected          map[string]int `json:"rejected,omitempty"`
	NotSane           map[string]int `json:"not_sane_by_reason,omitempty"`
	ButterflyRejected map[string]int `json:"butterfly_rejected,omitempty"`
}

// json is the notes by log file name; nil when there is none.
func (n *logNotes) json() map[string]logJSON {
	if n == nil || len(n.names) == 0 {
		return nil
	}
	out := map[string]logJSON{}
	for _, name := range n.names {
		l := n.logs[name]
		j := logJSON{TrailingZeros: l.zeros, HeaderWarnings: l.header}
		if l.madeUp > 0 {
			j.Changed = map[string]int{cli.MadeUpID: l.madeUp}
		}
		if l.far > 0 {
			j.Rejected = cli.ReasonKeys(map[string]int{sanitize.TimeOutOfRange.String(): l.far})
		}
		if len(l.notSane) > 0 {
			j.NotSane = cli.ReasonKeys(l.notSane)
		}
		by := maps.Clone(l.rejected)
		if l.dups > 0 {
			if by == nil {
				by = map[string]int{}
			}
			by[sanitize.DuplicateID.String()] += l.dups
		}
		if len(by) > 0 {
			j.ButterflyRejected = cli.ReasonKeys(by)
		}
		out[name] = j
	}
	return out
}

// output is where the sections go, as cli.Output: stdout itself, or with
// asJSON a buffer whose flush writes the sections as JSON and, under
// "logs", the notes of the logs read (absent when none), so that -json
// says what was left out of its tables as the text run says it on
// standard error. Call flush once every experiment has run.
func output(stdout io.Writer, asJSON bool, notes *logNotes) (w io.Writer, flush func() error) {
	if !asJSON {
		return stdout, func() error { return nil }
	}
	var b bytes.Buffer
	return &b, func() error {
		return cli.WriteJSON(stdout, struct {
			cli.ReportJSON
			Logs map[string]logJSON `json:"logs,omitempty"`
		}{cli.Report(b.String()), notes.json()})
	}
}
