package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/batchq/batchq/estmodel/rangeset"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/varq/molding"
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

// The size-aware wait modes of the -floor flag (molding.ProfileFloor).
const (
	floorQueue   = "queue"
	floorRunning = "running"
	floorOff     = "off"
)

// strategyRun is one simulation's summary and cost; res is nil for a
// column that was not run (-flooronly, -floor off).
type strategyRun struct {
	res     *molding.StrategyResult
	elapsed time.Duration
	preds   int
}

// variant is one simulation of a table: the strategy and its settings,
// whether it is the size-aware column, and whether it runs at all.
type variant struct {
	cfg   molding.StrategyConfig
	floor bool
	skip  bool
}

// runVariants runs the variants of one trace in order.
func runVariants(e *env, tr *trace, vs []variant) ([]strategyRun, error) {
	out := make([]strategyRun, len(vs))
	for i, v := range vs {
		if v.skip {
			continue
		}
		floor := floorOff
		if v.floor {
			floor = e.Floor
		}
		r, err := runStrategy(e, tr, v.cfg, floor)
		if err != nil {
			return nil, fmt.Errorf("%s %v (size-aware wait %s): %w", tr.File, v.cfg.Strategy, floor, err)
		}
		out[i] = r
	}
	return out, nil
}

// paperSkipped: the paper's method's columns are not run.
func paperSkipped(e *env) bool { return e.FloorOnly }

// floorSkipped: the size-aware columns are not run.
func floorSkipped(e *env) bool { return e.Floor == floorOff }

func table8(w io.Writer, e *env) error {
	fmt.Fprintln(w, "Job molding on EASY backfilling (sched), first 10,000 jobs as history, the next 20,000 molded (fewer with -quick). Minutes; each cell ours (paper).")
	noGrowNote(w, e)
	floorNote(w, e)
	fmt.Fprintln(w, "Waits and responses count from each job's arrival; molded jobs get §VI-C estimates and a roulette-wheel runtime from the user's previous runs at the new size.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The paper's roulette-wheel runtimes do not conserve a job's work (utilization column); the scaled variant (NOT the paper's) gives a molded job")
	fmt.Fprintln(w, "its own runtime × (user's mean runtime at the new size / at the original size).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | jobs | base wait | base exec | base resp | ours wait | ours exec | ours resp | resp change (paper) | scaled-runtime variant wait / exec / resp | size-aware wait (not paper) wait / exec / resp | utilization base / ours / scaled / size-aware |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	type row struct {
		runs  []strategyRun // base, ours, scaled, size-aware
		funcs int
	}
	var rows []row
	for _, tr := range e.Traces {
		set, err := newStrategySetup(e, tr)
		if err != nil {
			return err
		}
		c := func(s string, scaled bool) molding.StrategyConfig {
			return set.config(s, table8Window, e.Seed, scaled, false)
		}
		runs, err := runVariants(e, tr, []variant{
			{cfg: c("baseline", false)},
			{cfg: c("molding", false), skip: paperSkipped(e)},
			{cfg: c("molding", true), skip: paperSkipped(e)},
			{cfg: c("molding", false), floor: true, skip: floorSkipped(e)},
		})
		if err != nil {
			return err
		}
		rows = append(rows, row{runs, len(set.funcs)})
		b := runs[0].res
		strategyRow(w, tr.Name, b, runs[1].res, paperVIII[tr.Name], wer(b, runs[2].res), wer(b, runs[3].res),
			fmt.Sprintf("%s / %s / %s / %s", util(b), util(runs[1].res), util(runs[2].res), util(runs[3].res)))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | load functions | molded / grown / shrunk / not molded (no history): paper's method | same, size-aware wait | APQ predictions paper's / size-aware |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for i, r := range rows {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s / %s |\n", e.Traces[i].Name, r.funcs,
			decisions(r.runs[1].res), decisions(r.runs[3].res), preds(r.runs[1]), preds(r.runs[3]))
		fmt.Fprintf(e.Log, "%s: table VIII wall time base %s, paper's molding %s, size-aware %s\n", e.Traces[i].File, wall(r.runs[0]), wall(r.runs[1]), wall(r.runs[3]))
	}
	outcomeTable(w, e, "paper's method", func(i int) *molding.StrategyResult { return rows[i].runs[1].res })
	outcomeTable(w, e, "size-aware wait", func(i int) *molding.StrategyResult { return rows[i].runs[3].res })
	return nil
}

// outcomeTable splits the molded jobs by what molding did to them, with
// the predicted wait at the chosen size beside the simulated one: the
// evidence for where a response-time change comes from.
func outcomeTable(w io.Writer, e *env, label string, res func(i int) *molding.StrategyResult) {
	ran := false
	for i := range e.Traces {
		ran = ran || res(i) != nil
	}
	if !ran {
		return
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Molded jobs by outcome (%s): count, predicted wait → simulated wait (both from submission), mean response from arrival; minutes.\n", label)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | same size | grown | shrunk |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for i := range e.Traces {
		r := res(i)
		if r == nil {
			continue
		}
		fmt.Fprintf(w, "| %s |", e.Traces[i].Name)
		for _, b := range r.ByOutcome {
			fmt.Fprintf(w, " %d: %.1f → %.1f, resp %.1f |", b.N, b.PredWait/60, b.SimWait/60, b.MeanResp/60)
		}
		fmt.Fprintln(w)
	}
}

func table9(w io.Writer, e *env) error {
	fmt.Fprintln(w, "Delayed submission (with molding at the chosen time) on EASY backfilling, first 10,000 jobs as history, the next 6,000 treated (fewer with -quick). Minutes; each cell ours (paper).")
	noGrowNote(w, e)
	floorNote(w, e)
	fmt.Fprintln(w, "A held job's holding time counts in its wait. 'molding alone' is Table VIII's strategy on these same 6,000 jobs. The paper's hold queue (spec §5 step 5)")
	fmt.Fprintln(w, "holds every job arriving while a job is held; the 'head held alone' column holds only the delayed job itself (not the paper's).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | jobs | base wait | base exec | base resp | ours wait | ours exec | ours resp | resp change (paper) | molding alone resp | delayed, head held alone (not paper) resp | size-aware wait (not paper): molding alone resp | size-aware wait: delayed wait / exec / resp | size-aware wait: delayed, head held alone resp |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	// base, molding, delayed, head only, then the same three with the
	// size-aware wait
	var rows [][]strategyRun
	for _, tr := range e.Traces {
		set, err := newStrategySetup(e, tr)
		if err != nil {
			return err
		}
		c := func(s string, head bool) molding.StrategyConfig {
			return set.config(s, table9Window, e.Seed, false, head)
		}
		runs, err := runVariants(e, tr, []variant{
			{cfg: c("baseline", false)},
			{cfg: c("molding", false), skip: paperSkipped(e)},
			{cfg: c("delayed", false), skip: paperSkipped(e)},
			{cfg: c("delayed", true), skip: paperSkipped(e)},
			{cfg: c("molding", false), floor: true, skip: floorSkipped(e)},
			{cfg: c("delayed", false), floor: true, skip: floorSkipped(e)},
			{cfg: c("delayed", true), floor: true, skip: floorSkipped(e)},
		})
		if err != nil {
			return err
		}
		rows = append(rows, runs)
		b := runs[0].res
		strategyRow(w, tr.Name, b, runs[2].res, paperIX[tr.Name], resp(b, runs[1].res), resp(b, runs[3].res), resp(b, runs[4].res), wer(b, runs[5].res), resp(b, runs[6].res))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| log | delayed (head jobs) / held behind them (mean hold, held jobs' mean response; min): paper's method | same, size-aware wait | molded / grown / shrunk / not molded: paper's method | same, size-aware wait | utilization base / paper's / size-aware |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for i, r := range rows {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s / %s / %s |\n", e.Traces[i].Name, held(r[2].res), held(r[5].res),
			decisions(r[2].res), decisions(r[5].res), util(r[0].res), util(r[2].res), util(r[5].res))
		fmt.Fprintf(e.Log, "%s: table IX wall time base %s, molding %s, delayed %s, head alone %s; size-aware: molding %s, delayed %s, head alone %s\n", e.Traces[i].File,
			wall(r[0]), wall(r[1]), wall(r[2]), wall(r[3]), wall(r[4]), wall(r[5]), wall(r[6]))
	}
	outcomeTable(w, e, "paper's delayed submission", func(i int) *molding.StrategyResult { return rows[i][2].res })
	outcomeTable(w, e, "delayed submission, size-aware wait", func(i int) *molding.StrategyResult { return rows[i][5].res })
	return nil
}

// strategyRow prints one log's row: baseline and ours (o, "—" when not
// run) with the paper's cells, the response change, then extra cells.
func strategyRow(w io.Writer, name string, b, o *molding.StrategyResult, p [6]float64, extra ...string) {
	c := func(ours, paper float64) string { return fmt.Sprintf("%.1f (%.0f)", ours/60, paper) }
	fmt.Fprintf(w, "| %s | %d | %s | %s | %s |", name, b.Jobs, c(b.MeanWait, p[0]), c(b.MeanExec, p[1]), c(b.MeanResp, p[2]))
	if o != nil {
		fmt.Fprintf(w, " %s | %s | %s | %+.1f%% (%+.1f%%) |", c(o.MeanWait, p[3]), c(o.MeanExec, p[4]), c(o.MeanResp, p[5]), change(b, o), pctChange(p[2], p[5]))
	} else {
		fmt.Fprintf(w, " — (%.0f) | — (%.0f) | — (%.0f) | — (%+.1f%%) |", p[3], p[4], p[5], pctChange(p[2], p[5]))
	}
	for _, x := range extra {
		fmt.Fprintf(w, " %s |", x)
	}
	fmt.Fprintln(w)
}

// change is the response change of r against the baseline b, in percent.
func change(b, r *molding.StrategyResult) float64 { return pctChange(b.MeanResp, r.MeanResp) }

// pctChange is the change from a to b in percent of a.
func pctChange(a, b float64) float64 { return 100 * (b - a) / a }

// wer is r's wait / exec / response in minutes with the response change.
func wer(b, r *molding.StrategyResult) string {
	if r == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f / %.1f / %.1f (%+.1f%%)", r.MeanWait/60, r.MeanExec/60, r.MeanResp/60, change(b, r))
}

// resp is r's response in minutes with the change against b.
func resp(b, r *molding.StrategyResult) string {
	if r == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f (%+.1f%%)", r.MeanResp/60, change(b, r))
}

func util(r *molding.StrategyResult) string {
	if r == nil {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*r.Utilization)
}

func decisions(r *molding.StrategyResult) string {
	if r == nil {
		return "—"
	}
	return fmt.Sprintf("%d / %d / %d / %d", r.Molded, r.Grown, r.Shrunk, r.Unmolded)
}

func held(r *molding.StrategyResult) string {
	if r == nil {
		return "—"
	}
	return fmt.Sprintf("%d / %d (hold %.0f, held jobs' resp %.1f)", r.Delayed, r.Held, r.MeanHold/60, r.HeldResp/60)
}

func wall(r strategyRun) string {
	if r.res == nil {
		return "—"
	}
	return r.elapsed.Round(time.Second).String()
}

func preds(r strategyRun) string {
	if r.res == nil {
		return "—"
	}
	return fmt.Sprint(r.preds)
}

// strategyFuncs learns the load functions from the history jobs' own
// schedule in the trace (the jobs before the treated window).
func strategyFuncs(tr *trace, hist int) ([]rangeset.LoadFunc, error) {
	prof, err := traceProfile(tr)
	if err != nil {
		return nil, err
	}
	return rangeset.BuildLoadFuncs(loadSamples(tr, prof, 0, hist), rangeset.LoadFuncConfig{})
}

// The treated windows after the history: Table VIII treats 20,000 jobs,
// Table IX 6,000 (the paper's).
const (
	table8Window = 20000
	table9Window = 6000
)

// strategySetup is one log's set-up shared by Tables VIII, IX and SEEDS:
// the first 10,000 jobs as history (2,000 with -quick) and the load
// functions built on them.
type strategySetup struct {
	e     *env
	hist  int
	funcs []rangeset.LoadFunc
}

func newStrategySetup(e *env, tr *trace) (strategySetup, error) {
	hist := 10000
	if e.Quick {
		hist = 2000
	}
	funcs, err := strategyFuncs(tr, hist)
	return strategySetup{e: e, hist: hist, funcs: funcs}, err
}

// config is one strategy's run over win treated jobs (1,000 with -quick);
// scaledRuntime sets molding.Config.ScaledRuntime (not the paper's).
func (s strategySetup) config(st string, win int, seed uint64, scaledRuntime, holdOnlyHead bool) molding.StrategyConfig {
	if s.e.Quick {
		win = 1000
	}
	return molding.StrategyConfig{Strategy: st, History: s.hist, Window: win, Funcs: s.funcs,
		Mold:  molding.Config{Seed: seed, ScaledRuntime: scaledRuntime, NoGrow: s.e.NoGrow},
		Delay: molding.DelayConfig{HoldOnlyHead: holdOnlyHead}}
}

// runStrategy runs one simulation with APQ as the wait predictor, floored
// by molding.ProfileFloor unless floor is floorOff (the paper's method).
func runStrategy(e *env, tr *trace, cfg molding.StrategyConfig, floor string) (strategyRun, error) {
	t0 := time.Now()
	p, err := apq.New(apq.Config{WeightRefresh: moldAPQRefresh})
	if err != nil {
		return strategyRun{}, err
	}
	aw := &apqWait{p: p, sys: new(apq.System), pts: map[int64]apq.Point{}}
	var wait molding.WaitPredictor = aw
	if floor != floorOff {
		// RunStrategy registers aw as an observer through Unwrap.
		wait = &molding.ProfileFloor{Inner: aw, P: tr.Procs, RunningOnly: floor == floorRunning}
	}
	jobs := tr.Jobs[:min(len(tr.Jobs), cfg.History+cfg.Window)]
	res, err := molding.RunStrategy(context.Background(), sched.EASY(tr.Procs), jobs, wait, cfg)
	if err == nil {
		err = aw.err
	}
	if err != nil {
		return strategyRun{}, err
	}
	r := strategyRun{res: res, elapsed: time.Since(t0), preds: aw.preds}
	fmt.Fprintf(e.Log, "%s %v (size-aware wait %s): %d jobs, response %.1f min, grown %d, shrunk %d, %d APQ predictions, %v\n",
		tr.File, cfg.Strategy, floor, res.Jobs, res.MeanResp/60, res.Grown, res.Shrunk, aw.preds, r.elapsed.Round(time.Millisecond))
	return r, nil
}

// apqWait is APQ as a molding.WaitPredictor on a sched simulation: it
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

func floorNote(w io.Writer, e *env) {
	switch e.Floor {
	case floorOff:
		fmt.Fprintln(w, "-floor off: no size-aware wait column.")
	case floorRunning:
		fmt.Fprintln(w, "Size-aware wait (NOT the paper's, -floor running): APQ's wait floored by the earliest time the running jobs, released at start + estimate, leave the job's processors free; the queue is left to APQ.")
	default:
		fmt.Fprintln(w, "Size-aware wait (NOT the paper's, -floor queue): APQ's wait floored by the earliest start in a conservative-backfilling profile: running jobs released at start + estimate, waiting jobs placed FCFS by their estimates.")
	}
	if e.FloorOnly {
		fmt.Fprintln(w, "-flooronly: the paper's method was not run (its cells show —).")
	}
}

func noGrowNote(w io.Writer, e *env) {
	if e.NoGrow {
		fmt.Fprintln(w, "-nogrow: jobs are molded to their original size or smaller only (a diagnostic, NOT the paper's).")
	}
}
