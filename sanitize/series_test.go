package sanitize

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// Reorder counts as swf.Stats.OutOfOrder does: the lines of partial
// executions (status 2, 3, 4), which repeat their job's submit time where
// the log puts each run, are not compared (job 1's two counted 2).
func TestReorderPartialLines(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 0, Status: 1}, {ID: 2, Submit: 100, Status: 1}, {ID: 1, Submit: 0, Status: 2},
		{ID: 1, Submit: 0, Status: 3}, {ID: 3, Submit: 200, Status: 1}, {ID: 4, Submit: 150, Status: 1}}
	if _, rep := Reorder(jobs); rep.OutOfOrder != 1 {
		t.Errorf("out of order %d, want 1 (job 4)", rep.OutOfOrder)
	}
}

func TestReorder(t *testing.T) {
	jobs := []swf.Job{{ID: 1, Submit: 10}, {ID: 2, Submit: 5}, {ID: 3, Submit: 10}, {ID: 2, Submit: 20}, {ID: 4, Submit: 1}, {ID: 2, Submit: 30}}
	got, rep := Reorder(jobs)
	ids := []int64{}
	for _, j := range got {
		ids = append(ids, j.ID)
	}
	if !reflect.DeepEqual(ids, []int64{4, 2, 1, 3, 2, 2}) {
		t.Errorf("order %v", ids)
	}
	if rep.OutOfOrder != 2 || rep.Moved != 4 {
		t.Errorf("report %+v", rep)
	}
	if len(rep.Duplicates) != 1 || rep.Duplicates[0].ID != 2 || !reflect.DeepEqual(rep.Duplicates[0].Indices, []int{1, 3, 5}) {
		t.Errorf("duplicates %+v", rep.Duplicates)
	}
	if jobs[1].ID != 2 || jobs[1].Submit != 5 {
		t.Error("input modified")
	}
}

// Jobs without a number (SWF's -1, or 0) are no duplicates of each
// other: the simulator numbers each (sched's id_made_up); a real number
// beside them still is.
func TestReorderNoNumberNoDuplicate(t *testing.T) {
	jobs := []swf.Job{{ID: -1, Submit: 1}, {ID: -1, Submit: 2}, {ID: 0, Submit: 3}, {ID: 0, Submit: 4}, {ID: 5, Submit: 5}, {ID: 5, Submit: 6}}
	_, rep := Reorder(jobs)
	if len(rep.Duplicates) != 1 || rep.Duplicates[0].ID != 5 || !reflect.DeepEqual(rep.Duplicates[0].Indices, []int{4, 5}) {
		t.Errorf("duplicates %+v, want job 5 at 4 and 5 only", rep.Duplicates)
	}
}

// The cleaned logs are already in submit order with unique job numbers.
func TestReorderRealLog(t *testing.T) {
	_, jobs, err := swf.ReadFile(tracetest.Path(t, tracetest.KTH))
	if err != nil {
		t.Fatal(err)
	}
	got, rep := Reorder(jobs)
	if rep.OutOfOrder != 0 || rep.Moved != 0 || len(rep.Duplicates) != 0 || !reflect.DeepEqual(got, jobs) {
		t.Errorf("KTH cln: %+v", rep)
	}
}

// Unknown submit times (-1) are not compared, as swf.Stats.OutOfOrder
// leaves them out (Reorder's doc says the two counts agree): in 100, -1,
// 200, -1, -1, 300, 250, -1, 50 two jobs are earlier than the known one
// before them (250 and 50). Each -1 after a known time was counted, and
// 50 after a -1 was not: Reorder said 4, the reader 2.
func TestReorderUnknownSubmits(t *testing.T) {
	var b strings.Builder
	for i, s := range []int64{100, -1, 200, -1, -1, 300, 250, -1, 50} {
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 60 -1 1 1 1 1 1 -1 -1 -1\n", i+1, s)
	}
	r := swf.NewReader(strings.NewReader(b.String()))
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	_, rep := Reorder(jobs)
	if st := r.Stats(); rep.OutOfOrder != 2 || st.OutOfOrder != rep.OutOfOrder {
		t.Errorf("Reorder's OutOfOrder %d, the reader's %d; want 2 both (250 after 300, 50 after 250)", rep.OutOfOrder, st.OutOfOrder)
	}
}
