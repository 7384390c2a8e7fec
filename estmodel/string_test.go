package estmodel

import (
	"fmt"
	"testing"
)

// FModel and PhiModel print as Modal does, a name of the model (with
// their parameters), not a bare struct.
func TestModelStrings(t *testing.T) {
	for _, c := range []struct {
		m    fmt.Stringer
		want string
	}{
		{Modal{}, "Tsafrir modal-model user estimates (package estmodel)"},
		{FModel{F: 1}, "f-model user estimates, f = 1, random (package estmodel)"},
		{FModel{F: 0.5, Deterministic: true, EMax: 64800}, "truncated f-model user estimates, f = 0.5, deterministic, E_max = 64800 s (package estmodel)"},
		{PhiModel{}, "Φ-model user estimates, Φ = 0.1 (package estmodel)"},
		{PhiModel{Phi: -1, EMax: 3600}, "Φ-model user estimates, Φ = 0, E_max = 3600 s (package estmodel)"},
	} {
		if got := fmt.Sprint(c.m); got != c.want {
			t.Errorf("%#v printed %q, want %q", c.m, got, c.want)
		}
	}
}
