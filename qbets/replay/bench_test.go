package replay

import (
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// BenchmarkReplaySDSCBlue replays every SDSC-BLUE queue with full QBETS
// trimming (trace already loaded; issue budget ≤ 2 s).
func BenchmarkReplaySDSCBlue(b *testing.B) {
	_, jobs, err := swf.ReadFile(tracetest.Path(b, tracetest.SDSCBlue))
	if err != nil {
		b.Fatal(err)
	}
	byQ, _ := Queues(jobs)
	for b.Loop() {
		for _, js := range byQ {
			if _, err := Replay(js, Config{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
