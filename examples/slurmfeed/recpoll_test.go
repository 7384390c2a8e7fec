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

// TestRecordingPollTimes: a recording line whose time is not one the
// service takes (2^63 − 1, −2^63, −1, 2^40 + 1 Unix seconds; an edited or
// damaged file) is an error naming the line. -replay ran on such a clock:
// at 2^63 − 1 every batch was rejected ("batches": 0, 85 dropped, 56
// late) and Slurm's estimates were reported "at": 9223372036854775807.
func TestRecordingPollTimes(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "rec.jsonl")
	for _, c := range []struct {
		time string
		ok   bool
	}{
		{"9223372036854775807", false}, {"-9223372036854775808", false}, {"-1", false}, {"1099511627777", false},
		{"1795503255", true}, {"0", true}, {"1099511627776", true},
	} {
		line := `{"poll":0,"time":` + c.time + `,"cmd":["squeue","--json"],"out":""}` + "\n"
		if err := os.WriteFile(p, []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readRecording(p)
		want := "line 1: time: " + c.time + ", want Unix seconds in 0–1099511627776"
		switch {
		case c.ok && err != nil:
			t.Errorf("time %s: %v", c.time, err)
		case !c.ok && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("time %s: %v; want an error with %q", c.time, err, want)
		}
	}
}
