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
// Instructions (callgrind on -test.benchtime 1x, SDSC-BLUE, 22.5 MB of
// text): klauspost/compress's gzip 466 M, this inflater 213.5 M.
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
