package sched

import (
	"reflect"
	"testing"

	"github.com/batchq/batchq/swf"
)

// TestCopyLine checks that copyLine copies every field of swf.Job (a
// field added to swf.Job and not to copyLine fails here).
func TestCopyLine(t *testing.T) {
	var src, dst swf.Job
	v := reflect.ValueOf(&src).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Float64:
			f.SetFloat(float64(i) + 0.5)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			t.Fatalf("swf.Job field %s of kind %v: teach copyLine and this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	dst.Demand = &swf.Demand{}
	copyLine(&dst, &src)
	if dst != src {
		t.Fatalf("copyLine: %+v, want %+v", dst, src)
	}
}
