package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// trace is what the command read.
type trace struct {
	name   string // as given on the command line ("-" is "standard input")
	format string // "swf" or "alibaba"
	header *swf.Header
	jobs   []swf.Job // the jobs, but on the streaming path (stream), which keeps none
	read   int       // job lines read
	stats  swf.Stats
	zeros  int64           // zero bytes after the last gzip member (padding, ignored)
	report *convert.Report // the conversion's report of an Alibaba pod list, nil for SWF
}

// damageIdle bounds the wait of a strict read's search for a damaged
// gzip input's own error (cli.BoundDrain; a variable for the tests).
var damageIdle = cli.DamageIdle

// maxPresize bounds the jobs a header's count reserves room for, as
// swf.Reader.ReadAll does, so that a hostile header cannot reserve much.
const maxPresize = 1 << 22

// Formats of a trace, told apart by the first non-blank line: an SWF job
// line has no comma and an SWF comment starts with ';', a CSV header line
// has a comma.
const (
	formatSWF     = "swf"
	formatAlibaba = "alibaba"
	// formatPhilly: a JSON list with Philly's keys, which the SWF reader
	// would only call a bad job number (readTrace says to convert it; a
	// Helios or Acme CSV header goes to readAlibaba, whose converter
	// names it).
	formatPhilly = "philly"
)

// readTrace reads the whole trace (plain or gzip; "-" is stdin), strictly
// unless lenient: an SWF log, or an Alibaba GPU 2023 pod list. set reports
// the fraction read when the header says how many records to expect.
func readTrace(path string, stdin io.Reader, lenient bool, set func(float64)) (*trace, error) {
	t := &trace{name: path}
	src := stdin
	if path == "-" {
		t.name = "standard input"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err // names the file
		}
		defer f.Close()
		src = f
	}
	format, src := sniff(src)
	if format == formatPhilly {
		return nil, cli.ConvertFirst(t.name, format)
	}
	if format == formatAlibaba {
		return t, t.readAlibaba(src, lenient)
	}
	t.format = formatSWF
	f, err := swf.OpenReader(src, t.name)
	if err != nil {
		return nil, t.named(err)
	}
	defer cli.BoundDrain(f, damageIdle)() // (standard input, a named pipe may stall)
	r := f.Reader
	r.Lenient = lenient
	h, err := r.Header()
	if err != nil {
		return nil, t.named(err)
	}
	t.header = h
	expect := h.MaxRecords
	if expect <= 0 {
		expect = h.MaxJobs
	}
	// Room for the header's count of jobs up front: growing the slice by
	// appends alone allocates about five times its final size and copies
	// it as often (on KTH, most of the read's CPU went to growslice's
	// copies, page faults and the collections they caused).
	if n := max(h.MaxRecords, h.MaxJobs); n > 0 {
		t.jobs = make([]swf.Job, 0, min(n, maxPresize))
	}
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, t.named(err)
		}
		t.jobs = append(t.jobs, j)
		if expect > 0 && len(t.jobs)&4095 == 0 {
			set(float64(len(t.jobs)) / float64(expect))
		}
	}
	t.stats = r.Stats()
	t.zeros = f.TrailingZeros()
	t.read = len(t.jobs)
	if len(t.jobs) == 0 {
		return nil, cli.NoJobLines(t.name, t.stats)
	}
	return t, nil
}

// sniffBytes is how much of the (decompressed) input sniff looks at for
// the first non-blank line.
const sniffBytes = 64 << 10

// sniff tells the format of a trace from its first non-blank line, gzip
// or not, and returns a reader that gives the whole input again, as read
// (still compressed): the readers of either format decompress themselves,
// with their own messages for a corrupt file. A line with a comma that is
// not an SWF comment (';', whose text may hold commas) is a CSV header,
// so an Alibaba pod list; anything else, an empty input too, is left to
// the SWF reader.
func sniff(src io.Reader) (string, io.Reader) {
	var raw bytes.Buffer
	tee := io.TeeReader(src, &raw)
	br := bufio.NewReaderSize(tee, 512)
	var in io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		if zr, err := gzip.NewReader(br); err == nil {
			in = zr
		}
	}
	head, _ := bufio.NewReaderSize(in, sniffBytes).Peek(sniffBytes) // an error shows again at the real read
	return formatOf(head), io.MultiReader(&raw, src)
}

// formatOf tells the format of a trace from the start of its
// (decompressed) text, as sniff describes.
func formatOf(head []byte) string {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte("\n"))
		if l := bytes.TrimSpace(line); len(l) > 0 {
			if (l[0] == '[' || l[0] == '{') && cli.GPUTable(head) == formatPhilly {
				return formatPhilly
			}
			if l[0] != ';' && bytes.IndexByte(l, ',') >= 0 {
				return formatAlibaba
			}
			break
		}
		head = rest
	}
	return formatSWF
}

// readAlibaba converts an Alibaba GPU 2023 pod list (convert.Alibaba):
// each pod a job of one node with its swf.Demand. A node list given as
// the trace is named as such.
func (t *trace) readAlibaba(src io.Reader, lenient bool) error {
	t.format = formatAlibaba
	res, err := convert.Alibaba(src, convert.Options{Strict: !lenient})
	var fe *convert.FormatError
	switch {
	case errors.As(err, &fe) && (fe.Saw == "alibaba-nodes" || fe.Saw == "nodes"):
		return fmt.Errorf("%s: a node list, not a trace (line %d: %q); pass it as -nodes and give a pod list or an SWF log as TRACE",
			t.name, fe.Line, fe.Sample)
	case cli.GPUTableSaw(err) != "":
		return cli.ConvertFirst(t.name, cli.GPUTableSaw(err))
	case errors.As(err, &fe):
		return fmt.Errorf("%s: neither an SWF log nor an Alibaba GPU 2023 pod list (line %d: %q)", t.name, fe.Line, fe.Sample)
	case err != nil:
		return t.named(err)
	}
	t.header, t.jobs, t.report = res.Header, res.Jobs, &res.Report
	t.read = len(t.jobs)
	if len(t.jobs) == 0 && res.Report.Records > 0 {
		// Pods read and every one skipped: the reasons are the answer
		// (it said "no pods" of 199 pods without a creation_time).
		return fmt.Errorf("%s: no job: every one of the %d pods was skipped (%s)", t.name, res.Report.Records, cli.Reasons(res.Report.Skipped))
	}
	if len(t.jobs) == 0 {
		return fmt.Errorf("%s: no pods", t.name)
	}
	return nil
}

// named makes err name the trace, unless it does already (swf's file and
// gzip errors do; its parse errors name only the line).
func (t *trace) named(err error) error {
	if strings.Contains(err.Error(), t.name) {
		return err
	}
	return fmt.Errorf("%s: %w", t.name, err)
}
