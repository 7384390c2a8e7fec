package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordingPollNumbers: a recording whose first line has a poll
// number below 0 (an edited or damaged file) is an error that names the
// line; -replay panicked with "index out of range [-1]" on poll -1, and
// said "poll -2 after poll -1" of a first line with -2.
func TestRecordingPollNumbers(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ poll, want string }{
		{"-1", "line 1: poll: -1 is not a poll number (a recording numbers its polls from 0)"},
		{"-2", "line 1: poll: -2 is not a poll number (a recording numbers its polls from 0)"},
	} {
		p := filepath.Join(dir, "rec.jsonl")
		line := `{"poll":` + c.poll + `,"time":1795503255,"cmd":["squeue","--json"],"out":""}` + "\n"
		if err := os.WriteFile(p, []byte(line+line), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readRecording(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("poll %s: %v; want an error with %q", c.poll, err, c.want)
		}
	}
}
