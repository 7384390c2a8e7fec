package textcheck

import "testing"

func TestBinary(t *testing.T) {
	for v, want := range map[string]bool{
		"\x01\x00\x02\x00": true,  // little-endian numbers
		"\x00\x00\x00\x00": true,  // a zero-filled block
		"1\x00 \x00":       false, // UTF-16 text
		"12\t34\r":         false,
		"abc":              false,
		"a\x1b[0m":         true, // an escape (a control byte)
		"\x7f":             true,
		// Windows-1252 text: curly quotes, a dash, the euro sign, an
		// ellipsis (0x80 to 0x9f, characters there) is text
		"\x93relax\x94":      false,
		"a \x96 b \x80 \x85": false,
		"caf\xc3\xa9":        false, // UTF-8 é
		"\xe2\x80\x9c1":      false, // UTF-8 “: 0x80 and 0x9c continuation bytes
		"caf\xe9":            false, // ISO 8859-1 é
		"\xc2\x89":           false, // U+0089 in UTF-8
		"":                   false,
	} {
		if got := Binary(v); got != want {
			t.Errorf("Binary(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestFirstLine(t *testing.T) {
	for v, want := range map[string]bool{
		"\x89PNG":             true,
		"GIF89a":              true,
		"GIF87a":              true,
		"%PDF-1.7":            true,
		"SQLite":              true, // an SWF reader's first field of an SQLite file
		"SQLite format 3\x00": true,
		"\x93relax\x94":       false, // Windows-1252 curly quotes (a PBS job name)
		"\x80 per hour":       false,
		"SQLite3":             false,
		"1":                   false,
		"; MaxProcs: 128":     false,
		"JobID|User":          false,
	} {
		if got := FirstLine(v); got != want {
			t.Errorf("FirstLine(%q) = %v, want %v", v, got, want)
		}
	}
}
