package cli

import (
	"io"
	"os"
	"path/filepath"
)

// StdinTrace lets a command that reads its trace by path (to stat it, read
// it twice, or name it) take "-", standard input, as simulate, swfstat and
// convert do: stdin is copied, as it comes (plain or gzip), into a file
// named "stdin" in a new temporary directory, whose path it returns with
// a done that removes the directory. Any other path comes back as it is,
// with a done that does nothing.
func StdinTrace(path string, stdin io.Reader) (string, func(), error) {
	if path != "-" {
		return path, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "batchq-stdin-")
	if err != nil {
		return "", nil, err
	}
	done := func() { os.RemoveAll(dir) }
	p := filepath.Join(dir, "stdin")
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
