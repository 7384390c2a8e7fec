package inflate

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkTraces decompresses each trace of the archive with
// compress/gzip and with the inflater (without its goroutine).
// Instructions per byte of text (callgrind on -test.benchtime 1x, less
// the 4.1 M of a run that decompresses nothing), klauspost/compress's
// gzip (before 53b57a6) and this inflater: KTH-SP2 18.7 and 8.9,
// SDSC-SP2 24.7 and 11.1, LANL-CM5 21.4 and 9.7, SDSC-BLUE 20.5 and 9.3
// (466 M and 213.5 M instructions in all).
func BenchmarkTraces(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(traceDir(), "*.swf.gz"))
	if len(paths) == 0 {
		b.Skip("no traces")
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		name := strings.SplitN(filepath.Base(p), "-", 3)
		short := name[0] + "-" + name[1]
		b.Run(short+"/compress-gzip", func(b *testing.B) {
			for b.Loop() {
				zr, err := gzip.NewReader(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, zr)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(n)
			}
		})
		b.Run(short+"/inflate", func(b *testing.B) {
			for b.Loop() {
				r, _, err := Prefix(bytes.NewReader(data), "x")
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, r)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(n)
			}
		})
	}
}
