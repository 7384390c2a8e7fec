package convert

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"slices"
)

// maxLine bounds one input line; a longer line is a malformed record, so
// that a hostile file cannot make a line buffer grow without limit.
const maxLine = 1 << 20

var errLineTooLong = fmt.Errorf("line longer than %d bytes", maxLine)

// decompress returns r, or a gzip reader over it when r starts with the
// gzip magic bytes. close releases the gzip reader.
func decompress(r io.Reader) (out io.Reader, close func() error, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, nil, fmt.Errorf("convert: gzip: %w", err)
		}
		return gzipErrors{zr}, zr.Close, nil
	}
	return br, func() error { return nil }, nil
}

// gzipErrors names gzip stream errors as such.
type gzipErrors struct{ r io.Reader }

func (g gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("convert: gzip: truncated: %w", err)
		} else {
			err = fmt.Errorf("convert: gzip: corrupt: %w", err)
		}
	}
	return n, err
}

// lineReader reads lines of at most maxLine bytes, without their "\n" or
// "\r\n", counting them from 1.
type lineReader struct {
	br   *bufio.Reader
	line int
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line. A line longer than maxLine is consumed and
// reported as errLineTooLong (with the line number advanced), so reading
// can go on behind it. The last line needs no terminator.
func (l *lineReader) next() ([]byte, error) {
	var long []byte
	tooLong := false
	for {
		frag, err := l.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !tooLong {
				if len(long)+len(frag) > maxLine {
					tooLong, long = true, nil
				} else {
					long = append(long, frag...)
				}
			}
			continue
		}
		if err != nil && (err != io.EOF || (len(frag) == 0 && long == nil && !tooLong)) {
			return nil, err
		}
		l.line++
		if tooLong || len(long)+len(frag) > maxLine {
			return nil, errLineTooLong
		}
		if long != nil {
			frag = append(long, frag...)
		}
		frag = bytes.TrimSuffix(frag, []byte("\n"))
		return bytes.TrimSuffix(frag, []byte("\r")), nil
	}
}

// begin validates opt and opens r (plain or gzip) for a conversion into
// the format's builder; done releases the input. An input that is clearly
// another format (also lists further formats the caller reads) is a
// *FormatError.
func begin(r io.Reader, opt *Options, format string, also ...string) (in io.Reader, done func() error, b *builder, err error) {
	if err := opt.Validate(); err != nil {
		return nil, nil, nil, err
	}
	in, done, err = decompress(r)
	if err != nil {
		return nil, nil, nil, err
	}
	br := bufio.NewReaderSize(in, sniffBytes)
	head, _ := br.Peek(sniffBytes) // a read error shows again at the first read
	b = newBuilder(format, opt)
	b.saw, b.firstLine, b.sample = sniff(head)
	if b.saw != "" && b.saw != format && !slices.Contains(also, b.saw) {
		done()
		return nil, nil, nil, &FormatError{Want: format, Saw: b.saw, Line: b.firstLine, Sample: b.sample}
	}
	return br, done, b, nil
}

// unreadable is the error of an input of which no record could be read:
// every one was malformed and no job came out.
func (b *builder) unreadable() *FormatError {
	if b.rep.Jobs > 0 || b.rep.Records == 0 || b.rep.Skipped[skipMalformed] < b.rep.Records {
		return nil
	}
	e := &FormatError{Want: b.format, Saw: b.saw, Line: b.firstLine, Sample: b.sample}
	if e.Saw == b.format {
		e.Saw = ""
	}
	return e
}

// eachLine calls record for each non-blank line, counting it in
// Report.Records; a line too long is a malformed record.
func eachLine(in io.Reader, b *builder, record func(line string, num int) error) error {
	lr := newLineReader(in)
	for {
		line, err := lr.next()
		switch {
		case err == io.EOF:
			return nil
		case err == errLineTooLong:
			b.rep.Records++
			if err := b.malformed(lr.line, "", "", err); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		case len(bytes.TrimSpace(line)) == 0:
			continue
		}
		b.rep.Records++
		if err := record(string(line), lr.line); err != nil {
			return err
		}
	}
}
