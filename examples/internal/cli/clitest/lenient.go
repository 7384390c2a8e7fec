package clitest

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/examples/internal/cli"
)

// malformedLine is the job line Lenient puts into WriteTrace's log, after
// its tenth job line: a run time that is not a number.
const malformedLine = "11 6000 0 x 1 -1 -1 1 600 -1 1 1 1 1 1 1 -1 -1"

// LenientCase is a command's -lenient as Lenient checks it.
type LenientCase struct {
	Run  cli.Command
	N    int                        // the log's jobs
	Args func(path string) []string // the invocation on the log at path
	// Text is what the text report must hold; nil: simulate's words,
	// "skipped 1 malformed lines (-lenient); first: swf: line 16, …".
	// TextOnStderr: the report is on standard error (estimates', whose
	// standard output is the trace it writes).
	Text         []string
	TextOnStderr bool
	// In is the JSON object the counts are in ("": the top level), Count
	// the key of the lines skipped and Errors that of their errors:
	// "", "malformed_lines_skipped", "skipped" (swfstat's) unless set.
	In, Count, Errors string
}

// where is the malformed line of Lenient's log, as its error says it.
const where = "line 16, field 4 (run time)"

// Lenient checks a command's -lenient on a log of c.N jobs (WriteTrace's,
// 64 processors) with one malformed job line: c.Args(path) must fail
// without -lenient (exit 1, the error naming the line and saying that
// -lenient skips it) and with -lenient read the log, the skipped line
// said in the text and in every JSON object -json prints (LenientCase); a
// log of no other job line fails with -lenient too, saying so.
func Lenient(t *testing.T, c LenientCase) {
	t.Helper()
	if c.Text == nil {
		c.Text = []string{"skipped 1 malformed lines (-lenient); first: swf: " + where}
	}
	if c.Count == "" {
		c.Count, c.Errors = "malformed_lines_skipped", "skipped"
	}
	cmd, args := c.Run, c.Args
	dir := t.TempDir()
	clean := WriteTrace(t, dir, "clean.swf", c.N, 64)
	data, err := os.ReadFile(clean)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	const head = 5 // WriteTrace's header lines
	lines = append(lines[:head+10], append([]string{malformedLine + "\n"}, lines[head+10:]...)...)
	path := filepath.Join(dir, "one-bad-line.swf")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}

	// A log whose every job line is malformed is an error with -lenient
	// too, which says so (cli.NoJobLines): nothing was read.
	none := filepath.Join(dir, "no-good-line.swf")
	if err := os.WriteFile(none, []byte(strings.Join(append(lines[:head:head], malformedLine+"\n"), "")), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Exec(cmd, "", append(args(none), "-lenient")...)
	if want := "no job line could be read: 1 malformed lines skipped (-lenient); first: swf: line 6"; r.Code != cli.ExitError || !strings.Contains(r.Stderr, want) {
		t.Errorf("-lenient, every job line malformed: exit %d, stderr %q; want exit 1 saying %q", r.Code, r.Stderr, want)
	}

	r = Exec(cmd, "", args(path)...)
	if r.Code != cli.ExitError || !strings.Contains(r.Stderr, where) || !strings.Contains(r.Stderr, "-lenient skips") {
		t.Errorf("strict: exit %d, stderr %q; want exit 1 naming %s and saying that -lenient skips it", r.Code, r.Stderr, where)
	}
	r = Exec(cmd, "", append(args(path), "-lenient")...)
	report := r.Stdout
	if c.TextOnStderr {
		report = r.Stderr
	}
	for _, want := range c.Text {
		if r.Code != 0 || !strings.Contains(report, want) {
			t.Errorf("-lenient: exit %d, stderr %q; want exit 0 and %q in:\n%s", r.Code, r.Stderr, want, report)
		}
	}
	r = Exec(cmd, "", append(args(path), "-lenient", "-json")...)
	if r.Code != 0 {
		t.Fatalf("-lenient -json: exit %d: %s", r.Code, r.Stderr)
	}
	dec, objects := json.NewDecoder(strings.NewReader(r.Stdout)), 0
	for {
		var o map[string]json.RawMessage
		if err := dec.Decode(&o); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("-lenient -json: %v in:\n%s", err, r.Stdout)
		}
		objects++
		if c.In != "" {
			var inner map[string]json.RawMessage
			if err := json.Unmarshal(o[c.In], &inner); err != nil {
				t.Fatalf("-lenient -json: %q: %v in:\n%s", c.In, err, r.Stdout)
			}
			o = inner
		}
		var lines int
		var msgs []string
		if json.Unmarshal(o[c.Count], &lines) != nil || json.Unmarshal(o[c.Errors], &msgs) != nil ||
			lines != 1 || len(msgs) != 1 || !strings.Contains(msgs[0], where) {
			t.Errorf("-lenient -json: object %d has %s %s, %s %s; want 1 and the line's error", objects, c.Count, o[c.Count], c.Errors, o[c.Errors])
		}
	}
	if objects == 0 {
		t.Errorf("-lenient -json printed no object")
	}
}

// NothingLeft checks a command's error for a -lenient log left with
// nothing to work on: one malformed job line, skipped, and one job with
// no wait, run time or size (64 processors). c.Args(path) with -lenient
// must fail (exit 1) with want, the command's own words, and the lines
// skipped (cli.NothingLeft's "; 1 malformed lines skipped (-lenient)").
func NothingLeft(t *testing.T, c LenientCase, want string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "nothing-left.swf")
	log := "; MaxNodes: 64\n; MaxProcs: 64\n" + malformedLine + "\n" +
		"12 6600 -1 -1 -1 -1 -1 -1 -1 -1 1 1 1 1 1 1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	r := Exec(c.Run, "", append(c.Args(path), "-lenient")...)
	if says := "; 1 malformed lines skipped (-lenient)"; r.Code != cli.ExitError || !strings.Contains(r.Stderr, want) || !strings.Contains(r.Stderr, says) {
		t.Errorf("-lenient, nothing left: exit %d, stderr %q; want exit 1 saying %q and %q", r.Code, r.Stderr, want, says)
	}
}
