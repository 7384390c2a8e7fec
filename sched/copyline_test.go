package sched

import (
	"reflect"
	"testing"
	"unsafe"

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

// TestActivateResetsLive checks that activate, which writes a recycled
// job's jobLive field by field, leaves none of its last job's state.
func TestActivateResetsLive(t *testing.T) {
	s, err := New(Config{MachineSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	k, _, ok := s.admit(&swf.Job{ID: 1, Submit: 5, RunTime: 30, AllocProcs: 2, ReqProcs: 2, ReqTime: 60}, 0)
	if !ok {
		t.Fatal("admit refused the job")
	}
	// The bytes below would be a bad pointer for the collector: a field
	// with one needs its own check here.
	for _, f := range reflect.VisibleFields(reflect.TypeFor[jobLive]()) {
		switch f.Type.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int32, reflect.Int64, reflect.Float64, reflect.Uint8:
		default:
			t.Fatalf("jobLive.%s is a %s: fill it apart from the bytes", f.Name, f.Type)
		}
	}
	old := new(Job)
	// Every byte of the last job's state set.
	b := unsafe.Slice((*byte)(unsafe.Pointer(&old.jobLive)), unsafe.Sizeof(old.jobLive))
	for i := range b {
		b[i] = 0x5b
	}
	s.spare = append(s.spare, old)
	jb := s.activate(k, 5)
	want := jobLive{idx: int(k), n: 2, r: 30, firstRes: -1, res: -1, start: -1, end: -1}
	if jb != old || jb.jobLive != want {
		t.Fatalf("activate: %+v, want %+v", jb.jobLive, want)
	}
}
