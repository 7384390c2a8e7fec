package karnak

import (
	"context"
	"testing"
)

// NewServiceWith is New and Load with the clock now (nil: the wall
// clock) and the settings o.
func NewServiceWith(st Store, now func() int64, o Config) (*Service, error) {
	o.Now = now
	s, err := New(st, o)
	if err != nil {
		return nil, err
	}
	return s, s.Load(context.Background())
}

// NewService is NewServiceWith the default settings.
func NewService(st Store, now func() int64) (*Service, error) {
	return NewServiceWith(st, now, Config{})
}

// ingested is a service at testNow with cfg, loaded and fed testEvents.
func ingested(t *testing.T, cfg Config) *Service {
	t.Helper()
	s, err := NewServiceWith(nil, func() int64 { return testNow }, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Ingest(testEvents()); err != nil {
		t.Fatal(err)
	}
	return s
}
