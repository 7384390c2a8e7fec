package karnak

import "context"

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
