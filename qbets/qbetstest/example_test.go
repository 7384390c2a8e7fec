package qbetstest_test

import (
	"fmt"
	"testing"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/qbetstest"
)

// window, a user's change-point detector, trims to the minimum history
// after 3 consecutive misses.
type window struct{ min, run int }

func newWindow(minHistory int) qbets.Trimmer { return &window{min: minHistory} }

func (w *window) Observe(_ int64, miss bool) int {
	if !miss {
		w.run = 0
		return 0
	}
	if w.run++; w.run < 3 {
		return 0
	}
	w.run = 0
	return w.min
}

func (w *window) Reset() { w.run = 0 }

// checkWindow is window's conformance test, one line: a test of the
// user's calls it (qbetstest_test.go's TestWindowTrimmer does). It feeds
// the trimmer random waits and misses and fails t where it breaks what
// the Predictor needs of a Trimmer (qbetstest.Clusterer and
// qbetstest.Coverage check the other plug point and the bound).
func checkWindow(t *testing.T) { qbetstest.Trimmer(t, newWindow) }

// The user's change-point detector plugs into qbets.Config (Trimmer);
// checkWindow checked it. Here the default (the thesis's RunLength) and the
// window trimmer answer the same stationary feed. (This file holds no
// test, so that godoc shows it whole.)
func Example() {
	for _, cfg := range []qbets.Config{{}, {Trimmer: newWindow}} {
		p, _ := qbets.New(cfg)
		for i := range int64(500) {
			start := 1000 + i*10
			p.Submit(start - i%60)
			p.Observe(qbets.Observation{Submit: start - i%60, Start: start, Nodes: 1, Walltime: 600})
		}
		f := p.Forecast(qbets.Request{Nodes: 1, Walltime: 600})
		fmt.Println(f.Upper, f.OK, f.History)
	}
	// Output:
	// 57 true 500
	// 57 true 500
}
