// Package karnaktest checks a karnak.Store implementation against what
// the service relies on: Append sets increasing sequence numbers and is
// seen by Scan in order, every field of the events kept; Scan filters by
// system and by sequence number; Rewrite deletes and replaces the records
// of one system only, State bytes and all. Call it from a test, with a
// function that opens an empty store:
//
//	func TestMyStore(t *testing.T) {
//		karnaktest.Store(t, func(t *testing.T) karnak.Store { return openMyStore(t.TempDir()) })
//	}
//
// It takes a *testing.T, so it has no runnable example; karnak's own tests
// run it on MemStore and examples/qserve's on its SQLite store.
package karnaktest

import (
	"fmt"
	"testing"

	"github.com/batchq/batchq/qbets/karnak"
)

// Store runs the checks on an empty store made by open.
func Store(t *testing.T, open func(t *testing.T) karnak.Store) {
	t.Helper()
	st := open(t)
	ev := func(sys string, job int64) karnak.Event {
		return karnak.Event{Kind: "submit", System: sys, Job: job, Time: job, Queue: "q", Cores: 1}
	}
	var recs []karnak.Record
	for i := int64(1); i <= 6; i++ {
		sys := "a"
		if i%2 == 0 {
			sys = "b"
		}
		recs = append(recs, karnak.Record{Event: ev(sys, i), Batch: "x", Digest: "d"})
	}
	// Every field of every kind of event is kept: the last one is a
	// scheduler's estimate, with its Start.
	recs[5].Event = karnak.Event{Kind: "estimate", System: "b", Time: 6, Queue: "q", Cores: 2, WallTime: 60, Start: 99}
	if err := st.Append(recs[:4]); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(recs[4:]); err != nil {
		t.Fatal(err)
	}
	for i := range recs {
		if recs[i].Seq <= 0 || i > 0 && recs[i].Seq <= recs[i-1].Seq {
			t.Fatalf("Append: sequence numbers %v, want positive and increasing", seqs(recs))
		}
	}
	scan := func(sys string, before int64) []karnak.Record {
		t.Helper()
		var out []karnak.Record
		if err := st.Scan(sys, before, func(r *karnak.Record) error { out = append(out, *r); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := scan("", 0); fmt.Sprint(got) != fmt.Sprint(recs) {
		t.Fatalf("Scan all:\n got %v\nwant %v", got, recs)
	}
	if got := scan("a", recs[4].Seq); fmt.Sprint(got) != fmt.Sprint([]karnak.Record{recs[0], recs[2]}) {
		t.Fatalf("Scan(a, before the 5th): %v", got)
	}
	put := recs[2]
	put.Feed = 99
	put.State = []byte{0, 1, 2, 255} // opaque bytes, kept as they are
	if err := st.Rewrite("a", []int64{recs[0].Seq, recs[1].Seq}, []karnak.Record{put}); err != nil {
		t.Fatal(err)
	}
	// recs[1] is of system b: not deleted by a rewrite of a.
	want := []karnak.Record{recs[1], put, recs[3], recs[4], recs[5]}
	if got := scan("", 0); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("after Rewrite:\n got %v\nwant %v", got, want)
	}
	more := []karnak.Record{{Event: ev("a", 7)}}
	if err := st.Append(more); err != nil {
		t.Fatal(err)
	}
	if more[0].Seq <= recs[5].Seq {
		t.Fatalf("Append after Rewrite: seq %d, want > %d", more[0].Seq, recs[5].Seq)
	}
}

func seqs(rs []karnak.Record) []int64 {
	out := make([]int64, len(rs))
	for i := range rs {
		out[i] = rs[i].Seq
	}
	return out
}
