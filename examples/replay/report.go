package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/batchq/batchq/examples/internal/cli"
)

// report prints the run's findings in a few readable blocks.
func report(w io.Writer, r *result, files []string) {
	fmt.Fprintf(w, "batchq replay — %s\n\n", r.w.desc)
	if n := r.w.skipped.Note(); n != "" {
		fmt.Fprintf(w, "%s\n\n", n)
	}
	if p := r.w.partitions; p != nil {
		fmt.Fprintf(w, "%s\n\n", p.Note(fmt.Sprintf("simulated as one pool of %d processors", p.Pool)))
	}

	easy := r.sims["EASY"].Summary
	fmt.Fprintf(w, "Schedulers (package sched; Tsafrir's thesis Table 4.3), %d jobs averaged (first 1%% and those ending after the last arrival excluded):\n", easy.Included)
	fmt.Fprintf(w, "  %-10s %10s %9s %8s %12s %9s\n", "variant", "mean wait", "vs EASY", "bsld", "utilization", "accuracy")
	for _, v := range variants {
		s := r.sims[v].Summary
		// A mean over no job is no figure: "–", not the zero it is stored as.
		mean, vs, bsld, acc := "–", "", "–", "–"
		if s.Included > 0 {
			mean, bsld, acc = dur(s.MeanWait), fmt.Sprintf("%.1f", s.MeanBSLD), fmt.Sprintf("%.0f%%", 100*s.Accuracy)
			if v != "EASY" && easy.MeanWait > 0 {
				vs = fmt.Sprintf("%+.0f%%", 100*(s.MeanWait/easy.MeanWait-1))
			}
		}
		util := "–" // (an empty S7 window: no figure, not an idle machine's 0.00)
		if u := windowUtilization(&s); u != nil {
			util = fmt.Sprintf("%.2f", *u)
		}
		fmt.Fprintf(w, "  %-10s %10s %9s %8s %12s %9s\n", v, mean, vs, bsld, util, acc)
	}
	if easy.Filled > 0 {
		fmt.Fprintf(w, "  (%s had no user estimate: given the largest estimate in the log, or the run time when the log has none, S6)\n", plural(easy.Filled, "job"))
	}
	// Every rule said, as simulate says it, when a rule beyond the
	// estimates filled (the line above) changed a job.
	if ch := r.sims["EASY"].Changed(); len(ch) > 1 || len(ch) == 1 && ch["estimate_filled"] == 0 {
		fmt.Fprintf(w, "  (jobs changed by rules: %s)\n", cli.RuleCounts(ch))
	}
	if rej := r.sims["EASY"].Rejected; len(rej.Excluded) > 0 {
		// (the lines of partial executions apart: they are not jobs)
		by := cli.ByReason(rej)
		partial := cli.TakePartial(by)
		if n := len(rej.Excluded) - partial; n > 0 {
			fmt.Fprintf(w, "  (%s not simulated: %s)\n", plural(n, "job"), cli.Reasons(by))
		}
		if partial > 0 && r.w.partialOnly > 0 {
			fmt.Fprintf(w, "  (%s of partial executions not simulated: every simulator leaves them out, their job's summary line is simulated, save %s of partial lines only (no summary line), left out whole)\n",
				plural(partial, "line"), plural(r.w.partialOnly, "job"))
		} else if partial > 0 {
			fmt.Fprintf(w, "  (%s of partial executions not simulated: every simulator leaves them out, their job's summary line is simulated)\n", plural(partial, "line"))
		}
	}
	if n := r.w.outOfOrder; n > 0 {
		fmt.Fprintf(w, "  (%s earlier than the line before them: simulated in submit order)\n", plural(n, "job line"))
	}
	if z := r.w.zeros; z > 0 {
		fmt.Fprintf(w, "  (%s)\n", cli.PaddingNote(z))
	}
	if n := r.w.otherStatus.Note(); n != "" {
		fmt.Fprintf(w, "  (%s)\n", n)
	}
	fmt.Fprintln(w)

	q := r.q
	fmt.Fprintf(w, "QBETS over the simulated EASY waits (package qbets; q = C = 0.95; the first %d of %d jobs only train):\n", q.train, len(q.jobs))
	for k, m := range methods {
		c := q.scores[k]
		held, rms := "–", "–" // no bound scored: no share, no RMS
		if c.Answered() > 0 {
			held = fmt.Sprintf("%.1f%%", 100*c.Correctness())
		}
		if c.Correctness() > 0 { // the RMS is over the bounds that held
			rms = dur(c.RMS())
		}
		fmt.Fprintf(w, "  %-44s %6s of %d bounds held, median bound %s, RMS over-prediction %s, %s",
			m.name, held, c.Answered(), dur(median(q.bounds[k][q.train:])), rms, plural(c.ChangePoints, "change point"))
		if c.Declined() > 0 {
			fmt.Fprintf(w, ", %d jobs without a bound", c.Declined())
		}
		fmt.Fprintln(w)
	}
	if q.down > 0 {
		fmt.Fprintf(w, "  (full QBETS judged the machine possibly down for %d of its jobs without a bound: availability inference, §2.5)\n", q.down)
	}
	fmt.Fprintln(w, "  The target is 95% of bounds held (q = 0.95 quantile, C = 0.95 confidence).")
	answered := 0 // (no bound at all, the lines say "–": none held, none to call degenerate)
	for i := range q.scores {
		answered += q.scores[i].Answered()
	}
	if q.waited == 0 && answered > 0 {
		// "100.0% of bounds held, median bound 0 s" read as a result.
		fmt.Fprintf(w, "  Degenerate: none of the %d jobs waited under EASY, so a bound of 0 s holds for every one: these figures say nothing of the methods.\n", len(q.jobs))
	}
	fmt.Fprintln(w)

	switch {
	case q.plan.made:
		reportVARQ(w, q.plan)
	case q.plan.notPlanned != "":
		fmt.Fprintf(w, "VARQ (package varq; Nurmi's thesis Ch. 5): not planned: %s (planning at %s, %s ahead)\n",
			q.plan.notPlanned, clock(q.plan.now), dur(float64(q.plan.req.Start-q.plan.now)))
	default:
		fmt.Fprintf(w, "VARQ (package varq; Nurmi's thesis Ch. 5): not planned: none of the %d simulated jobs arrived at or after %s, the submission of the middle job simulated\n",
			len(q.jobs), clock(q.planAt))
	}
	fmt.Fprintln(w)
	if len(files) > 0 {
		fmt.Fprintln(w, "Figures:")
		for _, f := range files {
			fmt.Fprintf(w, "  %s\n", f)
		}
		fmt.Fprintln(w)
	}
	if r.elapsed > 0 {
		fmt.Fprintf(w, "Done in %s.\n", r.elapsed.Round(10*time.Millisecond))
	}
}

// reportVARQ prints the plan made and how it fared.
func reportVARQ(w io.Writer, p planResult) {
	fmt.Fprintf(w, "VARQ (package varq; Nurmi's thesis Ch. 5), planned at %s with full QBETS as it was then:\n", clock(p.now))
	fmt.Fprintf(w, "  request: %d nodes for %s from %s (%s ahead), target probability %.2f\n",
		p.req.Nodes, dur(float64(p.req.Walltime)), clock(p.req.Start), dur(float64(p.req.Start-p.now)), p.target)
	if p.noBound != "" {
		fmt.Fprintf(w, "  QBETS has no bound for this job shape right now: %s\n", p.noBound)
	}
	if len(p.traj) > 0 {
		fmt.Fprintf(w, "  trajectory: %d submissions 30 s apart, probability %.2f submitting now, %.2f at the last moment\n",
			len(p.traj), p.traj[0].Prob, p.traj[len(p.traj)-1].Prob)
	}
	if !p.plan.Possible {
		fmt.Fprintln(w, "  plan: NOT_POSSIBLE (no submission time reaches the target; a refusal, like a denied reservation)")
	} else {
		req, extra := p.plan.Cost()
		fmt.Fprintf(w, "  plan: submit at +%s asking %s, predicted probability %.2f; worst-case extra %d node-s on %d required\n",
			dur(float64(p.plan.Submit-p.now)), dur(float64(p.plan.Walltime)), p.plan.Prob, extra, req)
	}
	if _, extra := p.best.Cost(); p.best.Possible {
		fmt.Fprintf(w, "  most probable submission: +%s with %.2f (worst-case extra %d node-s)\n",
			dur(float64(p.best.Submit-p.now)), p.best.Prob, extra)
	}
	switch {
	case p.notChecked != "":
		fmt.Fprintf(w, "  carried out under EASY: not checked: %s\n", p.notChecked)
	case !p.checked:
	case !p.ran:
		fmt.Fprintf(w, "  carried out under EASY: still waiting at the start time: failure\n")
	case p.success:
		fmt.Fprintf(w, "  carried out under EASY: started at +%s, %s before the start: success (spinning costs %d node-s extra)\n",
			dur(float64(p.started-p.now)), dur(float64(p.req.Start-p.started)), p.plan.ActualExtra(p.started))
	default:
		fmt.Fprintf(w, "  carried out under EASY: started at +%s, after the start: failure\n", dur(float64(p.started-p.now)))
	}
}

// dur formats seconds in the unit a reader expects for that size.
func dur(s float64) string {
	switch {
	case s < 0:
		return "none"
	case s < 100:
		return fmt.Sprintf("%.0f s", s)
	case s < 6000:
		return fmt.Sprintf("%.1f min", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.2f h", s/3600)
	default:
		return fmt.Sprintf("%.1f d", s/86400)
	}
}

// clock formats a trace time as day and time of day since the trace's
// time 0.
func clock(t int64) string {
	return fmt.Sprintf("day %d %02d:%02d", t/86400, t%86400/3600, t%3600/60)
}

// median of the non-negative values (bounds that exist), -1 if none.
func median(xs []int64) float64 {
	var v []int64
	for _, x := range xs {
		if x >= 0 {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return -1
	}
	slices.Sort(v)
	return float64(v[len(v)/2])
}

// plural is "1 job", "2 jobs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
