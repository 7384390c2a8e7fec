package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/batchq/batchq/swf"
)

// trace is what the command read.
type trace struct {
	name   string // as given on the command line ("-" is "standard input")
	header *swf.Header
	jobs   []swf.Job
	stats  swf.Stats
}

// maxPresize bounds the jobs a header's count reserves room for, as
// swf.Reader.ReadAll does, so that a hostile header cannot reserve much.
const maxPresize = 1 << 22

// readTrace reads the whole trace (plain or gzip; "-" is stdin), strictly
// unless lenient. set reports the fraction read when the header says how
// many records to expect.
func readTrace(path string, stdin io.Reader, lenient bool, set func(float64)) (*trace, error) {
	t := &trace{name: path}
	var f *swf.File
	var err error
	if path == "-" {
		t.name = "standard input"
		f, err = swf.OpenReader(stdin, t.name)
	} else {
		f, err = swf.Open(path)
	}
	if err != nil {
		return nil, t.named(err)
	}
	defer f.Close()
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
	if len(t.jobs) == 0 {
		return nil, fmt.Errorf("%s: no job lines", t.name)
	}
	return t, nil
}

// named makes err name the trace, unless it does already (swf's file and
// gzip errors do; its parse errors name only the line).
func (t *trace) named(err error) error {
	if strings.Contains(err.Error(), t.name) {
		return err
	}
	return fmt.Errorf("%s: %w", t.name, err)
}
