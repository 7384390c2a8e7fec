package qbets_test

import (
	"errors"
	"testing"

	"github.com/batchq/batchq/qbets"
)

// The outcomes a caller branches on are typed: a rejected observation
// leaves the Predictor as it was, an unusable state says so.
func TestTypedErrors(t *testing.T) {
	p, err := qbets.New(qbets.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Observe(qbets.Observation{Submit: 0, Start: 100, Nodes: 1}); err != nil {
		t.Fatal(err)
	}
	for _, o := range []qbets.Observation{
		{Submit: 0, Start: 50, Nodes: 1},   // before the previous start
		{Submit: -1, Start: 200, Nodes: 1}, // negative submit
		{Submit: 300, Start: 200, Nodes: 1},
		{Submit: 0, Start: 200, Nodes: -1},
	} {
		if err := p.Observe(o); !errors.Is(err, qbets.ErrRejected) {
			t.Errorf("Observe(%+v) = %v, want ErrRejected", o, err)
		}
	}
	if err := p.Submit(-5); !errors.Is(err, qbets.ErrRejected) {
		t.Errorf("Submit(-5) = %v, want ErrRejected", err)
	}
	if got := p.Stats().Releases; got != 1 {
		t.Errorf("%d releases recorded, want 1", got)
	}
	state, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	other, _ := qbets.New(qbets.Config{MaxHistory: 5000})
	for name, c := range map[string]struct {
		p *qbets.Predictor
		b []byte
	}{"garbage": {p, []byte("not a state")}, "truncated": {p, state[:len(state)-3]}, "other config": {other, state}} {
		if err := c.p.UnmarshalBinary(c.b); !errors.Is(err, qbets.ErrBadState) {
			t.Errorf("%s: UnmarshalBinary = %v, want ErrBadState", name, err)
		}
	}
}

// savedTrimmer is a Trimmer whose saved state cannot be read back: its
// own error must still say ErrBadState, as the sentinel's doc promises.
type savedTrimmer struct{}

func (savedTrimmer) Observe(int64, bool) int         { return 0 }
func (savedTrimmer) Reset()                          {}
func (savedTrimmer) MarshalBinary() ([]byte, error)  { return []byte{1}, nil }
func (*savedTrimmer) UnmarshalBinary(b []byte) error { return errors.New("unreadable") }

func TestTrimmerStateErrorIsBadState(t *testing.T) {
	cfg := qbets.Config{Trimmer: func(int) qbets.Trimmer { return &savedTrimmer{} }}
	p, err := qbets.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if err := p.Observe(qbets.Observation{Submit: int64(i), Start: int64(2 * i), Nodes: 1}); err != nil {
			t.Fatal(err)
		}
	}
	state, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	q, _ := qbets.New(cfg)
	if err := q.UnmarshalBinary(state); !errors.Is(err, qbets.ErrBadState) {
		t.Errorf("UnmarshalBinary = %v, want ErrBadState", err)
	}
}
