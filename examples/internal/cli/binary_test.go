package cli

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// littleEndian writes the numbers 1 to n in 16 bits, little-endian: a
// NUL beside every other byte, as UTF-16 text has, around control bytes.
func littleEndian(t *testing.T, n int) string {
	t.Helper()
	var b []byte
	for i := 1; i <= n; i++ {
		b = binary.LittleEndian.AppendUint16(b, uint16(i%300+1))
	}
	p := filepath.Join(t.TempDir(), "counts.bin")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A little-endian binary file given as a log or as -nodes is told as not
// text, neither skipped (-lenient cannot make it a log) nor UTF-16 (the
// iconv advice, which -nodes gave, garbles it further).
func TestBinaryNotText(t *testing.T) {
	p := littleEndian(t, 2000)
	_, _, _, _, err := ReadLogLenient(p, false)
	if err == nil || !strings.Contains(err.Error(), "binary data, not a text log") || strings.Contains(err.Error(), "-lenient") {
		t.Errorf("strict: %v, want binary data, not a text log, without -lenient's hint", err)
	}
	_, _, _, _, err = ReadLogLenient(p, true)
	if err == nil || !strings.Contains(err.Error(), "binary data, not a text log") {
		t.Errorf("lenient: %v, want binary data, not a text log", err)
	}
	_, _, err = ReadNodes(p, false)
	if err == nil || !strings.Contains(err.Error(), "binary data, not a text node list") || strings.Contains(err.Error(), "iconv") {
		t.Errorf("-nodes: %v, want binary data, not the iconv advice", err)
	}
}

// A binary file whose first line is letters but its first bytes (a PNG's
// 0x89, a GIF's or a PDF's signature) is told as not text by every
// reader of a log, with or without -lenient, and as -nodes; they drew
// the hint to skip it (-lenient), which cannot make it a log. A text
// file's malformed first line keeps the hint.
func TestBinarySignatureNotText(t *testing.T) {
	dir := t.TempDir()
	for name, head := range map[string]string{"png": "\x89PNG\r\n", "gif": "GIF89a\n", "pdf": "%PDF-1.4\n", "text": "abc\n"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(head+strings.Repeat("IHDR obj data\n", 3)), 0o644); err != nil {
			t.Fatal(err)
		}
		binary := name != "text"
		says := func(what string, err error, hint bool) {
			t.Helper()
			if err == nil || strings.Contains(err.Error(), "binary data, not a text") != binary || strings.Contains(err.Error(), "-lenient skips") != hint {
				t.Errorf("%s: %s: %v; want binary data said %v, the -lenient hint %v", name, what, err, binary, hint)
			}
		}
		_, _, _, err := ReadLog(p)
		says("ReadLog", err, false)
		_, _, _, _, err = ReadLogLenient(p, false)
		says("strict", err, !binary)
		_, _, _, _, err = ReadLogLenient(p, true)
		says("lenient", err, false)
		if name == "png" {
			_, _, err = ReadNodes(p, false)
			if err == nil || !strings.Contains(err.Error(), "binary data, not a text node list") {
				t.Errorf("-nodes: %v, want binary data, not a text node list", err)
			}
		}
	}
}
