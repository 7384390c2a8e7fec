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

func TestBinary(t *testing.T) {
	for v, want := range map[string]bool{
		"\x01\x00\x02\x00": true,  // little-endian numbers
		"\x00\x00\x00\x00": true,  // a zero-filled block
		"1\x00 \x00":       false, // UTF-16 text
		"12\t34\r":         false,
		"abc":              false,
		"a\x1b[0m":         true, // an escape (a control byte)
		"\x7f":             true,
		"":                 false,
	} {
		if got := Binary(v); got != want {
			t.Errorf("Binary(%q) = %v, want %v", v, got, want)
		}
	}
}
