package slurmfeed

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/batchq/batchq/qbets/karnak"
)

// FuzzCursor: a cursor file edited by hand or damaged is refused with an
// error, or, when it parses, the collector resumes from it and polls
// without a panic (before this change a negative probeNext, say, made
// the next probe round index out of range).
func FuzzCursor(f *testing.F) {
	// A real cursor after a few polls of the scenario, with pending
	// batches (the service down).
	dir := f.TempDir()
	path := filepath.Join(dir, "cursor.json")
	clk := &clock{t: t0 + 30}
	svc, err := karnak.New(nil, karnak.Config{Now: clk.unix})
	if err != nil {
		f.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		f.Fatal(err)
	}
	tp := &tapService{svc: svc, store: &karnak.MemStore{}}
	fs := scenario()
	fs.testOnly = func(string, int64, int64) ([]byte, error) {
		return []byte("sbatch: Job 0 to start at 1800000100 using 1 processors on nodes n1 in partition short\n"), nil
	}
	c, err := New(Config{System: "c1", Service: tp, Runner: fs, Cursor: path, Now: clk.now, Since: time.Hour, ProbeEvery: time.Minute})
	if err != nil {
		f.Fatal(err)
	}
	for i := range 4 {
		tp.down = i == 3
		c.Poll(context.Background()) //nolint:errcheck // the last one fails: pending batches
		clk.advance(30)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"version":1,"system":"c1","session":"s","probeNext":-1}`))
	f.Add([]byte(`{"version":1,"system":"c1","session":"s","jobs":{"1":null,"x":{"id":-5,"queue":"short","submitted":true}},"pending":[{"id":"b","events":[{"kind":"end","system":"c1","job":1,"time":-1}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := parseCursor(data, "fuzz", "c1")
		if err != nil {
			return
		}
		clk := &clock{t: t0 + 30}
		svc, err := karnak.New(nil, karnak.Config{Now: clk.unix})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Load(context.Background()); err != nil {
			t.Fatal(err)
		}
		cfg := Config{System: "c1", Service: svc, Runner: scenario(), Now: clk.now, ProbeEvery: time.Minute}
		cfg.fill()
		c := &Collector{cfg: cfg, st: st}
		for range 2 {
			c.Poll(context.Background()) //nolint:errcheck // errors are fine, panics are not
			clk.advance(70)
		}
		c.Report()
	})
}
