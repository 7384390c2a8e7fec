package qbets

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/batchq/batchq/internal/tracetest"
)

// The default answers on real logs (issue 18): on every shipped log with
// waits, Config{} gives a bound for ≥ 99% of the scored forecasts (causal
// replay, first 10% training), and the Binomial Method is correct
// (≥ 0.95) on the whole log and on every queue with ≥ 2000 jobs. The
// thesis's withholding (Config.Withhold) is replayed beside it and its
// refusal rate logged, as the table of the package doc.
func TestDefaultAnswersOnTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-log replays of every shipped trace")
	}
	type row struct {
		name           string
		jobs           int
		answered, corr float64
		wAnswered      float64
		wCorr          float64
	}
	var rows []row
	run := func(name string, js []tjob) row {
		d, _ := New(Config{})
		w, _ := New(Config{Withhold: true})
		s := replayJobs(d, js, len(js)/10)
		sw := replayJobs(w, js, len(js)/10)
		share := func(s replayScore) float64 { return 1 - float64(s.down+s.noHist)/float64(max(s.scored, 1)) }
		r := row{name, len(js), share(s), s.correctness(), share(sw), sw.correctness()}
		if r.answered < 0.99 {
			t.Errorf("%s: default answers %.4f of forecasts, want ≥ 0.99", name, r.answered)
		}
		if r.corr < 0.95 {
			t.Errorf("%s: default BM correctness %.4f < 0.95", name, r.corr)
		}
		if s.down != 0 {
			t.Errorf("%s: default withheld %d forecasts", name, s.down)
		}
		return r
	}
	seen := 0
	for _, tr := range tracetest.All {
		all, byQ := queueJobs(t, tr.Name)
		if len(all) == 0 {
			t.Logf("%s: no job with a known wait; not scored", tr.Name)
			continue
		}
		seen++
		short := tracetest.ShortName(tr.Name)
		rows = append(rows, run(short, all))
		if len(byQ) < 2 {
			continue // one queue: the whole log is the queue
		}
		for _, q := range slices.Sorted(maps.Keys(byQ)) {
			rows = append(rows, run(fmt.Sprintf("%s/%d", short, q), byQ[q]))
		}
	}
	if seen == 0 {
		t.Fatal("no shipped log has waits")
	}
	var b strings.Builder
	b.WriteString("\nlog or queue (≥ 2000 jobs)   jobs     Config{} answered / correct   Withhold answered / correct\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-28s %7d  %6.2f%% / %.3f               %6.2f%% / %.3f\n", r.name, r.jobs, 100*r.answered, r.corr, 100*r.wAnswered, r.wCorr)
	}
	t.Log(b.String())
}
