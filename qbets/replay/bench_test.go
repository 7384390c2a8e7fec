package replay

import (
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// BenchmarkReplaySDSCBlue replays every SDSC-BLUE queue with full QBETS
// (trimming, clustering every 1000 arrivals, availability; BM only; trace
// already loaded; issue budget ≤ 2 s per full replay).
func BenchmarkReplaySDSCBlue(b *testing.B) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	byQ, _ := Queues(jobs)
	n := 0
	for b.Loop() {
		for _, js := range byQ {
			if _, err := Replay(js, Config{}); err != nil {
				b.Fatal(err)
			}
			n += len(js)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkReplaySDSCBlueComparators adds the three comparators (Table 4.2
// with every method).
func BenchmarkReplaySDSCBlueComparators(b *testing.B) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	byQ, _ := Queues(jobs)
	for b.Loop() {
		for _, js := range byQ {
			if _, err := Replay(js, Config{Comparators: true}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
