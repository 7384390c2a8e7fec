package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/batchq/batchq/internal/textcheck"
)

// StdinTrace lets a command that reads its trace by path (to stat it, read
// it twice, or name it) take "-", standard input, as simulate, swfstat and
// convert do: stdin is copied, as it comes (plain or gzip), into a file
// named "standard input" in a new temporary directory, whose path it
// returns with a done that removes the directory, so that a report naming
// its trace by base name says what simulate and swfstat say (replay, varq
// and qbets said "stdin"). Any other path comes back as it is, with a done
// that does nothing.
//
// The copy is bounded at maxStdin bytes as they come (16 GiB, a gzip
// stream's compressed bytes): cat /dev/zero | simulate - filled the
// temporary directory's disk before anything read a line. A larger trace
// is given by its path, which has no such bound (and a gzip one is far
// below it: the largest log of the Parallel Workloads Archive is under
// 1 GiB uncompressed).
func StdinTrace(path string, stdin io.Reader) (string, func(), error) {
	return stdinTrace(path, stdin, maxStdin)
}

// maxStdin is the most bytes StdinTrace copies from standard input.
const maxStdin = 16 << 30

func stdinTrace(path string, stdin io.Reader, limit int64) (string, func(), error) {
	if path != "-" {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "batchq-stdin-")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.RemoveAll(dir) }
	// Binary data is refused before it is copied: a log's first line
	// would refuse it anyway, after up to the bound's bytes of disk
	// (cat /dev/zero | forecast -: 16 GiB of zeros). A gzip stream
	// (its magic bytes) is copied as it comes.
	br := bufio.NewReaderSize(stdin, 4096)
	head, _ := br.Peek(4096)
	if !bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		if line, _, _ := bytes.Cut(head, []byte{'\n'}); textcheck.FirstLine(string(line)) {
			done()
			return "", nil, fmt.Errorf("standard input: binary data, not a text log (its first bytes: %q)", head[:min(len(head), 16)])
		}
	}
	stdin = br
	p := filepath.Join(dir, "standard input")
	f, err := os.Create(p)
	if err == nil {
		var n int64
		n, err = io.Copy(f, io.LimitReader(stdin, limit+1))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil && n > limit {
			err = fmt.Errorf("standard input: more than %s: give the trace by its path, which has no such bound", sizeWords(limit))
		}
	}
	if err != nil {
		done()
		return "", nil, err
	}
	return p, done, nil
}

// StdinStderr is stderr for a command that read arg through StdinTrace,
// which gave path: when arg is "-", the temporary path in what it writes
// (errors, warnings: "forecast: /tmp/batchq-stdin-…/stdin: …") reads
// "standard input". Each Write is replaced whole, as fmt.Fprintf and
// Status write a line at once.
func StdinStderr(stderr io.Writer, arg, path string) io.Writer {
	if arg != "-" || path == "-" || path == "" {
		return stderr
	}
	return renamer{stderr, []byte(path)}
}

type renamer struct {
	w    io.Writer
	path []byte
}

func (r renamer) Write(p []byte) (int, error) {
	if !bytes.Contains(p, r.path) {
		return r.w.Write(p)
	}
	if _, err := r.w.Write(bytes.ReplaceAll(p, r.path, []byte("standard input"))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// StdinError is err with the temporary path StdinTrace gave for arg "-"
// named "standard input", for errors a command returns to Status rather
// than writes itself (StdinStderr); errors.Is and As see err.
func StdinError(err error, arg, path string) error {
	if err == nil || arg != "-" || path == "-" || path == "" || !strings.Contains(err.Error(), path) {
		return err
	}
	return renamedError{err, strings.ReplaceAll(err.Error(), path, "standard input")}
}

type renamedError struct {
	err error
	msg string
}

func (r renamedError) Error() string { return r.msg }
func (r renamedError) Unwrap() error { return r.err }

// sizeWords says a bound of bytes: "16 GiB", "100 bytes".
func sizeWords(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d bytes", n)
}
