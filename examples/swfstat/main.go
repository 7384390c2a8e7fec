// Command swfstat summarizes an SWF trace: jobs, span, machine size,
// offered load, per-queue counts, how many jobs carry a user estimate and
// how many ran past it, how many submit times are out of order or unknown,
// and which status codes fall outside the SWF standard.
//
//	go run ./examples/swfstat                 # the small synthetic trace embedded here
//	go run ./examples/swfstat trace.swf[.gz]  # any SWF file, plain or gzip; '-' reads stdin
//	go run ./examples/swfstat trace.swf -json # one JSON object for scripts
//
// Parsing is strict unless -lenient is given; then malformed lines are
// skipped, counted, and the first ones printed. Header lines the reader kept
// but did not apply (a value such as "MaxRuntime: N/A", a repeated key, a
// key after the jobs) are printed as warnings in both modes. Queues are
// named from the header's "Queue: N name" lines (as swf/convert writes
// them) where it has them.
//
// Flags may come before or after the trace. Exit status: 0 ok, 1 an
// unreadable or malformed trace or one with no job lines, 2 a usage error.
package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/sanitize"
	"github.com/batchq/batchq/swf"
)

//go:embed default.swf
var defaultTrace []byte

func main() { cli.Main(run) }

const usage = `usage: swfstat [flags] [TRACE]   (flags may also follow TRACE)

Summarizes the SWF trace TRACE (plain or gzip, '-' for standard input;
default: a small synthetic trace embedded in the command).

`

// run is the command: it returns the exit status.
func run(_ context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := cli.NewFlagSet("swfstat")
	lenient := fs.Bool("lenient", false, "skip malformed lines instead of stopping at the first")
	asJSON := cli.JSONFlag(fs)
	pos, err := cli.ParseArgs(fs, args, usage, stdout)
	if err == nil && len(pos) > 1 {
		err = cli.Usagef("want at most one trace path, got %d: %s", len(pos), strings.Join(pos, " "))
	}
	if err == nil {
		err = stat(stdout, stdin, pos, *lenient, *asJSON)
	}
	return cli.Status("swfstat", stderr, err)
}

// damageIdle bounds the wait of a strict read's search for a damaged
// gzip input's own error (cli.BoundDrain; a variable for the tests).
var damageIdle = cli.DamageIdle

// stat summarizes the trace of args (none: the embedded one) on out.
func stat(out io.Writer, stdin io.Reader, args []string, lenient, asJSON bool) error {
	name := "embedded default (synthetic, 500 jobs)"
	var r *swf.Reader
	zeros := func() int64 { return 0 } // zero bytes after the last gzip member, read at the end
	switch {
	case len(args) == 0:
		r = swf.NewReader(bytes.NewReader(defaultTrace))
	case args[0] == "-":
		// Plain or gzip, as a file is (a gzip on standard input was
		// read as SWF text: "line 1, field 1 (job number): \x1f\x8b…");
		// swf.OpenReader, so that a damaged gzip says so as a file does.
		f, err := swf.OpenReader(stdin, "standard input")
		if err != nil {
			return err
		}
		defer cli.BoundDrain(f, damageIdle)() // (its writer may stall)
		name, r = "standard input", f.Reader
		zeros = f.TrailingZeros
	default:
		f, err := swf.Open(args[0])
		if err != nil {
			return err
		}
		defer cli.BoundDrain(f, damageIdle)() // (a named pipe may stall)
		name, r = args[0], f.Reader
		zeros = f.TrailingZeros
	}
	r.Lenient = lenient
	s, err := summarize(r)
	if err != nil {
		// A parse error names no file: name it, as every other command
		// does (swf.ReadFile). A read's other errors name it already
		// ("swf: F: gzip data truncated"), and named again read
		// "swfstat: F: swf: F: …".
		if pe := (*swf.ParseError)(nil); len(args) == 0 || !errors.As(err, &pe) {
			return err
		}
		return cli.LenientHint(fmt.Errorf("%s: %w", name, err))
	}
	if s.jobs == 0 {
		// A summary of nothing is not a summary: every other command
		// says the same of such a file (exit 1), and a script reading
		// "jobs 0" with exit 0 took it for a log that was read. With
		// -lenient, every line may have been malformed: said as simulate
		// says it.
		return cli.NoJobLines(name, s.stats)
	}
	s.zeros = zeros()
	if asJSON {
		return cli.WriteJSON(out, s.json(name))
	}
	s.print(out, name)
	return nil
}

// summary accumulates what swfstat prints, in one pass over the jobs.
type summary struct {
	header             *swf.Header
	stats              swf.Stats
	zeros              int64 // zero bytes after the last gzip member (padding, ignored)
	machine            int64
	machineErr         error
	jobs               int
	firstSubmit, last  int64
	known              bool    // some submit time is known
	procSeconds        float64 // Σ size × run time over jobs with both known
	worked             int     // jobs with both known: none, and the offered load is unknown (it said 0.0%)
	withEstimate, over int
	queues             map[int64]int
	parts              cli.PartitionCount // jobs by partition (field 16)
	// seen and dupIDs count the lines whose job number an earlier line
	// has (the simulators reject such a job while the first is live,
	// predictors keyed by number mix the two up); farSubmits those
	// submitted past sanitize.MaxTime, which every simulator rejects and
	// which the span and the offered load leave out (one such line made
	// the span 2^63 s and the load a number of nothing).
	seen       map[int64]struct{}
	dupIDs     int
	farSubmits int
	// noID counts the lines without a job number (field 1 below 1: SWF's
	// -1, "missing"), which are no duplicates of one another: the
	// simulators number them 10^18 + n by their line n (rule id_made_up).
	noID int
	// farWork counts the lines with a run time past sanitize.MaxTime or a
	// size past cli.MaxSize, which every simulator rejects as out of range:
	// left out of the offered load (one such line made it 2.9e18 %).
	farWork int
	// partial counts the lines of a partial execution (status 2, 3 or 4:
	// one run of a checkpointed or swapped job, whose summary line under
	// the same number carries the whole run), which every simulator
	// leaves out (sanitize.PartialExecution): not jobs, nor duplicates,
	// and out of the span, the offered load and the estimate counts (their
	// work was counted twice: 1,400 partial lines beside 1,500 jobs made
	// a load of 445.6% of one of 321.0%, and the lines 2,900 jobs).
	partial int
	// partialIDs are the numbers of the partial lines, and partialOnly
	// the jobs among them that no summary line (status 0, 1, 5 or
	// another, the same number, anywhere in the log) carries: every
	// simulator leaves such a job out whole, its lines counted as partial
	// executions only, so that its work vanished with no word (a log of
	// 360 whole jobs and 40 given by two partial lines each said 360 jobs
	// and 160 partial executions "whose summary line carries the whole
	// run"). Only checkpointed jobs hold an entry.
	partialIDs  map[int64]struct{}
	partialOnly int
	// larger counts the jobs asking more processors than the header's
	// machine size, which every simulator rejects ("larger than
	// machine") unless told a larger machine (simulate -machine): a
	// held-out log whose header undersizes its machine lost them with
	// no word from swfstat.
	larger int
}

func summarize(r *swf.Reader) (*summary, error) {
	h, err := r.Header()
	if err != nil {
		return nil, err
	}
	s := &summary{header: h, queues: map[int64]int{}, seen: map[int64]struct{}{}}
	s.machine, s.machineErr = h.MachineSize()
	for j, err := range r.All() {
		if err != nil {
			return nil, err
		}
		if j.Status.Partial() {
			// Nor does it hold its number: a summary line after it is no
			// duplicate (the simulators reject neither), and it is no job
			// without a number that they would number.
			s.partial++
			if j.ID >= 1 {
				if s.partialIDs == nil {
					s.partialIDs = map[int64]struct{}{}
				}
				s.partialIDs[j.ID] = struct{}{}
			}
			continue
		}
		if j.ID < 1 {
			s.noID++
		} else if _, dup := s.seen[j.ID]; dup {
			s.dupIDs++
		}
		s.seen[j.ID] = struct{}{}
		far := j.Submit > sanitize.MaxTime
		if far {
			s.farSubmits++
			j.Submit = -1 // out of the span, as an unknown one
		}
		// The span covers known submit times only (-1 is unknown).
		if j.Submit >= 0 && (!s.known || j.Submit < s.firstSubmit) {
			s.firstSubmit = j.Submit
		}
		if j.Submit >= 0 {
			s.known = true
			s.last = max(s.last, j.Submit)
		}
		s.jobs++
		if s.machineErr == nil && j.Size() > s.machine {
			s.larger++
		}
		farWork := j.RunTime > sanitize.MaxTime || j.Size() > cli.MaxSize
		if farWork {
			s.farWork++
		}
		if j.Size() > 0 && j.RunTime >= 0 && !far && !farWork {
			s.procSeconds += float64(j.Size()) * float64(j.RunTime)
			s.worked++
		}
		if j.HasEstimate() {
			s.withEstimate++
			if j.RunTime > j.ReqTime {
				s.over++
			}
		}
		s.queues[j.Queue]++
		s.parts.Add(&j)
	}
	for id := range s.partialIDs {
		if _, ok := s.seen[id]; !ok {
			s.partialOnly++
		}
	}
	s.seen, s.partialIDs = nil, nil
	s.stats = r.Stats()
	return s, nil
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

func (s *summary) print(out io.Writer, name string) {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "trace\t%s\n", name)
	if s.header.Computer != "" || s.header.Installation != "" {
		// (one of the two alone printed "X, " or ", Y")
		fmt.Fprintf(w, "machine\t%s\n", strings.Join(slices.DeleteFunc([]string{cli.Printable(s.header.Computer), cli.Printable(s.header.Installation)},
			func(v string) bool { return v == "" }), ", "))
	}
	fmt.Fprintf(w, "jobs\t%d\n", s.jobs)
	span := s.last - s.firstSubmit
	fmt.Fprintf(w, "submit span\t%d s (%.1f days)\n", span, float64(span)/86400)
	if s.machineErr != nil {
		fmt.Fprintf(w, "machine size\tunknown (%v)\n", s.machineErr)
		// (the line was left out: the README says the text report says
		// "unknown" and why for each case -json leaves offered_load out)
		fmt.Fprintf(w, "offered load\tunknown (no machine size)\n")
	} else {
		fmt.Fprintf(w, "machine size\t%d processors\n", s.machine)
		if s.larger > 0 {
			fmt.Fprintf(w, "larger than machine\t%d (jobs asking more processors: every simulator rejects them unless given a larger -machine)\n", s.larger)
		}
		if load, ok := s.offeredLoad(); ok {
			fmt.Fprintf(w, "offered load\t%.1f%% (Σ size×runtime / (P × submit span))\n", 100*load)
		} else if s.worked == 0 {
			fmt.Fprintf(w, "offered load\tunknown (no job with both its size and its run time)\n")
		} else if !s.known {
			fmt.Fprintf(w, "offered load\tunknown (no job with a known submit time)\n")
		} else {
			// (the line was left out: a log submitted at one instant
			// printed no load and no word why)
			fmt.Fprintf(w, "offered load\tunknown (submit span 0 s: every job submitted at one instant)\n")
		}
	}
	fmt.Fprintf(w, "with user estimate\t%d (%s)\n", s.withEstimate, pct(s.withEstimate, s.jobs))
	fmt.Fprintf(w, "run time > estimate\t%d (%s of jobs with estimates)\n", s.over, pct(s.over, s.withEstimate))
	fmt.Fprintf(w, "out-of-order submits\t%d\n", s.stats.OutOfOrder)
	if s.stats.UnknownSubmit > 0 {
		fmt.Fprintf(w, "unknown submit times\t%d (not counted as out of order)\n", s.stats.UnknownSubmit)
	}
	if s.stats.Rounded > 0 {
		fmt.Fprintf(w, "time fields rounded\t%d (written with a fraction, read to the nearest second, halves away from zero)\n", s.stats.Rounded)
	}
	if b := cli.BelowNote(s.stats); b != "" {
		fmt.Fprintf(w, "fields below -1\t%s\n", b)
	}
	if s.dupIDs > 0 {
		fmt.Fprintf(w, "duplicate job numbers\t%d (lines whose number an earlier line has)\n", s.dupIDs)
	}
	if s.partial > 0 {
		fmt.Fprintf(w, "partial executions\t%d (status 2, 3, 4: runs of a checkpointed job whose summary line carries the whole run; not jobs: out of the counts above; every simulator leaves them out)\n", s.partial)
	}
	if s.partialOnly > 0 {
		fmt.Fprintf(w, "jobs of partial lines only\t%d (no summary line under their number: every simulator leaves them out whole, their work out of every count above)\n", s.partialOnly)
	}
	if s.noID > 0 {
		fmt.Fprintf(w, "without job number\t%d (field 1 below 1; the simulators number them 10^18 + n by their line n, id_made_up)\n", s.noID)
	}
	if s.farSubmits > 0 {
		fmt.Fprintf(w, "submits past 2^40 s\t%d (out of the span; every simulator rejects them)\n", s.farSubmits)
	}
	if s.farWork > 0 {
		fmt.Fprintf(w, "run time or size past 2^40\t%d (out of the offered load; every simulator rejects them)\n", s.farWork)
	}
	if s.stats.OtherStatus > 0 {
		fmt.Fprintf(w, "status outside -1..5\t%d (%s)\n", s.stats.OtherStatus, cli.OtherStatusOf(s.stats).Counts())
	}
	if n := len(s.stats.Warnings); n > 0 {
		fmt.Fprintf(w, "header warnings\t%d\n", n)
	}
	if s.stats.Skipped > 0 {
		fmt.Fprintf(w, "malformed lines skipped\t%d\n", s.stats.Skipped)
	}
	if s.stats.LateComments > 0 {
		fmt.Fprintf(w, "comment lines after jobs\t%d\n", s.stats.LateComments)
	}
	if s.zeros > 0 {
		fmt.Fprintf(w, "gzip padding\t%d zero bytes after the last gzip member ignored\n", s.zeros)
	}
	switch u := s.header.UnixStartTime; {
	case u > 0 && u <= sanitize.MaxTime:
		fmt.Fprintf(w, "log starts\t%s\n", time.Unix(u, 0).UTC().Format(time.RFC3339))
	case u != 0:
		// A negative one was not shown at all (2^63-1 printed as the
		// year 292277026596; past 2^40 s the reader keeps it as text,
		// with a header warning). qserve refuses it ("UnixStartTime out
		// of range").
		fmt.Fprintf(w, "UnixStartTime\t%d (not a Unix time in (0, 2^40]: no start date)\n", u)
	}
	w.Flush()

	fmt.Fprintln(out, "\njobs per queue (field 15):")
	qs := make([]int64, 0, len(s.queues))
	for q := range s.queues {
		qs = append(qs, q)
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i] < qs[j] })
	w = tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	names := s.queueNames()
	for _, q := range qs {
		fmt.Fprintf(w, "  queue %d%s\t%d\t%s\t\n", q, names[q], s.queues[q], pct(s.queues[q], s.jobs))
	}
	w.Flush()
	s.printPartitions(out)
	for _, e := range s.stats.Warnings {
		fmt.Fprintln(out, "warning:", e)
	}
	for _, e := range s.stats.Errors {
		fmt.Fprintln(out, "skipped:", e)
	}
}

// offeredLoad is the offered load as the archive defines it: work
// submitted over capacity during the submit span; false when the machine
// size is unknown or the span empty.
func (s *summary) offeredLoad() (float64, bool) {
	span := s.last - s.firstSubmit
	if s.machineErr != nil || span <= 0 || s.worked == 0 {
		return 0, false
	}
	return s.procSeconds / (float64(s.machine) * float64(span)), true
}

// queueNames maps each queue the header names ("Queue: q name" lines) to
// " name", the first line for a queue standing, read once: a lookup per
// queue over every header line was queues × lines, hours for a hostile
// log of 10^5 of each.
func (s *summary) queueNames() map[int64]string {
	names := map[int64]string{}
	for _, l := range s.header.Queue {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		q, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || strconv.FormatInt(q, 10) != f[0] {
			continue // "07" or "+7" never named queue 7
		}
		if _, ok := names[q]; !ok {
			names[q] = " " + cli.Printable(strings.Join(f[1:], " "))
		}
	}
	return names
}

// summaryJSON is the -json form of a summary.
type summaryJSON struct {
	Trace         string   `json:"trace"`
	Computer      string   `json:"computer,omitempty"`
	Installation  string   `json:"installation,omitempty"`
	Jobs          int      `json:"jobs"`
	SubmitSpan    int64    `json:"submit_span_s"`
	MachineSize   int64    `json:"machine_size,omitempty"`
	OfferedLoad   *float64 `json:"offered_load,omitempty"`
	WithEstimate  int      `json:"with_estimate"`
	OverEstimate  int      `json:"run_time_over_estimate"`
	OutOfOrder    int      `json:"out_of_order"` // swf.Stats.OutOfOrder: simulate's reader.out_of_order, replay's out_of_order (it was out_of_order_submits)
	UnknownSubmit int      `json:"unknown_submit_times"`
	Rounded       int      `json:"time_fields_rounded"` // swf.Stats.Rounded: simulate's warning_data.rounded.fields
	// BelowUnknown is swf.Stats.BelowUnknown (fields that held a number
	// below -1, read as -1) and BelowByField splits it by field name,
	// absent when none.
	BelowUnknown int            `json:"fields_below_unknown"`
	BelowByField map[string]int `json:"fields_below_unknown_by_field,omitempty"`
	OtherStatus  int            `json:"status_outside_standard"`
	// OtherStatusBy splits OtherStatus by value (swf.Stats.OtherStatusCounts,
	// its first 64 values), as the text report does ("-5: 1, 7: 1");
	// absent when no status is outside -1..5.
	OtherStatusBy map[string]int `json:"status_outside_standard_by_value,omitempty"`
	DuplicateIDs  int            `json:"duplicate_ids"`
	NoJobNumber   int            `json:"no_job_number"` // field 1 below 1: no duplicates; the simulators' id_made_up
	FarSubmits    int            `json:"submits_past_max_time"`
	FarWork       int            `json:"run_time_or_size_past_max"` // left out of offered_load
	LargerThan    int            `json:"larger_than_machine"`       // jobs asking more processors than machine_size (0 when unknown)
	PartialExecs  int            `json:"partial_executions"`        // status 2, 3, 4: not in jobs, duplicate_ids, offered_load, …
	PartialOnly   int            `json:"partial_only_jobs"`         // job numbers of partial lines with no summary line: left out whole
	Skipped       int            `json:"malformed_lines_skipped"`
	LateComments  int            `json:"comment_lines_after_jobs"`
	TrailingZeros int64          `json:"trailing_zero_bytes"` // after the last gzip member, ignored
	UnixStartTime int64          `json:"unix_start_time,omitempty"`
	Queues        []queueJSON    `json:"queues"`
	// Partitions are the jobs by partition (field 16) when they name
	// more than one (cli.Partitions), absent otherwise.
	Partitions       *cli.Partitions `json:"partitions,omitempty"`
	HeaderWarnings   []string        `json:"header_warnings,omitempty"`
	SkippedLineError []string        `json:"skipped,omitempty"`
}

type queueJSON struct {
	Queue int64  `json:"queue"`
	Name  string `json:"name,omitempty"`
	Jobs  int    `json:"jobs"`
}

func (s *summary) json(name string) summaryJSON {
	o := summaryJSON{Trace: name, Computer: s.header.Computer, Installation: s.header.Installation, Jobs: s.jobs,
		SubmitSpan: s.last - s.firstSubmit, WithEstimate: s.withEstimate, OverEstimate: s.over,
		OutOfOrder: s.stats.OutOfOrder, UnknownSubmit: s.stats.UnknownSubmit, Rounded: s.stats.Rounded, OtherStatus: s.stats.OtherStatus,
		DuplicateIDs: s.dupIDs, NoJobNumber: s.noID, FarSubmits: s.farSubmits, FarWork: s.farWork, LargerThan: s.larger, PartialExecs: s.partial, PartialOnly: s.partialOnly,
		Skipped: s.stats.Skipped, LateComments: s.stats.LateComments, TrailingZeros: s.zeros, UnixStartTime: s.header.UnixStartTime, Queues: []queueJSON{}}
	o.BelowUnknown, o.BelowByField = s.stats.BelowUnknown, cli.BelowByField(s.stats)
	if len(s.stats.OtherStatusCounts) > 0 {
		o.OtherStatusBy = cli.OtherStatusOf(s.stats).Keys()
	}
	if s.machineErr == nil {
		o.MachineSize = s.machine
		if load, ok := s.offeredLoad(); ok {
			o.OfferedLoad = &load
		}
	}
	names := s.queueNames()
	for q, n := range s.queues {
		o.Queues = append(o.Queues, queueJSON{q, strings.TrimSpace(names[q]), n})
	}
	sort.Slice(o.Queues, func(i, j int) bool { return o.Queues[i].Queue < o.Queues[j].Queue })
	o.Partitions = s.partitions()
	for _, e := range s.stats.Warnings {
		o.HeaderWarnings = append(o.HeaderWarnings, e.Error())
	}
	for _, e := range s.stats.Errors {
		o.SkippedLineError = append(o.SkippedLineError, e.Error())
	}
	return o
}

// partitions is the jobs by partition when they name more than one, the
// pool the offered load divides by their machine size (nil otherwise).
func (s *summary) partitions() *cli.Partitions {
	p := s.parts.Partitions(s.header)
	if p != nil && s.machineErr == nil {
		p.Pool = s.machine
	}
	return p
}

// printPartitions prints the jobs per partition, as per queue, and the
// note of the one pool, when the jobs name more than one.
func (s *summary) printPartitions(out io.Writer) {
	p := s.partitions()
	if p == nil {
		return
	}
	fmt.Fprintln(out, "\njobs per partition (field 16):")
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	for _, e := range p.ByPartition {
		name := ""
		if e.Name != "" {
			name = " " + e.Name
		}
		fmt.Fprintf(w, "  partition %d%s\t%d\t%s\tlargest job %d\t\n", e.Number, name, e.Jobs, pct(e.Jobs, s.jobs), e.Largest)
	}
	if p.NoPartition > 0 {
		fmt.Fprintf(w, "  none (-1)\t%d\t%s\t\t\n", p.NoPartition, pct(p.NoPartition, s.jobs))
	}
	if p.Beyond > 0 {
		fmt.Fprintf(w, "  past the first %d\t%d\t%s\t\t\n", len(p.ByPartition), p.Beyond, pct(p.Beyond, s.jobs))
	}
	w.Flush()
	how := "no machine size to take them as one pool"
	if p.Pool > 0 {
		how = fmt.Sprintf("the offered load above takes them as one pool of %d processors", p.Pool)
	}
	fmt.Fprintln(out, "note:", p.Note(how))
}
