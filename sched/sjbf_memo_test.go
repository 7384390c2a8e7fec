package sched

import (
	"reflect"
	"testing"
)

// TestSJBFMemoWritesEveryField guards sjbf.go's memo write, which sets
// easyMemo field by field (for speed) rather than by a literal, so a field
// added to easyMemo would be silently left stale there: it fails when the
// struct's fields differ from the ones that write sets.
func TestSJBFMemoWritesEveryField(t *testing.T) {
	written := []string{"ok", "b", "safe", "epoch", "holder", "free", "shadow", "extra", "next"}
	typ := reflect.TypeOf(easyMemo{})
	var have []string
	for i := range typ.NumField() {
		have = append(have, typ.Field(i).Name)
	}
	if !reflect.DeepEqual(have, written) {
		t.Fatalf("easyMemo's fields are %v; sjbf.go's memo write sets %v: set the new field there", have, written)
	}
}
