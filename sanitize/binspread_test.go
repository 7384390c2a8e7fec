package sanitize

import (
	"fmt"
	"testing"

	"github.com/batchq/batchq/internal/activity"

	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/swf"
)

// The spread of normal bins by bin width, which FlurryConfig's doc and
// examples/flurries/README.md quote to explain why the threshold is a
// quantile and not S30's multiple of the median: the 90th percentile over
// the median of the all-user jobs (and processes) per bin. It asserts the
// property the argument rests on: the spread grows as the bin shrinks.
func TestBinSpread(t *testing.T) {
	if testing.Short() {
		t.Skip("reads four logs")
	}
	widths := []struct {
		name string
		bin  int64
	}{{"week", week}, {"day", 24 * 3600}, {"6 h", 6 * 3600}}
	for _, name := range []string{tracetest.CTC, tracetest.KTH, tracetest.SDSCSP2, tracetest.SDSCBlue} {
		_, jobs, err := swf.ReadFile(tracetest.Path(t, name))
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("%-30s", name)
		prev := 0.0
		for _, w := range widths {
			tot, err := activity.Totals(jobs, w.bin)
			if err != nil {
				t.Fatal(err)
			}
			jobsOf := func(a activity.Row) float64 { return float64(a.Jobs) }
			procsOf := func(a activity.Row) float64 { return float64(a.Procs) }
			rj := quantileOf(tot, 0.9, jobsOf) / quantileOf(tot, 0.5, jobsOf)
			rp := quantileOf(tot, 0.9, procsOf) / quantileOf(tot, 0.5, procsOf)
			line += fmt.Sprintf("  %s q90/median jobs %.2f procs %.2f", w.name, rj, rp)
			if rj <= prev {
				t.Errorf("%s: %s spread %.2f not above the wider bin's %.2f", name, w.name, rj, prev)
			}
			prev = rj
		}
		t.Log(line)
	}
}
