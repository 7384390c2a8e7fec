package karnak

import (
	"fmt"
	"slices"
	"sync"
)

// Record is one stored event, with what the service needs to rebuild its
// state from the log: the sequence number the store gave it, the client's
// batch id and the batch's digest (so that a retried batch is recognised
// after a restart), and, on a queue's first stored declaration, the
// service's saved state of the queue's QBETS predictor (State, from
// qbets.Predictor.MarshalBinary; nil = none) with the first event to
// feed it after a restart (Feed; 0 = every one). The service writes
// State and Feed with Rewrite when it prunes the store (retain.go); a
// store keeps them as opaque values.
type Record struct {
	Seq    int64  `json:"seq" xml:"seq"`
	Batch  string `json:"batch,omitempty" xml:"batch,omitempty"`
	Digest string `json:"digest,omitempty" xml:"digest,omitempty"`
	Feed   int64  `json:"feed,omitempty" xml:"feed,omitempty"`
	State  []byte `json:"state,omitempty" xml:"state,omitempty"`
	Event  Event  `json:"event" xml:"event"`
}

// Store is the durable event log the service is rebuilt from. The
// service calls it from one goroutine at a time (writes are serialized),
// but an implementation used elsewhere too must be safe for concurrent
// use. MemStore is the in-memory implementation; examples/qserve has one
// on SQLite. Package karnaktest checks an implementation.
//
// The log is append-only; the service's state is a function of it and is
// rebuilt from it by Load. The service deletes the events a restart no
// longer needs (it keeps those of the IBL bases, a week of statistics and
// the live jobs), saving each queue's QBETS predictor
// (qbets.Predictor.MarshalBinary) on the queue's declaration instead, so
// a restart restores it rather than replaying its history.
type Store interface {
	// Append stores recs in one transaction, all or none, and sets each
	// one's Seq: increasing, larger than every Seq stored before, never
	// 0. It returns only once the records are durable: the service
	// acknowledges a batch when Append returns nil.
	Append(recs []Record) error
	// Scan calls f, in Seq order, with every stored record of system
	// (every system when system is "") whose Seq is below before (every
	// one when before ≤ 0). An error from f stops the scan and is
	// returned.
	Scan(system string, before int64, f func(*Record) error) error
	// Rewrite deletes the records of system whose Seq is in del and
	// replaces the stored records of system that have the Seq of a record
	// in put by it, in one transaction.
	Rewrite(system string, del []int64, put []Record) error
}

// MemStore is a Store in memory: nothing survives the process. It is
// safe for concurrent use. The zero value is an empty store.
type MemStore struct {
	mu   sync.Mutex
	recs []Record // in Seq order
	last int64
}

// Append implements Store.
func (m *MemStore) Append(recs []Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := range recs {
		m.last++
		recs[i].Seq = m.last
		m.recs = append(m.recs, recs[i])
	}
	return nil
}

// Scan implements Store. f runs without the store's lock held, on a copy
// of the records.
func (m *MemStore) Scan(system string, before int64, f func(*Record) error) error {
	m.mu.Lock()
	var sel []Record
	for i := range m.recs {
		r := &m.recs[i]
		if before > 0 && r.Seq >= before {
			break
		}
		if system == "" || r.Event.System == system {
			sel = append(sel, *r)
		}
	}
	m.mu.Unlock()
	for i := range sel {
		if err := f(&sel[i]); err != nil {
			return err
		}
	}
	return nil
}

// Rewrite implements Store.
func (m *MemStore) Rewrite(system string, del []int64, put []Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range put {
		if p.Event.System != system {
			return fmt.Errorf("karnak: rewrite of %q puts a record of %q", system, p.Event.System)
		}
	}
	gone := make(map[int64]bool, len(del))
	for _, s := range del {
		gone[s] = true
	}
	repl := make(map[int64]*Record, len(put))
	for i := range put {
		repl[put[i].Seq] = &put[i]
	}
	m.recs = slices.DeleteFunc(m.recs, func(r Record) bool { return r.Event.System == system && gone[r.Seq] })
	for i := range m.recs {
		if p := repl[m.recs[i].Seq]; p != nil && m.recs[i].Event.System == system {
			m.recs[i] = *p
		}
	}
	return nil
}

// Len is the number of records held.
func (m *MemStore) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.recs)
}
