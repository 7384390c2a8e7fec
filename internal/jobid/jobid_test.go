package jobid

import (
	"math"
	"strconv"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A made-up number names its line, is above every real one, and is no
// "missing" marker; it never wraps.
func TestMadeUp(t *testing.T) {
	if got := strconv.FormatInt(MadeUp(7), 10); got != "1000000000000000007" {
		t.Errorf("line 7: %s", got)
	}
	for _, id := range []int64{swf.Unknown, 0, -5} {
		if !Missing(id) {
			t.Errorf("%d is a job number", id)
		}
	}
	if Missing(1) || Missing(MadeUp(1)) {
		t.Error("1 or a made-up number counted as missing")
	}
	if MadeUp(math.MaxInt64) != math.MaxInt64 || MadeUp(math.MaxInt64-Base) != math.MaxInt64 {
		t.Error("wraps past 2^63 − 1")
	}
}
