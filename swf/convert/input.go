package convert

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/batchq/batchq/internal/inflate"
)

// maxLine bounds one input line; a longer line is a malformed record, so
// that a hostile file cannot make a line buffer grow without limit.
const maxLine = 1 << 20

var errLineTooLong = fmt.Errorf("line longer than %d bytes", maxLine)

// decompress returns r, or r gunzipped when it starts with the gzip magic
// bytes (swf.Open's decompression: the same inflater, and its errors say
// "truncated" or "corrupt"). close stops the decompression.
func decompress(r io.Reader) (out io.Reader, close func() error, gz bool, err error) {
	out, closers, err := inflate.Reader(r, "convert: input")
	if err != nil {
		return nil, nil, false, err
	}
	return out, func() error {
		var err error
		for i := len(closers) - 1; i >= 0; i-- {
			err = errors.Join(err, closers[i].Close())
		}
		return err
	}, len(closers) > 0, nil
}

// lineReader reads lines of at most maxLine bytes, without their "\n" or
// "\r\n" nor a leading byte-order mark, counting them from 1.
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
		// A byte-order mark begins a line past the first when files
		// each with one are concatenated (cat a b, io.MultiReader): it
		// is no part of the record, as begin drops the input's own. It
		// made the second sacct header lack JobID (the conversion
		// failed), a PBS or jobcomp record malformed.
		frag = bytes.TrimPrefix(frag, utf8BOM)
		return bytes.TrimSuffix(frag, []byte("\r")), nil
	}
}

// padNote reads r, the decompressed input, and at its end notes in the
// report the zero bytes that followed the last gzip member (padding a
// tape or dd leaves, which gzip(1) and the inflater ignore), as swfstat
// and simulate report them: "512 zero bytes after the last gzip member
// ignored". (A reader that stops before the end, as a JSON decoder may,
// notes nothing.)
type padNote struct {
	r     io.Reader
	b     *builder
	ended bool
}

func (p *padNote) Read(q []byte) (int, error) {
	n, err := p.r.Read(q)
	if err == io.EOF && !p.ended {
		p.ended = true
		if z := inflate.TrailingZeros(p.r); z > 0 {
			p.b.rep.Notes = append(p.b.rep.Notes, fmt.Sprintf("%d zero bytes after the last gzip member ignored", z))
		}
	}
	return n, err
}

// utf8BOM is the UTF-8 byte-order mark.
var utf8BOM = []byte("\xef\xbb\xbf")

// begin validates opt and opens r (plain or gzip) for a conversion into
// the format's builder; done releases the input. An input that is clearly
// another format (also lists further formats the caller reads) is a
// *FormatError.
func begin(r io.Reader, opt *Options, format string, also ...string) (in io.Reader, done func() error, b *builder, err error) {
	if err := opt.Validate(); err != nil {
		return nil, nil, nil, err
	}
	in, done, gz, err := decompress(r)
	if err != nil {
		return nil, nil, nil, err
	}
	b = newBuilder(format, opt)
	if gz { // a failed conversion looks for the stream's damage (builder.damaged)
		inflated := in
		b.damage = func() error { return inflate.DrainForDamage(inflated) }
	}
	br := bufio.NewReaderSize(&padNote{r: in, b: b}, sniffBytes)
	head, perr := br.Peek(sniffBytes) // a later read error shows again at the first read
	if len(head) == 0 && perr != nil && perr != io.EOF {
		// A failed first read: the JSON and GPU readers, which
		// read on only after sniff's verdict, said "the input is empty"
		// of a broken pipe (examples/convert's copier refusing a
		// second file in UTF-16) and lost the error.
		done()
		return nil, nil, nil, perr
	}
	b.saw, b.firstLine, b.sample = sniff(head)
	if b.firstLine == 0 && len(head) == sniffBytes {
		// Not empty: blank as far as sniff reads (a FormatError said
		// "the input is empty" of records past 64 KiB of blank lines).
		b.sample = "(blank lines only in its first 64 KiB)"
	}
	if bytes.HasPrefix(head, utf8BOM) {
		// An editor's byte-order mark is no part of the first record: it
		// made sacct's first column "\ufeffJobID" (JobIDRaw read instead,
		// array tasks counted apart), the first PBS or jobcomp record
		// malformed and sacct --json "JSON of another kind".
		br.Discard(len(utf8BOM))
	}
	if b.saw != "" && b.saw != format && !slices.Contains(also, b.saw) {
		err = &FormatError{Want: format, Saw: b.saw, Line: b.firstLine, Sample: b.sample}
		b.damaged(&err) // (garbage may sniff as another format)
		done()
		return nil, nil, nil, err
	}
	return br, done, b, nil
}

// empty is the error of a log without headers (pbs, jobcomp) that holds
// no record at all, not even a blank line's worth: the same
// *FormatError the formats with a header line give an empty input, so that
// an empty file is refused whatever -from says, not converted to a trace
// of no job.
func (b *builder) empty() *FormatError {
	if b.rep.Records > 0 {
		return nil
	}
	return &FormatError{Want: b.format, Line: b.firstLine, Sample: b.sample}
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
	if e.Saw == "" && len(b.rep.Errors) > 0 {
		e.Malformed, e.First = b.rep.Records, b.rep.Errors[0]
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
