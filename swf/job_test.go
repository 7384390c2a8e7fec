package swf_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/batchq/batchq/swf"
)

// NewJob is the line of -1s, and FieldName names the 18 fields.
func TestNewJobAndFieldName(t *testing.T) {
	var b bytes.Buffer
	w := swf.NewWriter(&b)
	j := swf.NewJob()
	if err := w.Write(&j); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	back, err := swf.NewReader(&b).ReadAll()
	if err != nil || len(back) != 1 || back[0] != j {
		t.Fatalf("read back %+v, %v; want %+v", back, err, j)
	}
	if swf.FieldName(0) != "job number" || swf.FieldName(17) != "think time" || swf.FieldName(18) != "" || swf.FieldName(-1) != "" {
		t.Error("FieldName")
	}
}

func ExampleNewJob() {
	j := swf.NewJob()
	j.ID, j.Submit, j.RunTime, j.ReqProcs, j.ReqTime = 1, 0, 3600, 16, 7200
	fmt.Println(j.Size(), j.Wait == swf.Unknown)
	// Output: 16 true
}

// A start past 2^63 − 1 is unknown: submit 2^62 and wait 2^62 gave the
// start −2^63, a time before every log.
func TestStartNoWrap(t *testing.T) {
	for _, c := range []struct{ submit, wait, want int64 }{
		{1 << 62, 1 << 62, swf.Unknown},
		{math.MaxInt64, 1, swf.Unknown},
		{1, math.MaxInt64, swf.Unknown},
		{math.MaxInt64 - 5, 5, math.MaxInt64},
		{0, math.MaxInt64, math.MaxInt64},
		{100, 20, 120},
		{-1, 20, swf.Unknown},
		{100, -1, swf.Unknown},
	} {
		j := swf.Job{Submit: c.submit, Wait: c.wait}
		if got := j.Start(); got != c.want {
			t.Errorf("submit %d, wait %d: start %d, want %d", c.submit, c.wait, got, c.want)
		}
	}
}
