// Package textclip makes text a client or a log line sent safe to quote:
// on one line, and at most so many bytes. It is shared by karnak's
// errors and internal-error log and by the commands' bounded server
// error log (examples/internal/errlog), which had each a copy.
package textclip

import "strings"

// OneLine is s with its line ends and other control characters (C0, DEL
// and C1) as spaces: a cause of many lines is one line of a log, and no
// quoted text writes a line a reader would take for the program's own.
func OneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			return ' '
		}
		return r
	}, s)
}

// Clip shortens s to at most n bytes, on a rune boundary, and marks the
// cut with "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xc0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}
