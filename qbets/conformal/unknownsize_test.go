package conformal

import (
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// The per-log counts unknownSize's comment gives: the jobs of each log
// without a size (SWF's −1 or 0 in fields 5 and 8), all of which the
// default class puts in unknownSize. (They were pinned by no test.)
func TestUnknownSizeCounts(t *testing.T) {
	for name, want := range map[string]int{tracetest.LLNL: 4571, tracetest.CEACurie: 19, tracetest.LANLCM5: 3, tracetest.KTH: 1} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i := range jobs {
			if sizeClass(&jobs[i]) == unknownSize {
				n++
			}
		}
		if n != want {
			t.Errorf("%s: %d jobs in class unknownSize, the comment says %d", name, n, want)
		}
	}
}
