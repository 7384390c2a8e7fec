package qbetstest_test

import (
	"testing"

	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/qbetstest"
)

func TestRunLength(t *testing.T) { qbetstest.Trimmer(t, qbets.RunLength) }

func TestBuiltinClusterers(t *testing.T) {
	for _, m := range []qbets.ClusterMode{qbets.ClusterFixedProcs, qbets.ClusterTwoLevel, qbets.ClusterNone,
		qbets.ClusterNodes, qbets.ClusterReqTime, qbets.ClusterNodeSeconds} {
		t.Run(m.String(), func(t *testing.T) { qbetstest.Clusterer(t, m) })
	}
}

func TestCoverage(t *testing.T) {
	t.Run("default", func(t *testing.T) { qbetstest.Coverage(t, qbets.Config{}) })
	if testing.Short() {
		return
	}
	t.Run("no trimming", func(t *testing.T) { qbetstest.Coverage(t, qbets.Config{NoTrim: true}) })
	t.Run("window", func(t *testing.T) { qbetstest.Coverage(t, qbets.Config{Trimmer: newWindow}) })
}

// A trimmer that keeps the minimum history after any run of 3 misses (the
// thesis's detector without the autocorrelation lookup) passes, and so
// does one that trims differently from the thesis: after every 2nd miss,
// to the last 10 waits (the Predictor raises that to its minimum).
func TestWindowTrimmer(t *testing.T) {
	checkWindow(t)
	qbetstest.Trimmer(t, func(int) qbets.Trimmer { return &everyOther{} })
}

// everyOther trims to 10 waits at every second miss.
type everyOther struct{ misses int }

func (e *everyOther) Observe(_ int64, miss bool) int {
	if miss {
		if e.misses++; e.misses%2 == 0 {
			return 10
		}
	}
	return 0
}

func (e *everyOther) Reset() { e.misses = 0 }
