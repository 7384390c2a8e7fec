package cli

import (
	"errors"
	"fmt"

	"github.com/batchq/batchq/swf"
)

// ReadTrace is swf.ReadFile with a malformed line's error naming the file
// ("t.swf: swf: line 30: wrong number of fields"), as simulate's does: a
// command given several logs, or run from a script, said "swf: line 30"
// of no file. Errors that name it already (open, gzip) are as they were.
func ReadTrace(path string) (*swf.Header, []swf.Job, error) {
	h, jobs, err := swf.ReadFile(path)
	if pe := (*swf.ParseError)(nil); errors.As(err, &pe) {
		err = fmt.Errorf("%s: %w", path, err)
	}
	return h, jobs, err
}
