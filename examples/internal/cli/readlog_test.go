package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// ReadLog reads as swf.ReadFile does and counts the zero padding after a
// gzip member, which swf.ReadFile drops; a parse error names the file.
func TestReadLog(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("; MaxProcs: 8\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"))
	zw.Close()
	b.Write(make([]byte, 512))
	padded := filepath.Join(dir, "padded.swf.gz")
	if err := os.WriteFile(padded, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	h, jobs, z, err := ReadLog(padded)
	if err != nil || h.MaxProcs != 8 || len(jobs) != 1 || z != 512 {
		t.Errorf("ReadLog: %v, %d jobs, %d zero bytes; want 1 job and 512", err, len(jobs), z)
	}
	if PaddingNote(z) != "512 zero bytes after the last gzip member ignored" {
		t.Errorf("note %q", PaddingNote(z))
	}
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(bad, []byte("1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, err = ReadLog(bad)
	if pe := (*swf.ParseError)(nil); !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), bad+": swf: line 1") {
		t.Errorf("%v; want a ParseError naming the file", err)
	}
}

// A header line the reader does not take as written (a size kept as text,
// a size after the first job line) is in every command's Skipped, its
// note and its JSON: only swfstat and simulate said them, and the other
// commands ran on the MaxNodes size (or the first size) without a word.
func TestSkippedHeaderWarnings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "late.swf")
	log := "; MaxNodes: 100\n; MaxProcs: 12.5\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n; MaxProcs: 50\n2 9 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lenient := range []bool{false, true} {
		h, jobs, st, _, err := ReadLogLenient(path, lenient)
		if err != nil || len(jobs) != 2 {
			t.Fatalf("lenient %v: %v, %d jobs", lenient, err, len(jobs))
		}
		if size, _ := h.MachineSize(); size != 100 {
			t.Fatalf("size %d; want MaxNodes's 100", size)
		}
		s := SkippedOf(st)
		note := s.Note()
		if !strings.HasPrefix(note, `2 header lines not taken as written; first: swf: line 2, header MaxProcs: "12.5"`) {
			t.Errorf("lenient %v: note %q", lenient, note)
		}
		b, err := json.Marshal(s)
		if err != nil || !strings.Contains(string(b), `"header_warnings":["swf: line 2, header MaxProcs: \"12.5\"`) ||
			!strings.Contains(string(b), `swf: line 4, header MaxProcs: \"50\"`) {
			t.Errorf("lenient %v: JSON %s (%v)", lenient, b, err)
		}
		var all Skipped
		all.Add("late.swf", st, true)
		if len(all.Header) != 2 || !strings.HasPrefix(all.Header[1], "late.swf: swf: line 4") {
			t.Errorf("Add: %q", all.Header)
		}
	}
	// A log whose header is read as written says nothing (the archive's
	// logs: none has a header warning).
	clean := filepath.Join(t.TempDir(), "clean.swf")
	if err := os.WriteFile(clean, []byte("; MaxProcs: 8\n1 0 5 10 1 -1 -1 1 20 -1 1 1 1 1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, st, _, err := ReadLogLenient(clean, false)
	if err != nil || SkippedOf(st).Note() != "" || SkippedOf(st).Header != nil {
		t.Errorf("clean log: %v, note %q", err, SkippedOf(st).Note())
	}
}
