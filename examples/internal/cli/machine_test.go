package cli

import (
	"testing"

	"github.com/batchq/batchq/sched"
)

// MaxSize is sched's bound, not a second one: a machine of MaxSize
// processors runs, one more is refused by both.
func TestMaxSizeIsSched(t *testing.T) {
	for _, size := range []int64{1, MaxSize, MaxSize + 1, 1<<63 - 1} {
		schedErr := sched.Presets()[0].New(size).Validate()
		ours := CheckMachine(size)
		if (schedErr == nil) != (ours == nil) {
			t.Errorf("size %d: sched says %v, CheckMachine %v", size, schedErr, ours)
		}
	}
}
