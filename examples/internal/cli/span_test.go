package cli

import (
	"strings"
	"testing"

	"github.com/batchq/batchq/swf"
)

// A span of 100 years passes; one second more, or a submit time of
// 2^63 − 1 beside 0, is refused; unknown submit times are not counted.
func TestSubmitSpan(t *testing.T) {
	for _, c := range []struct {
		submits []int64
		known   int
		refused bool
	}{
		{nil, 0, false},
		{[]int64{-1, -1}, 0, false},
		{[]int64{5, -1, 5 + maxSpan}, 2, false},
		{[]int64{5, 6 + maxSpan}, 2, true},
		{[]int64{0, 1<<63 - 1}, 2, true},
	} {
		jobs := make([]swf.Job, len(c.submits))
		for i, s := range c.submits {
			jobs[i].Submit = s
		}
		known, err := SubmitSpan(jobs)
		if known != c.known || (err != nil) != c.refused || err != nil && !strings.Contains(err.Error(), "more than 100 years") {
			t.Errorf("%v: %d known, %v; want %d, refused %v", c.submits, known, err, c.known, c.refused)
		}
	}
}
