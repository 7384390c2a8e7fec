package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/batchq/batchq/swf"
)

// trace is what the command read.
type trace struct {
	name   string // as given on the command line ("-" is "standard input")
	header *swf.Header
	jobs   []swf.Job
	stats  swf.Stats
}

// readTrace reads the whole trace (plain or gzip; "-" is stdin), strictly
// unless lenient. set reports the fraction read when the header says how
// many records to expect.
func readTrace(path string, stdin io.Reader, lenient bool, set func(float64)) (*trace, error) {
	t := &trace{name: path}
	var r *swf.Reader
	if path == "-" {
		t.name = "standard input"
		in, err := maybeGunzip(stdin)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.name, readError(err))
		}
		r = swf.NewReader(in)
	} else {
		f, err := swf.Open(path)
		if err != nil {
			var pe *fs.PathError
			if !errors.As(err, &pe) { // a gzip header error does not name the file
				err = fmt.Errorf("%s: %w", path, readError(err))
			}
			return nil, err
		}
		defer f.Close()
		r = f.Reader
	}
	r.Lenient = lenient
	h, err := r.Header()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.name, readError(err))
	}
	t.header = h
	expect := h.MaxRecords
	if expect <= 0 {
		expect = h.MaxJobs
	}
	for {
		j, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t.name, readError(err))
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

// maybeGunzip decompresses r when it starts with the gzip magic bytes, as
// swf.Open does for files.
func maybeGunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, err := br.Peek(2)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		return gzip.NewReader(br)
	}
	return br, nil
}

// readError explains the bare io.ErrUnexpectedEOF of a cut gzip stream.
func readError(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("truncated or corrupt gzip data: %w", err)
	}
	return err
}
