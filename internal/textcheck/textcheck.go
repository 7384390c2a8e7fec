// Package textcheck tells binary data from text in a line read as
// text: a log's readers (examples/internal/cli, swf/convert's sniff)
// then say "binary data, not a text log" of the wrong file given (a PNG,
// a zip, a database), where a malformed line would draw the advice to
// skip it, which cannot make it a log.
package textcheck

import "strings"

// FirstLine reports whether v, a file's first line or the first field of
// it, is binary (Binary) or opens with the signature of a binary file
// type whose first line or field is otherwise letters: a PNG's ("\x89PNG",
// whose 0x89 is a character in Windows-1252 and ISO 8859-1 alike), a
// PDF's ("%PDF-"), a GIF's ("GIF87a", "GIF89a"), or an SQLite
// database's ("SQLite format 3\x00", of which an SWF reader's first field
// is "SQLite" alone) or a bzip2 stream's ("BZh" and a digit, then its first
// block's "1AY&SY": the random bytes after it have no control byte before a
// space one time in about 20), which no log's first line or field is.
func FirstLine(v string) bool {
	for _, sig := range [...]string{"\x89PNG", "%PDF-", "GIF87a", "GIF89a", "SQLite format 3\x00"} {
		if strings.HasPrefix(v, sig) {
			return true
		}
	}
	bzip2 := len(v) >= 10 && v[:3] == "BZh" && '1' <= v[3] && v[3] <= '9' && v[4:10] == "1AY&SY"
	return v == "SQLite" || bzip2 || Binary(v)
}

// Binary reports whether v, text read as a line or a field of one, holds
// bytes that text does not: a control byte (not tab, line feed, vertical
// tab, form feed or carriage return) or two NULs in a row. UTF-16 text,
// whose NULs stand one beside each ASCII character, has neither; binary
// numbers (1, 2, 3 in 16 bits: "\x01\x00\x02\x00\x03\x00") or a
// zero-filled block has. A byte 0x80 to 0x9f outside a UTF-8 character
// is no mark of binary: Windows-1252 text prints it (curly quotes, dashes,
// the euro sign), and a log whose header note or job name holds one is
// text (a PBS log with one in its first record was refused as binary).
func Binary(v string) bool {
	for i := 0; i < len(v); i++ {
		switch b := v[i]; {
		case b == 0 && i+1 < len(v) && v[i+1] == 0:
			return true
		case b != 0 && b < 0x20 && (b < '\t' || b > '\r'), b == 0x7f:
			return true
		}
	}
	return false
}
