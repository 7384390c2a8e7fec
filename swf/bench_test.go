package swf_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// loadPlain returns SDSC-BLUE uncompressed, in memory, so that the plain
// benchmark measures parsing and not the disk.
func loadPlain(b *testing.B) []byte {
	return gunzip(b, tracetest.Path(b, tracetest.SDSCBlue))
}

func countJobs(b *testing.B, r *swf.Reader) int {
	n := 0
	for _, err := range r.All() {
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

// BenchmarkReadPlain reports jobs/s and MB/s parsing SDSC-BLUE from memory;
// allocs/op divided by the 243,306 jobs gives allocations per job. A job
// line is converted in one pass per field. Measured by hand (the package
// doc quotes the figures with their dates): SDSC-BLUE's 243k lines, 22.5
// MB, took 34–40 ms of CPU on one core on 2026-11-24 (about 6M jobs/s),
// 85 ms (2.9M jobs a CPU-second) on 2026-11-30 (go test -bench ReadPlain
// -cpu 1, on a shared 2-core machine at load average 9).
func BenchmarkReadPlain(b *testing.B) {
	data := loadPlain(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	jobs := 0
	for b.Loop() {
		jobs = countJobs(b, swf.NewReader(bytes.NewReader(data)))
	}
	b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkReadPlainCR is BenchmarkReadPlain with lone "\r" line ends (old
// Mac files), which must not be slower.
func BenchmarkReadPlainCR(b *testing.B) {
	data := bytes.ReplaceAll(loadPlain(b), []byte("\n"), []byte("\r"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	jobs := 0
	for b.Loop() {
		jobs = countJobs(b, swf.NewReader(bytes.NewReader(data)))
	}
	if jobs != 243306 {
		b.Fatalf("%d jobs, want 243306", jobs)
	}
	b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkReadGzip parses SDSC-BLUE from its .gz file.
func BenchmarkReadGzip(b *testing.B) {
	path := tracetest.Path(b, tracetest.SDSCBlue)
	b.ReportAllocs()
	jobs := 0
	for b.Loop() {
		f, err := swf.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		jobs = countJobs(b, f.Reader)
		f.Close()
	}
	b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkGunzipOnly is the floor for BenchmarkReadGzip: decompression
// alone.
func BenchmarkGunzipOnly(b *testing.B) {
	path := tracetest.Path(b, tracetest.SDSCBlue)
	for b.Loop() {
		f, _ := os.Open(path)
		zr, _ := gzip.NewReader(f)
		io.Copy(io.Discard, zr)
		f.Close()
	}
}

// BenchmarkParseJobKTH converts KTH-SP2's 28,476 job lines, in memory, by
// parseJob (parseFast, which takes them all) and by parseJobScan, the
// parser behind it: ns and, under callgrind, instructions a line.
//
//	go test -c -o /tmp/swf.test ./swf && cd swf
//	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
//	    --callgrind-out-file=/tmp/pj.out /tmp/swf.test \
//	    -test.run '^$' -test.bench 'ParseJobKTH/parseJob$' -test.benchtime 1x
//	callgrind_annotate --inclusive=yes /tmp/pj.out | grep -E 'parseFast|parseLine|parseJobScan'
func BenchmarkParseJobKTH(b *testing.B) {
	var lines [][]byte
	for line := range bytes.Lines(gunzip(b, tracetest.Path(b, tracetest.KTH))) {
		line = bytes.TrimLeft(bytes.TrimRight(line, "\r\n"), " \t")
		if len(line) > 0 && line[0] != ';' {
			lines = append(lines, line)
		}
	}
	for _, c := range []struct {
		name  string
		parse func([]byte, *swf.Job) *swf.ParseError
	}{{"parseJob", swf.ParseJob}, {"parseJobScan", swf.ParseJobScan}} {
		b.Run(c.name, func(b *testing.B) {
			var j swf.Job
			for b.Loop() {
				for _, line := range lines {
					if err := c.parse(line, &j); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(lines)), "ns/line")
		})
	}
}
