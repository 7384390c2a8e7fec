// Command swfstat summarizes an SWF trace: jobs, span, machine size,
// offered load, per-queue counts, how many jobs carry a user estimate and
// how many ran past it, how many submit times are out of order or unknown,
// and which status codes fall outside the SWF standard.
//
//	go run ./examples/swfstat                 # the small synthetic trace embedded here
//	go run ./examples/swfstat trace.swf[.gz]  # any SWF file, plain or gzip
//
// Parsing is strict unless -lenient is given; then malformed lines are
// skipped, counted, and the first ones printed. Header lines the reader kept
// but did not apply (a value such as "MaxRuntime: N/A", a repeated key, a
// key after the jobs) are printed as warnings in both modes.
package main

import (
	"bytes"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/batchq/batchq/swf"
)

//go:embed default.swf
var defaultTrace []byte

func main() {
	lenient := flag.Bool("lenient", false, "skip malformed lines instead of stopping at the first")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: swfstat [-lenient] [trace.swf[.gz]]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if err := run(os.Stdout, flag.Args(), *lenient); err != nil {
		fmt.Fprintln(os.Stderr, "swfstat:", err)
		os.Exit(1)
	}
}

func run(out io.Writer, args []string, lenient bool) error {
	name := "embedded default (synthetic, 500 jobs)"
	var r *swf.Reader
	switch len(args) {
	case 0:
		r = swf.NewReader(bytes.NewReader(defaultTrace))
	case 1:
		f, err := swf.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		name, r = args[0], f.Reader
	default:
		return fmt.Errorf("want at most one trace path, got %d", len(args))
	}
	r.Lenient = lenient
	s, err := summarize(r)
	if err != nil {
		return err
	}
	s.print(out, name)
	return nil
}

// summary accumulates what swfstat prints, in one pass over the jobs.
type summary struct {
	header             *swf.Header
	stats              swf.Stats
	machine            int64
	machineErr         error
	jobs               int
	firstSubmit, last  int64
	known              bool    // some submit time is known
	procSeconds        float64 // Σ size × run time over jobs with both known
	withEstimate, over int
	queues             map[int64]int
}

func summarize(r *swf.Reader) (*summary, error) {
	h, err := r.Header()
	if err != nil {
		return nil, err
	}
	s := &summary{header: h, queues: map[int64]int{}}
	for j, err := range r.All() {
		if err != nil {
			return nil, err
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
		if j.Size() > 0 && j.RunTime > 0 {
			s.procSeconds += float64(j.Size()) * float64(j.RunTime)
		}
		if j.HasEstimate() {
			s.withEstimate++
			if j.RunTime > j.ReqTime {
				s.over++
			}
		}
		s.queues[j.Queue]++
	}
	s.stats = r.Stats()
	s.machine, s.machineErr = h.MachineSize()
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
		fmt.Fprintf(w, "machine\t%s, %s\n", s.header.Computer, s.header.Installation)
	}
	fmt.Fprintf(w, "jobs\t%d\n", s.jobs)
	span := s.last - s.firstSubmit
	fmt.Fprintf(w, "submit span\t%d s (%.1f days)\n", span, float64(span)/86400)
	if s.machineErr != nil {
		fmt.Fprintf(w, "machine size\tunknown (%v)\n", s.machineErr)
	} else {
		fmt.Fprintf(w, "machine size\t%d processors\n", s.machine)
		if span > 0 {
			// Offered load as the archive defines it: work submitted over
			// capacity during the submit span.
			load := s.procSeconds / (float64(s.machine) * float64(span))
			fmt.Fprintf(w, "offered load\t%.1f%% (Σ size×runtime / (P × submit span))\n", 100*load)
		}
	}
	fmt.Fprintf(w, "with user estimate\t%d (%s)\n", s.withEstimate, pct(s.withEstimate, s.jobs))
	fmt.Fprintf(w, "run time > estimate\t%d (%s of jobs with estimates)\n", s.over, pct(s.over, s.withEstimate))
	fmt.Fprintf(w, "out-of-order submits\t%d\n", s.stats.OutOfOrder)
	if s.stats.UnknownSubmit > 0 {
		fmt.Fprintf(w, "unknown submit times\t%d (not counted as out of order)\n", s.stats.UnknownSubmit)
	}
	if s.stats.OtherStatus > 0 {
		fmt.Fprintf(w, "status outside -1..5\t%d (%s)\n", s.stats.OtherStatus, statusCounts(s.stats.OtherStatusCounts))
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
	if s.header.UnixStartTime > 0 {
		fmt.Fprintf(w, "log starts\t%s\n", time.Unix(s.header.UnixStartTime, 0).UTC().Format(time.RFC3339))
	}
	w.Flush()

	fmt.Fprintln(out, "\njobs per queue (field 15):")
	qs := make([]int64, 0, len(s.queues))
	for q := range s.queues {
		qs = append(qs, q)
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i] < qs[j] })
	w = tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	for _, q := range qs {
		fmt.Fprintf(w, "  queue %d\t%d\t%s\t\n", q, s.queues[q], pct(s.queues[q], s.jobs))
	}
	w.Flush()
	for _, e := range s.stats.Warnings {
		fmt.Fprintln(out, "warning:", e)
	}
	for _, e := range s.stats.Errors {
		fmt.Fprintln(out, "skipped:", e)
	}
}

// statusCounts lists status values and their job counts in value order,
// e.g. "-4: 1, -2: 2".
func statusCounts(m map[swf.Status]int) string {
	keys := make([]swf.Status, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d: %d", k, m[k])
	}
	return b.String()
}
