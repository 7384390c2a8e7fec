package utf16text

import "testing"

func TestLine(t *testing.T) {
	for line, want := range map[string]bool{
		"k\x00i\x00n\x00d\x00":  true,  // little-endian
		"\x00k\x00i\x00n\x00d":  true,  // big-endian
		"kind,count\x00":        false, // a stray NUL in UTF-8
		"\x00\x00\x00\x00":      false, // a zero-filled block
		"k\x00":                 false, // too short to tell
		"ab\x00c":               false, // one stray NUL in a short line
		"a\x00b\x00":            true,  // two characters
		"PriorityWeightAge=1":   false,
		"a\x00b\x00cdefghijklm": false, // NULs at odd offsets, too few
		// little-endian binary numbers (1, 2, 3, 4 in 16 bits): control
		// bytes beside the NULs, no characters
		"\x01\x00\x02\x00\x03\x00\x04\x00": false,
		"\x00\x01\x00\x02\x00\x03":         false, // big-endian ones
		"a\x00\xe9\x00\t\x00":              true,  // "aé\t": Latin-1 and a tab
		// a little-endian line after the first, shifted by the NUL of
		// the previous line's '\n': "NodeName=节点" and "事务=1" (节
		// 82 82, 点 B9 70, 事 8B 4E, 务 A1 52)
		"\x00N\x00o\x00d\x00e\x00N\x00a\x00m\x00e\x00=\x00\x82\x82\xb9\x70": true,
		"\x00\x8b\x4e\xa1\x52=\x001\x00":                                    true,
	} {
		if got := Line(line); got != want {
			t.Errorf("Line(%q) = %v, want %v", line, got, want)
		}
	}
}
