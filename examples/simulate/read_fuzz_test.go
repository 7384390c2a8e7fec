package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// FuzzSniff: telling a trace's format never fails, and the reader it
// returns gives the input back byte for byte, gzip or not.
func FuzzSniff(f *testing.F) {
	f.Add([]byte(small))
	f.Add([]byte(podsCSV))
	f.Add([]byte("\xef\xbb\xbf\n\n name,cpu_milli\n"))
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(podsCSV))
	zw.Close()
	f.Add(z.Bytes())
	f.Add(z.Bytes()[:20])
	f.Fuzz(func(t *testing.T, in []byte) {
		format, r := sniff(bytes.NewReader(in))
		if format != formatSWF && format != formatAlibaba {
			t.Fatalf("format %q", format)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, in) {
			t.Fatalf("the input is not given back: %v", err)
		}
	})
}

// TestSniff: the first non-blank line decides, through gzip.
func TestSniff(t *testing.T) {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("\n  \n" + podsCSV))
	zw.Close()
	for _, c := range []struct {
		name, in, want string
	}{
		{"swf", small, formatSWF},
		{"pods", podsCSV, formatAlibaba},
		{"gzip pods", z.String(), formatAlibaba},
		{"empty", "", formatSWF},
		{"comma in an SWF comment", "; Note: a, b\nname,cpu_milli\n", formatSWF},
		{"CSV after blank lines", "\n\n name , x\n", formatAlibaba},
		{"swf comment first", "; Version: 2.2\nname,cpu_milli\n", formatSWF},
	} {
		if got, _ := sniff(bytes.NewReader([]byte(c.in))); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
