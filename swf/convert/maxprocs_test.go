package convert

import (
	"strings"
	"testing"
)

// TestMaxProcsBound: Options.MaxProcs above 2^40 (convert -procs
// 9223372036854775807) is refused, as sched refuses the machine: it wrote
// a header MaxProcs of 2^63 − 1 that simulate, replay, forecast and
// estimates then turned down ("machine size ... above 2^40").
func TestMaxProcsBound(t *testing.T) {
	for _, p := range []int64{1<<40 + 1, 1<<63 - 1} {
		o := Options{MaxProcs: p}
		if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "above 2^40") {
			t.Errorf("MaxProcs %d: %v; want an error", p, err)
		}
	}
	o := Options{MaxProcs: 1 << 40}
	if err := o.Validate(); err != nil {
		t.Errorf("MaxProcs 2^40: %v", err)
	}
}
