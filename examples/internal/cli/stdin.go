package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// StdinTrace lets a command that reads its trace by path (to stat it, read
// it twice, or name it) take "-", standard input, as simulate, swfstat and
// convert do: stdin is copied, as it comes (plain or gzip), into a file
// named "standard input" in a new temporary directory, whose path it
// returns with a done that removes the directory, so that a report naming
// its trace by base name says what simulate and swfstat say (replay, varq
// and qbets said "stdin"). Any other path comes back as it is, with a done
// that does nothing.
func StdinTrace(path string, stdin io.Reader) (string, func(), error) {
	if path != "-" {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "batchq-stdin-")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.RemoveAll(dir) }
	p := filepath.Join(dir, "standard input")
	f, err := os.Create(p)
	if err == nil {
		_, err = io.Copy(f, stdin)
		if cerr := f.Close(); err == nil {
			err = cerr
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
