package cli

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// The note lists the values in value order, as swfstat did; simulate's
// "N×V" list was sorted as text ("10×-4" before "2×-2").
func TestOtherStatusNote(t *testing.T) {
	o := OtherStatusOf(swf.Stats{OtherStatus: 13, OtherStatusCounts: map[swf.Status]int{6: 1, -2: 2, -4: 10}})
	want := "13 job lines with a status outside the SWF standard -1..5 (kept and simulated): -4: 10, -2: 2, 6: 1"
	if got := o.Note(); got != want {
		t.Errorf("Note() = %q, want %q", got, want)
	}
	if k := o.Keys(); len(k) != 3 || k["-4"] != 10 || k["6"] != 1 {
		t.Errorf("Keys() = %v", k)
	}
	if n := OtherStatusOf(swf.Stats{}).Note(); n != "" {
		t.Errorf("no such line: Note() = %q, want none", n)
	}
}
