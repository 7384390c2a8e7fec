package swf_test

import (
	"bytes"
	"fmt"
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
