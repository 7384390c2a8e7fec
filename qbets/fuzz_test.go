package qbets_test

import (
	"encoding/binary"
	"testing"

	"github.com/batchq/batchq/qbets"
)

// FuzzFeed drives a Predictor with an arbitrary stream of arrivals,
// starts and questions: nothing panics, a rejected event leaves the
// predictor usable, and at one confidence the upper bound never falls as
// the quantile rises.
func FuzzFeed(f *testing.F) {
	f.Add([]byte{0, 10, 1, 5, 20, 3, 2, 30, 1, 12, 40, 2})
	f.Add([]byte{1, 255, 255, 255, 255, 255, 255, 255, 127, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := qbets.New(qbets.Config{Levels: []qbets.Level{{Quantile: 0.5, Confidence: 0.95}, {Quantile: 0.9, Confidence: 0.95}}})
		if err != nil {
			t.Fatal(err)
		}
		next := func() int64 {
			v, n := binary.Varint(data)
			if n <= 0 {
				data = nil
				return 0
			}
			data = data[n:]
			return v
		}
		for len(data) > 0 && len(data) < 4096 {
			op := data[0] % 3
			data = data[1:]
			switch op {
			case 0:
				_ = p.Submit(next())
			case 1:
				submit, start := next(), next()
				_ = p.Observe(qbets.Observation{Submit: submit, Start: start, Nodes: int(next()), Walltime: next()})
			case 2:
				at, nodes, wall := next(), int(next()), next()
				prev, prevOK := int64(0), false
				for _, q := range []float64{0.5, 0.9, 0.95} {
					fc := p.Forecast(qbets.Request{Nodes: nodes, Walltime: wall, At: at, Quantile: q, Confidence: 0.95})
					if fc.OK && prevOK && fc.Upper < prev {
						t.Fatalf("upper bound %d at q %v below %d at a lower q", fc.Upper, q, prev)
					}
					prev, prevOK = fc.Upper, fc.OK
				}
			}
		}
	})
}
