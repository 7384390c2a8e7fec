package cli

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Printable is s when it is printable UTF-8, else s quoted with escapes:
// text read from an input (a header's Computer, a sacct State) went to the
// terminal raw, so that "\x1b]0;...\a" retitled the window.
func Printable(s string) string {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
