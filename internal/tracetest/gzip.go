package tracetest

import (
	"bytes"
	"compress/gzip"
	"testing"
)

// StoredGzip is text as one gzip member of stored (not compressed)
// deflate blocks, so that a byte of the text is a byte of the data
// whatever the Go version's compressor: the tests of a damaged stream
// damage a byte of the text.
func StoredGzip(tb testing.TB, text []byte) []byte {
	tb.Helper()
	var z bytes.Buffer
	zw, err := gzip.NewWriterLevel(&z, gzip.NoCompression)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := zw.Write(text); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return z.Bytes()
}

// DamageStored returns StoredGzip(text) with the first old at or after
// the start of text's line number line (from 1) replaced by new, as
// long: the text inflates with new in it, and the member's checksum then
// fails.
func DamageStored(tb testing.TB, text []byte, line int, old, new string) []byte {
	tb.Helper()
	at := 0
	for range line - 1 {
		at += bytes.IndexByte(text[at:], '\n') + 1
	}
	k := bytes.Index(text[at:], []byte(old))
	if k < 0 || len(new) != len(old) {
		tb.Fatalf("line %d has no %q, or %q is not as long", line, old, new)
	}
	at += k
	gz := StoredGzip(tb, text)
	i := bytes.Index(gz, text[at:min(at+64, len(text))])
	if i < 0 {
		tb.Fatal("the text is not stored in the gzip data")
	}
	copy(gz[i:], new)
	return gz
}
