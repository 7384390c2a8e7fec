package karnak

import (
	"strings"
	"testing"
)

// ReplayEvents of no events is an error naming the system: it indexed
// the first event before looking (a panic, index out of range).
func TestReplayEventsNone(t *testing.T) {
	s, err := NewService(&MemStore{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, evs := range [][]Event{nil, {}} {
		err := s.ReplayEvents(t.Context(), evs, "s1", 1, func(string, ...any) {})
		if err == nil || !strings.Contains(err.Error(), "s1") {
			t.Fatalf("ReplayEvents(%v) = %v, want an error naming s1", evs, err)
		}
	}
}
