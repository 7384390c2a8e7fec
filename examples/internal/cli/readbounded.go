package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/batchq/batchq/internal/textcheck"
)

// ReadText reads the text file at path whole, what a command reads of a
// spec, a recording or a README it edits: binary data (its first line, as
// textcheck.FirstLine tells it) is refused at its first bytes, and a file
// of more than limit bytes is an error naming what ("spec", "README"):
// os.ReadFile of /dev/zero, or of a named pipe that never ends, read into
// memory until the command was killed (sweep list -spec /dev/zero).
func ReadText(path, what string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	head, _ := br.Peek(4096)
	if line, _, _ := bytes.Cut(head, []byte{'\n'}); textcheck.FirstLine(string(line)) {
		return nil, fmt.Errorf("%s: binary data, not a %s (its first bytes: %q)", path, what, head[:min(len(head), 16)])
	}
	b, err := io.ReadAll(io.LimitReader(br, limit+1))
	if err != nil {
		return nil, err // (os's errors name the file)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: more than %s, which no %s is", path, sizeWords(limit), what)
	}
	return b, nil
}
