package cli

import (
	"testing"

	"github.com/batchq/batchq/swf"
)

// The jobs of partial lines only are those whose number no other line
// has, before or after them, in rising runs, gaps or out of order.
func TestPartialOnly(t *testing.T) {
	var p PartialOnly
	line := func(id int64, st swf.Status) {
		j := swf.NewJob()
		j.ID, j.Status = id, st
		p.Add(&j)
	}
	line(5, 2) // before its summary line (below)
	for id := int64(1); id <= 3; id++ {
		line(id, 1)
	}
	line(2, 3)  // after its summary line
	line(4, 2)  // partial only, in the gap before 7
	line(4, 4)  // (one job, two lines)
	line(7, 0)  // a second run
	line(5, 5)  // out of order: 5's summary line
	line(9, 3)  // partial only, past every number
	line(0, 2)  // no number: no job of its own
	line(-1, 3) // (SWF's -1)
	line(8, 1)
	line(6, 2) // partial only, between runs 1-3, 7-8 and the 5 out of order
	if got := p.Jobs(); got != 3 {
		t.Errorf("Jobs() = %d, want 3 (4, 6, 9)", got)
	}
	var none PartialOnly
	if none.Jobs() != 0 {
		t.Error("an empty log has partial-only jobs")
	}
}
