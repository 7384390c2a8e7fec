package slurmfeed

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/batchq/batchq/qbets/karnak"
)

// Every batch the collector writes is one the service takes: at most
// maxBatch events (its 20,000) and a body within its 4 MiB. The submits
// of a job array named with 256 bytes of '<' (which JSON escapes to six)
// made one batch of 1.7 KB an event, 16.9 MB for 10,000 (5 MB for the
// 3,000 here), a 413 the collector drops for good: every event lost.
func TestBatchesFitTheBody(t *testing.T) {
	svc, err := karnak.New(nil, karnak.Config{Rate: -1, Now: func() int64 { return t0 + 100 }})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(svc.Handler())
	defer srv.Close()
	cl := &Client{URL: srv.URL, HTTP: srv.Client()}
	name := strings.Repeat("<", 256)
	evs := []pending{{ev: karnak.Event{Kind: "queue", System: "c1", Time: t0, Queue: "short", Cores: 8, WallTime: 120}}}
	for i := range 3000 {
		evs = append(evs, pending{ev: karnak.Event{Kind: "submit", System: "c1", Job: int64(i + 1), Time: t0 + 1, Queue: "short",
			Cores: 2, WallTime: 60, User: "u", Project: "p", Name: name}})
	}
	c := &Collector{cfg: Config{System: "c1"}, st: &cursor{Session: "s"}}
	c.enqueue(evs)
	sent := 0
	for _, b := range c.st.Pending {
		ack, err := cl.IngestBatch(b.ID, b.Events)
		if err != nil {
			t.Fatalf("batch %s of %d events: %v", b.ID, len(b.Events), err)
		}
		sent += ack.Events
	}
	if sent != len(evs) || len(c.st.Pending) != 2 {
		t.Errorf("%d of %d events in %d batches, want all in 2 (5 MB: 3 MiB at most a batch)", sent, len(evs), len(c.st.Pending))
	}
}
