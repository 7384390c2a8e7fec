package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/batchq/batchq/examples/internal/readme"
	"github.com/batchq/batchq/internal/tracetest"
)

// The README's output block, tables and the sentences quoting them,
// generated from runs of the command and checked by TestReadme.

// realLog is one real log of the README's tables.
type realLog struct {
	label   string // the table's first column
	trace   string // tracetest name
	machine int64  // -machine; 0: the header's
	// thesisWait and thesisBSLD are Tsafrir's Table 4.3 (minutes, bounded
	// slowdown) for EASY, EASY+, EASY++ and PERFECT++, per-event passes.
	thesisWait, thesisBSLD [4]float64
}

var realLogs = []realLog{
	{"SDSC-SP2 (128)", tracetest.SDSCSP2, 0, [4]float64{363, 326, 327, 278}, [4]float64{99, 86, 70, 58}},
	{"CTC (`-machine 512`)", tracetest.CTC, 512, [4]float64{21, 16, 14, 19}, [4]float64{4.6, 3.3, 2.9, 2.8}},
	{"KTH (100)", tracetest.KTH, 0, [4]float64{114, 96, 95, 91}, [4]float64{90, 65, 57, 50}},
	{"SDSC-BLUE (1152)", tracetest.SDSCBlue, 0, [4]float64{130, 102, 87, 87}, [4]float64{35, 26, 19, 13}},
}

// otherLogs are the small logs the README sums up in a sentence.
var otherLogs = []string{tracetest.OSC, tracetest.NASA, tracetest.LLNL}

// short is a log's name without the trace details ("SDSC-SP2").
func short(label string) string { return strings.Fields(label)[0] }

// readmeRun runs the command's computation on the given options.
func readmeRun(o options) (*result, error) {
	res, _, err := execute(context.Background(), o, io.Discard)
	return res, err
}

// defaultBlock is the default run's report as the README shows it (no
// run time: it differs from run to run).
func defaultBlock(r *result) []byte {
	var b bytes.Buffer
	fmt.Fprintln(&b, "```")
	report(&b, r, nil)
	fmt.Fprintln(&b, "```")
	return b.Bytes()
}

func pct(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

// synthReading is the sentence on the synthetic week: its bounds, those of
// seeds 2–5, and the schedulers.
func synthReading(def *result, seeds []*result, load float64) []byte {
	held := func(rs []*result, ms ...int) []float64 {
		var vs []float64
		for _, r := range rs {
			for _, m := range ms {
				vs = append(vs, r.q.scores[m].Correctness())
			}
		}
		return vs
	}
	all := []*result{def}
	easy, plus := def.sims["EASY"].Summary, def.sims["EASY+"].Summary
	var b bytes.Buffer
	fmt.Fprintf(&b, "The 0.95-quantile bounds hold for %s%% of the jobs here with and without trimming, %s%% with full QBETS (seeds 2–5: %s%% and %s%%). EASY's estimate accuracy is %.0f%%, and user-history prediction (EASY+) changes its mean wait by %+.0f%%. Utilization is %.2f against the target offered load of %.2f.\n",
		readme.Span("%.1f", scale(held(all, mTrim, mFull))), readme.Span("%.1f", scale(held(all, mQBETS))),
		readme.Span("%.0f", scale(held(seeds, mTrim, mFull))), readme.Span("%.0f", scale(held(seeds, mQBETS))),
		100*easy.Accuracy, 100*(plus.MeanWait/easy.MeanWait-1), easy.Utilization, load)
	return b.Bytes()
}

func scale(vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = 100 * v
	}
	return out
}

// minutes prints a mean wait in minutes as the README does: three
// significant digits.
func minutes(s float64) string {
	m := s / 60
	if m >= 100 {
		return fmt.Sprintf("%.0f", m)
	}
	return fmt.Sprintf("%.1f", m)
}

// realTables are Tsafrir's Table 4.3 beside ours and the QBETS table on
// the real logs (runs in realLogs order), and the sentences quoting them.
func realTables(runs []*result) (table43, qbetsTable, reading []byte) {
	var b bytes.Buffer
	fmt.Fprintln(&b, "| log | EASY | EASY+ | EASY++ | PERFECT++ |")
	fmt.Fprintln(&b, "|---|---|---|---|---|")
	for i, l := range realLogs {
		r := runs[i]
		fmt.Fprintf(&b, "| %s wait |", l.label)
		for k, v := range variants {
			fmt.Fprintf(&b, " %s (%g) |", minutes(r.sims[v].Summary.MeanWait), l.thesisWait[k])
		}
		fmt.Fprintf(&b, "\n| %s bsld |", short(l.label))
		for k, v := range variants {
			fmt.Fprintf(&b, " %.1f (%g) |", r.sims[v].Summary.MeanBSLD, l.thesisBSLD[k])
		}
		fmt.Fprintln(&b)
	}
	table43 = bytes.Clone(b.Bytes())
	b.Reset()
	fmt.Fprintln(&b, "| log | full QBETS | BM + trimming | BM, full history | bounds given by full QBETS (of the scored jobs) |")
	fmt.Fprintln(&b, "|---|---|---|---|---|")
	for i, l := range realLogs {
		q := runs[i].q
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s of %s |\n", short(l.label), pct(q.scores[mQBETS].Correctness()),
			pct(q.scores[mTrim].Correctness()), pct(q.scores[mFull].Correctness()),
			readme.Thousands(q.scores[mQBETS].Answered()), readme.Thousands(q.scores[mQBETS].Scored))
	}
	qbetsTable = bytes.Clone(b.Bytes())
	b.Reset()
	var medians, below, plans []string
	for i, l := range realLogs {
		q := runs[i].q
		medians = append(medians, fmt.Sprintf("%s %s vs %s", short(l.label), dur(median(q.bounds[mQBETS][q.train:])), dur(median(q.bounds[mTrim][q.train:]))))
		if q.scores[mFull].Correctness() < 0.95 {
			below = append(below, short(l.label))
		}
		plans = append(plans, short(l.label)+" "+planOutcome(&q.plan))
	}
	fmt.Fprintf(&b, "- Median bound, full QBETS vs the single trimmed history: %s.\n", strings.Join(medians, ", "))
	fmt.Fprintf(&b, "- The binomial method on the full history holds below 95%% on: %s.\n", orNone(below))
	fmt.Fprintf(&b, "- VARQ plans, carried out under EASY: %s.\n", strings.Join(plans, "; "))
	sp := runs[0].q.plan
	if len(sp.traj) > 0 && sp.plan.Possible {
		lo, hi := waitWindow(runs[0].q)
		jobs := runs[0].q.jobs
		fmt.Fprintf(&b, "- SDSC-SP2's figures: the waits figure shows jobs %s–%s (days %d–%d); the trajectory falls from %.2f to %.2f and the plan submits at +%s.\n",
			readme.Thousands(lo+1), readme.Thousands(hi), jobs[lo].Submit/86400, jobs[hi-1].Submit/86400,
			sp.traj[0].Prob, sp.traj[len(sp.traj)-1].Prob, dur(float64(sp.plan.Submit-sp.now)))
	}
	reading = b.Bytes()
	return table43, qbetsTable, reading
}

// planOutcome sums up a VARQ plan and its check in a few words.
func planOutcome(p *planResult) string {
	switch {
	case !p.plan.Possible:
		return "NOT_POSSIBLE"
	case !p.checked:
		return fmt.Sprintf("predicted %.2f, not checked", p.plan.Prob)
	case p.success:
		return fmt.Sprintf("predicted %.2f, submitted at +%s, success", p.plan.Prob, dur(float64(p.plan.Submit-p.now)))
	}
	return fmt.Sprintf("predicted %.2f, submitted at +%s, failure", p.plan.Prob, dur(float64(p.plan.Submit-p.now)))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// otherReading sums up the small logs and the Lublin log.
func otherReading(others []*result, lublin *result) []byte {
	var waits, held []float64
	for _, r := range others {
		waits = append(waits, r.sims["EASY"].Summary.MeanWait)
		for _, s := range r.q.scores {
			held = append(held, 100*s.Correctness())
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "OSC, NASA and LLNL-Atlas hardly queue (mean EASY wait %s s) and every method's bounds hold %s%%.", readme.Span("%.0f", waits), readme.Span("%.1f", held))
	e := lublin.sims["EASY"].Summary
	p := &lublin.q.plan
	fmt.Fprintf(&b, " The Lublin 256-node log (utilization %.2f, EASY wait %s) is the one where VARQ's trade-off shows: the plan submits %s after the request", e.Utilization, dur(e.MeanWait), dur(float64(p.plan.Submit-p.now)))
	if p.plan.Possible {
		_, worstExtra := p.plan.Cost()
		fmt.Fprintf(&b, " asking %s for the %s job (predicted %.2f, worst-case extra %s node-s)", dur(float64(p.plan.Walltime)), dur(float64(p.req.Walltime)), p.plan.Prob, readme.Thousands(int(worstExtra)))
		if p.ran {
			fmt.Fprintf(&b, "; it started %s in and spun %s until the start (%s node-s extra)", dur(float64(p.started-p.now)), dur(float64(p.req.Start-p.started)), readme.Thousands(int(p.plan.ActualExtra(p.started))))
		}
	}
	fmt.Fprintln(&b, ".")
	return b.Bytes()
}
