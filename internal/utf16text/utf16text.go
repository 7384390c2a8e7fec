// Package utf16text tells a line of UTF-16 text saved without a
// byte-order mark from UTF-8 text with NUL bytes in it, so that the
// readers of text files (sched/slurm's slurm.conf and shares files,
// swf/convert's inputs) give the iconv advice only where it helps: iconv
// from UTF-16 would garble a UTF-8 file with a stray NUL.
package utf16text

// Line reports whether line is UTF-16 text, ASCII mostly: a NUL beside
// every other byte, at even offsets alone (big-endian) or at odd ones
// alone (little-endian), at least a quarter of its bytes and two or more
// (UTF-16 of two characters), in a line of 4 bytes or more. One NUL in a
// short line is a stray one: swf/convert's sniff refused a whole log
// whose first line was "ab\x00c" as UTF-16 text. One byte beside each
// NUL is its character's low byte, so text (Text): little-endian binary
// numbers, "\x01\x00\x02\x00", have NULs at odd offsets alone too, and
// drew the iconv advice, which cannot make them a log. Either byte
// beside it, not the one of its own code unit by offset: a line after
// the first of a little-endian file starts with the NUL of the previous
// line's '\n' (a reader splits at the 0A byte), which shifts every pair
// by one, and its NULs then stand beside the next character's low byte
// too ("=\x00" before 节, 82 82: a CJK line drew "a damaged file?").
// A NUL at either end of the line is one of a split pair: no evidence.
func Line(line string) bool {
	var nul [2]int
	for i := 0; i < len(line); i++ {
		if line[i] == 0 {
			nul[i%2]++
			if i > 0 && i+1 < len(line) && !text(line[i-1]) && !text(line[i+1]) {
				return false
			}
		}
	}
	need := max(2, len(line)/2/2)
	return len(line) >= 4 && (nul[0] == 0 && nul[1] >= need || nul[1] == 0 && nul[0] >= need)
}

// text reports whether b can be a text character's low byte beside a NUL
// in UTF-16 (a character of U+0000 to U+00FF): printable ASCII, tab,
// line feed, carriage return or printable Latin-1; not the control bytes
// that binary data is made of (a NUL beside a NUL is a zero-filled
// block).
func text(b byte) bool {
	return b == '\t' || b == '\n' || b == '\r' || b >= 0x20 && b < 0x7f || b >= 0xa0
}
