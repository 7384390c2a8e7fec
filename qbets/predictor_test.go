package qbets

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

func feed(p *Predictor, waits []int64) {
	for i, w := range waits {
		p.Observe(Observation{Submit: int64(i), Start: int64(i) + w, Nodes: 1})
	}
}

func TestPredictIsOrderStatistic(t *testing.T) {
	p, _ := New(Config{NoTrim: true})
	waits := make([]int64, 100)
	for i := range waits {
		waits[i] = int64(100 - i) // 1..100 shuffled by order
	}
	feed(p, waits[:58])
	if _, ok := p.Predict(1, 0); ok {
		t.Fatal("bound with 58 observations")
	}
	feed(p, waits[58:])
	// n=100 → index 99 (spec §2.1), so the bound is the 99th smallest = 99.
	if b, ok := p.Predict(1, 0); !ok || b != 99 {
		t.Fatalf("Predict = %d, %v; want 99", b, ok)
	}
	// B(0.95) = 99 ≤ 99, and B(0.97) at n=100 is the max (100) per §2.7.
	if got := p.ProbWithin(1, 0, 99); got < 0.95 || got >= 0.97 {
		t.Fatalf("ProbWithin(99) = %v", got)
	}
	if got := p.ProbWithin(1, 0, 100); got != 0.97 {
		t.Fatalf("ProbWithin(100) = %v, spec max at n=100 is 0.97", got)
	}
	if got := p.ProbWithin(1, 0, 0); got != 0 {
		t.Fatalf("ProbWithin(0) = %v", got)
	}
}

func TestTrimAfterShift(t *testing.T) {
	p, _ := New(Config{})
	r := rand.New(rand.NewPCG(1, 1))
	waits := make([]int64, 0, 1100)
	for range 1000 {
		waits = append(waits, int64(r.ExpFloat64()*100))
	}
	for range 100 {
		waits = append(waits, 100000+int64(r.ExpFloat64()*100))
	}
	feed(p, waits)
	if p.Trims() == 0 || p.Len() >= 1100 || p.Len() < 59 {
		t.Fatalf("trims %d len %d", p.Trims(), p.Len())
	}
	if b, _ := p.Predict(1, 0); b < 100000 {
		t.Fatalf("bound %d did not follow the shift", b)
	}
}

func TestConcurrent(t *testing.T) {
	p, _ := New(Config{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := range 2000 {
			p.Observe(Observation{Submit: int64(i), Start: int64(i + i%97)})
		}
	}()
	go func() {
		defer wg.Done()
		for range 2000 {
			p.Predict(1, 0)
			p.ProbWithin(1, 0, 50)
		}
	}()
	wg.Wait()
}

func BenchmarkPredict100k(b *testing.B) {
	p, _ := New(Config{NoTrim: true})
	r := rand.New(rand.NewPCG(1, 1))
	for i := range 100000 {
		p.Observe(Observation{Submit: int64(i), Start: int64(i) + int64(r.ExpFloat64()*1000)})
	}
	b.ResetTimer()
	for b.Loop() {
		p.Predict(1, 0)
	}
}

func Example() {
	p, _ := New(Config{NoTrim: true}) // q = C = 0.95; a rising series would trigger trimming
	for i := range 200 {
		p.Observe(Observation{Submit: 0, Start: int64(i * 10)}) // waits 0..1990
	}
	b, ok := p.Predict(64, 7200)
	fmt.Println(b, ok, p.ProbWithin(64, 7200, 1990))
	// Output: 1950 true 0.98
}
