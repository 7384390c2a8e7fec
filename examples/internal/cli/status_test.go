package cli

import (
	"fmt"
	"strings"
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

// Past the 64 values the reader splits by value, the lines of further
// values are said: the list summed to 64 of a log's 71 such lines, the
// 7 others without a word.
func TestOtherStatusFurtherValues(t *testing.T) {
	var b strings.Builder
	for i := range 71 {
		fmt.Fprintf(&b, "%d %d 0 100 4 -1 -1 4 100 -1 %d 1 1 1 1 -1 -1 -1\n", i+1, 10*i, 100+i)
	}
	r := swf.NewReader(strings.NewReader(b.String()))
	if _, err := r.ReadAll(); err != nil {
		t.Fatal(err)
	}
	o := OtherStatusOf(r.Stats())
	if got := o.Note(); o.Lines != 71 || len(o.ByValue) != 64 || !strings.HasSuffix(got, ", 163: 1, 7 lines of further values") {
		t.Errorf("%d lines, %d values: Note() = %q, want it to end in \", 163: 1, 7 lines of further values\"", o.Lines, len(o.ByValue), got)
	}
}
