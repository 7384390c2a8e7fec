package main

import (
	"bufio"
	"io"
)

// peeker is a buffered reader that can tell gzip input by its magic bytes.
type peeker struct{ *bufio.Reader }

func newPeeker(r io.Reader) peeker { return peeker{bufio.NewReaderSize(r, 64<<10)} }

func (p peeker) gzip() bool {
	b, _ := p.Peek(2)
	return len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b
}
