package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq"
)

// Tables VIII and IX: job molding and delayed submission on the EASY
// simulator (spec §4, §5, §6), each against the baseline (the trace's own
// sizes, estimates and submit times) on the same jobs.

func init() {
	tables["VIII"] = table8
	tables["IX"] = table9
}

// paperMold: Table VIII and IX cells (minutes): baseline wait, exec,
// response; ours wait, exec, response.
var (
	paperVIII = map[string][6]float64{
		"CEA Curie":    {15, 95, 110, 8, 64, 72},
		"SDSC Blue":    {97, 73, 170, 72, 56, 128},
		"SDSC Paragon": {102, 79, 181, 76, 51, 127},
		"SDSC SP2":     {198, 133, 331, 147, 98, 245},
	}
	paperIX = map[string][6]float64{
		"CEA Curie":    {11, 84, 95, 5, 50, 55},
		"SDSC Blue":    {91, 65, 156, 63, 44, 107},
		"SDSC Paragon": {114, 89, 203, 71, 42, 113},
		"SDSC SP2":     {200, 142, 342, 153, 79, 232},
	}
)

// moldAPQRefresh is how often (history additions) the agents' APQ
// recomputes its Spearman weights; the paper does it on every addition,
// every 10 keeps five simulations per trace affordable.
const moldAPQRefresh = 10

// strategyRun is one simulation's summary and cost.
type strategyRun struct {
	res     *varq.StrategyResult
	elapsed time.Duration
	preds   int
}

func table8(w io.Writer, e *env) error {
	fmt.Fprintln(w, "Job molding on EASY backfilling (sched), first 10,000 jobs as history, the next 20,000 molded (fewer with -quick). Minutes; each cell ours (paper).")
	noGrowNote(w, e)
	fmt.Fprintln(w, "Waits and responses count from each job's arrival; molded jobs get §VI-C estimates and a roulette-wheel runtime from the user's previous runs at the new size.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The paper's roulette-wheel runtimes do not conserve a job's work (utilization column); the scaled variant (NOT the paper's) gives a molded job")
	fmt.Fprintln(w, "its own runtime × (user's mean runtime at the new size / at the original size).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | jobs | base wait | base exec | base resp | ours wait | ours exec | ours resp | resp change (paper) | scaled-runtime variant wait / exec / resp | utilization base / ours / scaled |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	type row struct {
		base, ours, scaled strategyRun
		funcs              int
	}
	var rows []row
	for _, tr := range e.Traces {
		hist, win := 10000, 20000
		if e.Quick {
			hist, win = 2000, 1000
		}
		funcs, err := strategyFuncs(tr, hist)
		if err != nil {
			return err
		}
		base, err := runStrategy(e, tr, varq.StrategyConfig{Strategy: varq.Baseline, History: hist, Window: win, Funcs: funcs})
		if err != nil {
			return fmt.Errorf("%s baseline: %w", tr.File, err)
		}
		ours, err := runStrategy(e, tr, varq.StrategyConfig{Strategy: varq.Molding, History: hist, Window: win, Funcs: funcs, Mold: varq.MoldConfig{Seed: e.Seed, NoGrow: e.NoGrow}})
		if err != nil {
			return fmt.Errorf("%s molding: %w", tr.File, err)
		}
		scaled, err := runStrategy(e, tr, varq.StrategyConfig{Strategy: varq.Molding, History: hist, Window: win, Funcs: funcs,
			Mold: varq.MoldConfig{Seed: e.Seed, Runtime: varq.RuntimeScaled, NoGrow: e.NoGrow}})
		if err != nil {
			return fmt.Errorf("%s molding, scaled runtimes: %w", tr.File, err)
		}
		rows = append(rows, row{base, ours, scaled, len(funcs)})
		s := scaled.res
		strategyRow(w, tr.Name, base.res, ours.res, paperVIII[tr.Name],
			fmt.Sprintf("%.1f / %.1f / %.1f (%+.1f%%)", s.MeanWait/60, s.MeanExec/60, s.MeanResp/60, 100*(s.MeanResp-base.res.MeanResp)/base.res.MeanResp),
			fmt.Sprintf("%.1f%% / %.1f%% / %.1f%%", 100*base.res.Utilization, 100*ours.res.Utilization, 100*s.Utilization))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | load functions | molded / grown / shrunk / not molded (no history) | utilization base → ours | wall time base / ours | APQ predictions |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for i, r := range rows {
		o := r.ours.res
		fmt.Fprintf(w, "| %s | %d | %d / %d / %d / %d | %.1f%% → %.1f%% | %v / %v | %d |\n", e.Traces[i].Name, r.funcs,
			o.Molded, o.Grown, o.Shrunk, o.Unmolded, 100*r.base.res.Utilization, 100*o.Utilization,
			r.base.elapsed.Round(time.Second), r.ours.elapsed.Round(time.Second), r.ours.preds)
	}
	outcomeTable(w, e, func(i int) *varq.StrategyResult { return rows[i].ours.res })
	return nil
}

// outcomeTable splits the molded jobs by what molding did to them, with
// APQ's predicted wait at the chosen size beside the simulated one: the
// evidence for where a response-time change comes from.
func outcomeTable(w io.Writer, e *env, res func(i int) *varq.StrategyResult) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Molded jobs by outcome: count, APQ-predicted wait → simulated wait (both from submission), mean response from arrival; minutes.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | same size | grown | shrunk |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for i := range e.Traces {
		fmt.Fprintf(w, "| %s |", e.Traces[i].Name)
		for _, b := range res(i).ByOutcome {
			fmt.Fprintf(w, " %d: %.1f → %.1f, resp %.1f |", b.N, b.PredWait/60, b.SimWait/60, b.MeanResp/60)
		}
		fmt.Fprintln(w)
	}
}

func table9(w io.Writer, e *env) error {
	fmt.Fprintln(w, "Delayed submission (with molding at the chosen time) on EASY backfilling, first 10,000 jobs as history, the next 6,000 treated (fewer with -quick). Minutes; each cell ours (paper).")
	noGrowNote(w, e)
	fmt.Fprintln(w, "A held job's holding time counts in its wait. 'molding alone' is Table VIII's strategy on these same 6,000 jobs. The paper's hold queue (spec §5 step 5)")
	fmt.Fprintln(w, "holds every job arriving while a job is held; the last column holds only the delayed job itself (not the paper's).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | jobs | base wait | base exec | base resp | ours wait | ours exec | ours resp | resp change (paper) | molding alone resp | delayed, head held alone (not paper) resp |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	type row struct{ base, mold, ours, head strategyRun }
	var rows []row
	for _, tr := range e.Traces {
		hist, win := 10000, 6000
		if e.Quick {
			hist, win = 2000, 1000
		}
		funcs, err := strategyFuncs(tr, hist)
		if err != nil {
			return err
		}
		var r row
		for _, c := range []struct {
			s    varq.Strategy
			out  *strategyRun
			head bool
		}{{varq.Baseline, &r.base, false}, {varq.Molding, &r.mold, false}, {varq.Delayed, &r.ours, false}, {varq.Delayed, &r.head, true}} {
			*c.out, err = runStrategy(e, tr, varq.StrategyConfig{Strategy: c.s, History: hist, Window: win, Funcs: funcs,
				Mold: varq.MoldConfig{Seed: e.Seed, NoGrow: e.NoGrow}, Delay: varq.DelayConfig{HoldOnlyHead: c.head}})
			if err != nil {
				return fmt.Errorf("%s %v: %w", tr.File, c.s, err)
			}
		}
		rows = append(rows, r)
		strategyRow(w, tr.Name, r.base.res, r.ours.res, paperIX[tr.Name], fmt.Sprintf("%.1f", r.mold.res.MeanResp/60), fmt.Sprintf("%.1f", r.head.res.MeanResp/60))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | delayed (head jobs) / held behind them | molded / grown / shrunk / not molded | utilization base → ours | wall time base / molding / delayed |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for i, r := range rows {
		o := r.ours.res
		fmt.Fprintf(w, "| %s | %d / %d | %d / %d / %d / %d | %.1f%% → %.1f%% | %v / %v / %v |\n", e.Traces[i].Name, o.Delayed, o.Held,
			o.Molded, o.Grown, o.Shrunk, o.Unmolded, 100*r.base.res.Utilization, 100*o.Utilization,
			r.base.elapsed.Round(time.Second), r.mold.elapsed.Round(time.Second), r.ours.elapsed.Round(time.Second))
	}
	outcomeTable(w, e, func(i int) *varq.StrategyResult { return rows[i].ours.res })
	return nil
}

func strategyRow(w io.Writer, name string, b, o *varq.StrategyResult, p [6]float64, extra ...string) {
	c := func(ours, paper float64) string { return fmt.Sprintf("%.1f (%.0f)", ours/60, paper) }
	ch := func(a, b float64) float64 { return 100 * (b - a) / a }
	fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %s | %s | %+.1f%% (%+.1f%%) |", name, o.Jobs,
		c(b.MeanWait, p[0]), c(b.MeanExec, p[1]), c(b.MeanResp, p[2]),
		c(o.MeanWait, p[3]), c(o.MeanExec, p[4]), c(o.MeanResp, p[5]), ch(b.MeanResp, o.MeanResp), ch(p[2], p[5]))
	for _, x := range extra {
		fmt.Fprintf(w, " %s |", x)
	}
	fmt.Fprintln(w)
}

// strategyFuncs learns the load functions from the history jobs' own
// schedule in the trace (the jobs before the treated window).
func strategyFuncs(tr *trace, hist int) ([]estmodel.LoadFunc, error) {
	prof, err := traceProfile(tr)
	if err != nil {
		return nil, err
	}
	return estmodel.BuildLoadFuncs(loadSamples(tr, prof, 0, hist), estmodel.LoadFuncConfig{})
}

func runStrategy(e *env, tr *trace, cfg varq.StrategyConfig) (strategyRun, error) {
	t0 := time.Now()
	p, err := apq.New(apq.Config{WeightRefresh: moldAPQRefresh})
	if err != nil {
		return strategyRun{}, err
	}
	aw := &apqWait{p: p, sys: apq.NewSystem(), pts: map[int64]apq.Point{}}
	jobs := tr.Jobs[:min(len(tr.Jobs), cfg.History+cfg.Window)]
	res, err := varq.RunStrategy(context.Background(), sched.EASY(tr.Procs), jobs, aw, cfg)
	if err == nil {
		err = aw.err
	}
	if err != nil {
		return strategyRun{}, err
	}
	r := strategyRun{res: res, elapsed: time.Since(t0), preds: aw.preds}
	fmt.Fprintf(e.Log, "%s %v: %d jobs, response %.1f min, %d APQ predictions, %v\n", tr.File, cfg.Strategy, res.Jobs, res.MeanResp/60, aw.preds, r.elapsed.Round(time.Millisecond))
	return r, nil
}

// apqWait is APQ as a varq.WaitPredictor on a sched simulation: it
// replays the simulated submits, starts and ends into an apq.System, adds
// each job to the history when it starts (with the Point of its own
// submission), and predicts hypothetical jobs against the machine state it
// is handed (a projected one for delayed submission). The system state is
// system-wide (spec §1 [R]); queues are not told apart.
type apqWait struct {
	p     *apq.Predictor
	sys   *apq.System
	pts   map[int64]apq.Point
	snap  apq.Snapshot
	preds int
	err   error
}

func toAPQ(j *swf.Job, submit int64) apq.Job {
	return apq.Job{ID: j.ID, Submit: submit, Start: -1, Req: j.Size(), ERT: j.ReqTime, User: j.User}
}

func (a *apqWait) fail(err error) {
	if a.err == nil {
		a.err = err
	}
}

func (a *apqWait) OnSubmit(now int64, j *swf.Job) {
	aj := toAPQ(j, now)
	a.pts[j.ID] = a.p.Describe(aj, now, a.sys)
	if err := a.sys.Submit(aj); err != nil {
		a.fail(err)
	}
}

func (a *apqWait) OnStart(now int64, j *swf.Job, _ bool) {
	if err := a.sys.Start(j.ID, now); err != nil {
		a.fail(err)
	}
	if pt, ok := a.pts[j.ID]; ok {
		delete(a.pts, j.ID)
		if err := a.p.Add(pt, float64(now-j.Submit)); err != nil {
			a.fail(err)
		}
	}
}

func (a *apqWait) OnEnd(_ int64, j *swf.Job, _ bool) {
	if err := a.sys.End(j.ID); err != nil {
		a.fail(err)
	}
}

func (a *apqWait) OnReservation(int64, *swf.Job, int64) {}

func (a *apqWait) PredictWait(j swf.Job, st sched.QueueState) (float64, error) {
	if a.err != nil {
		return 0, a.err
	}
	a.snap.Wait, a.snap.Run = a.snap.Wait[:0], a.snap.Run[:0]
	for _, v := range st.Waiting {
		a.snap.Wait = append(a.snap.Wait, apq.Job{ID: v.ID, Submit: v.Submit, Start: -1, Req: v.Size, ERT: v.Estimate, User: v.User})
	}
	for _, v := range st.Running {
		a.snap.Run = append(a.snap.Run, apq.Job{ID: v.ID, Submit: v.Submit, Start: v.Start, Req: v.Size, ERT: v.Estimate, User: v.User})
	}
	a.preds++
	pred, err := a.p.Predict(a.p.Describe(toAPQ(&j, j.Submit), st.Now, a.snap))
	if errors.Is(err, apq.ErrEmpty) {
		return 0, nil // nothing has started yet: no wait to learn from
	}
	if err != nil {
		return 0, err
	}
	return pred.Wait, nil
}

func noGrowNote(w io.Writer, e *env) {
	if e.NoGrow {
		fmt.Fprintln(w, "-nogrow: jobs are molded to their original size or smaller only (a diagnostic, NOT the paper's).")
	}
}
