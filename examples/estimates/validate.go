package main

import (
	"cmp"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/batchq/batchq/estmodel"
	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/progress"
	"github.com/batchq/batchq/swf"
)

// variant is one way of giving the jobs estimates (§5.12.3).
type variant struct {
	name  string
	seeds int // 1 for deterministic variants
	apply func(jobs []swf.Job, rng *rand.Rand) error
	// paired marks the variants that pair a set of values with the jobs
	// (the modal model, shfl): when no legal pairing exists, some jobs get an
	// estimate below their run time (estmodel.AssignReport.Short).
	paired bool
	// stream names the random stream of the seeds; empty means name. The
	// -legal rows share their model's stream, so they repair the same draws.
	stream string
}

// outcome is the EASY result of one variant: mean and mean absolute
// deviation over its seeds (the thesis's error bars in Ch. 5).
type outcome struct {
	name                         string
	runs                         int
	wait, waitMAD, bsld, bsldMAD float64 // wait in minutes
	// shortRuns counts the runs whose pairing gave some job an estimate below
	// its run time (the thesis's reference code refuses such a pairing, §7.9
	// step 4), shortJobs how many such jobs a run had on average, maxOverrun
	// the largest run time − estimate among them (seconds).
	shortRuns  int
	shortJobs  float64
	maxOverrun int64
}

// logValidation is the §5.12.3 experiment on one log.
type logValidation struct {
	log               string
	jobs              int
	procs             int64
	set               logSetting
	filled, truncated int
	real              outcome
	rows              []outcome
	zeros             int64 // zero bytes after the log's last gzip member, ignored
}

// thesisEASY is the EASY baseline with real estimates on the sane logs
// (spec §9 item 1: wait in minutes / bounded slowdown).
var thesisEASY = map[string][2]float64{
	"sdsc": {363, 99}, "ctc": {21, 4.6}, "kth": {114, 90}, "blue": {130, 35},
}

// fValues are the badness values of Fig 5.13 (after Mu'alem & Feitelson).
var fValues = []float64{0, 1, 3, 10, 100, 300}

// variants lists the estimate models compared on a log.
func variants(set logSetting, impr []estmodel.UserBin, o options) []variant {
	seeds, fSeeds, extra := o.seeds, o.fSeeds, !o.noExtra
	modal := func(bins []estmodel.UserBin) func([]swf.Job, *rand.Rand) error {
		return func(jobs []swf.Job, rng *rand.Rand) error {
			d, err := estmodel.Generate(estmodel.ModalConfig{N: len(jobs), EMax: set.EMax, Bins: bins}, rng)
			if err != nil {
				return err
			}
			_, err = d.Assign(jobs, estmodel.AssignConfig{}, rng)
			return err
		}
	}
	vs := []variant{{"model (vanl)", seeds, modal(set.Bins), true, ""}}
	if o.legal {
		vs = append(vs, legal(vs[0]))
	}
	if extra {
		im := variant{"model (impr)", seeds, modal(append(slices.Clone(set.Bins), impr...)), true, ""}
		vs = append(vs, im)
		if o.legal {
			vs = append(vs, legal(im))
		}
		vs = append(vs,
			variant{"shfl", seeds, func(jobs []swf.Job, rng *rand.Rand) error {
				_, err := estmodel.Shuffle(jobs, estmodel.AssignConfig{}, rng)
				return err
			}, true, ""})
	}
	// X2 (Fig 5.13; Ch. 4): the real estimates doubled, one deterministic
	// run. Jobs run their logged run time (never killed), so doubling field 9
	// doubles the scheduler's view only, as sched's X2 preset does.
	vs = append(vs, variant{"X2", 1, func(jobs []swf.Job, _ *rand.Rand) error {
		for i := range jobs {
			jobs[i].ReqTime *= 2
		}
		return nil
	}, false, ""})
	for _, f := range fValues {
		n := fSeeds
		if f == 0 {
			n = 1 // e = r exactly
		}
		m := estmodel.FModel{F: f}
		vs = append(vs, variant{fmt.Sprintf("f=%g", f), n, func(jobs []swf.Job, rng *rand.Rand) error { return m.Apply(jobs, rng) }, false, ""})
	}
	if extra {
		phi := estmodel.PhiModel{EMax: set.EMax}
		vs = append(vs, variant{"Φ (10%)", seeds, func(jobs []swf.Job, rng *rand.Rand) error { return phi.Apply(jobs, rng) }, false, ""})
	}
	return vs
}

// legal is the -legal diagnostic of a model variant: the same draws, but a
// job the pairing left with an estimate below its run time gets its run
// time as estimate, so no job runs past its estimate. It is not a thesis
// model: it measures what the illegal pairings (which the thesis's code
// refuses) cost the scheduler.
func legal(v variant) variant {
	return variant{name: v.name + " legal", seeds: v.seeds, paired: true, stream: v.name,
		apply: func(jobs []swf.Job, rng *rand.Rand) error {
			if err := v.apply(jobs, rng); err != nil {
				return err
			}
			for i := range jobs {
				jobs[i].ReqTime = max(jobs[i].ReqTime, jobs[i].RunTime)
			}
			return nil
		}}
}

// easyFunc runs EASY on the jobs (sane, estimates in field 9) and returns
// the mean wait in minutes and the mean bounded slowdown.
type easyFunc func(ctx context.Context, jobs []swf.Job, procs int64) (wait, bsld float64, err error)

// validateLog runs the experiment on one log with workers parallel simulations.
// It reports the simulations done on bar, if not nil.
func validateLog(ctx context.Context, name string, o options, easy easyFunc, bar *progress.Bar) (*logValidation, error) {
	tr, err := loadTrace(name, o.procs, false)
	if err != nil {
		return nil, err
	}
	jobs, procs := tr.jobs, tr.procs
	if len(jobs) == 0 {
		// Said here, in the words every command uses: the model failed
		// on N = 0 with a message that named neither the log nor the
		// cause.
		return nil, cli.NoSaneJob(name, tr.sane.Kept+len(tr.sane.Excluded), cli.ByReason(tr.sane))
	}
	lv := &logValidation{log: name, jobs: len(jobs), procs: procs, set: vanilla(name, jobs), zeros: tr.zeros}
	impr := improved(name)(jobs, lv.set.EMax)
	// Every variant sees the same run times: missing estimates become E_max
	// (S6) and run times above E_max are truncated to it (§5.1).
	lv.filled, lv.truncated = fillMissing(jobs, lv.set.EMax)

	type task struct {
		v    int
		seed int
	}
	vs := append([]variant{{"real", 1, func([]swf.Job, *rand.Rand) error { return nil }, false, ""}},
		variants(lv.set, impr, o)...)
	var tasks []task
	for i, v := range vs {
		for s := range v.seeds {
			tasks = append(tasks, task{i, s})
		}
	}
	type res struct {
		wait, bsld float64
		short      int   // jobs paired with an estimate below their run time
		overrun    int64 // the largest run time − estimate among them
	}
	results := make([][]res, len(vs))
	for i, v := range vs {
		results[i] = make([]res, v.seeds)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		wg       sync.WaitGroup
	)
	next := make(chan task)
	for range max(1, min(o.workers, len(tasks))) { // each worker copies the log
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := make([]swf.Job, len(jobs))
			for t := range next {
				copy(work, jobs)
				v := vs[t.v]
				rng := rand.New(rand.NewPCG(uint64(t.seed), nameHash(cmp.Or(v.stream, v.name))))
				err := v.apply(work, rng)
				var r res
				if err == nil && v.paired {
					r.short, r.overrun = shortPairs(work)
				}
				if err == nil {
					r.wait, r.bsld, err = easy(ctx, work, procs)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s %s seed %d: %w", name, v.name, t.seed, err)
					cancel()
				}
				results[t.v][t.seed] = r
				done++
				if bar != nil {
					bar.Set(float64(done) / float64(len(tasks)))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, t := range tasks {
		select {
		case next <- t:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	for i, v := range vs {
		w := make([]float64, len(results[i]))
		b := make([]float64, len(results[i]))
		oc := outcome{name: v.name, runs: v.seeds}
		short := 0
		for s, r := range results[i] {
			w[s], b[s] = r.wait, r.bsld
			if r.short > 0 {
				oc.shortRuns++
				short += r.short
				oc.maxOverrun = max(oc.maxOverrun, r.overrun)
			}
		}
		oc.shortJobs = float64(short) / float64(v.seeds)
		oc.wait, oc.waitMAD = meanMAD(w)
		oc.bsld, oc.bsldMAD = meanMAD(b)
		if i == 0 {
			lv.real = oc
		} else {
			lv.rows = append(lv.rows, oc)
		}
	}
	return lv, nil
}

// improved returns the extra bins of the thesis's improved setting for a
// log (§5.12.1): all estimates ≤ 5 min as one bin for KTH4H, BLUE's two
// exceptional modes, else the three most popular estimates besides E_max.
func improved(name string) func([]swf.Job, int64) []estmodel.UserBin {
	switch strings.ToLower(name) {
	case "kth4h":
		return aggregateUpTo(300)
	case "blue":
		return fixedModes(900, 1800)
	}
	return topModes(3)
}

// shortPairs counts the jobs whose estimate is below their run time after a
// pairing (run times are already truncated to E_max, so a legal pairing
// leaves none) and the largest such overrun.
func shortPairs(jobs []swf.Job) (n int, overrun int64) {
	for i := range jobs {
		if d := jobs[i].RunTime - jobs[i].ReqTime; d > 0 {
			n++
			overrun = max(overrun, d)
		}
	}
	return n, overrun
}

func nameHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// distance is how far an outcome lies from the real-estimate run: the mean
// of the relative differences of wait and bounded slowdown.
func (lv *logValidation) distance(o outcome) float64 { return relDistance(o, lv.real) }

// relDistance is the mean of the relative differences of a's wait and
// bounded slowdown from b's.
func relDistance(a, b outcome) float64 {
	return (math.Abs(a.wait-b.wait)/b.wait + math.Abs(a.bsld-b.bsld)/b.bsld) / 2
}

func (lv *logValidation) row(name string) (outcome, bool) {
	for _, o := range lv.rows {
		if o.name == name {
			return o, true
		}
	}
	return outcome{}, false
}

// modelBeatsF reports, for each f > 0, whether the vanilla model lands
// closer to the real-estimate result than the f-model, and whether it beats
// all of them.
func (lv *logValidation) modelBeatsF() (beats map[float64]bool, all bool) {
	m, _ := lv.row("model (vanl)")
	beats, all = map[float64]bool{}, true
	for _, f := range fValues[1:] {
		o, ok := lv.row(fmt.Sprintf("f=%g", f))
		if !ok {
			continue
		}
		beats[f] = lv.distance(m) < lv.distance(o)
		all = all && beats[f]
	}
	return beats, all
}

func (lv *logValidation) write(out io.Writer) {
	th, printed := thesisEASY[lv.log]
	fmt.Fprintf(out, "\n### %s (%d sane jobs, %d processors; E_max %s, %.1f%% of jobs at E_max%s)\n\n",
		strings.ToUpper(lv.log), lv.jobs, lv.procs, hms(lv.set.EMax), lv.set.Share, extraBins(lv.set))
	fmt.Fprintf(out, "%d jobs without an estimate got E_max (S6); %d run times above E_max were truncated to it in every run.\n\n", lv.filled, lv.truncated)
	if lv.zeros > 0 {
		fmt.Fprintf(out, "(%s.)\n\n", cli.PaddingNote(lv.zeros))
	}
	for _, o := range lv.rows {
		if o.shortRuns > 0 {
			fmt.Fprintf(out, "**%s: no legal pairing in %d of %d runs** (the thesis's reference code refuses these, §7.9 step 4): %.1f jobs per run got an estimate below their run time and ran past it, by up to %.1f h.\n\n",
				o.name, o.shortRuns, o.runs, o.shortJobs, float64(o.maxOverrun)/3600)
		}
	}
	fmt.Fprintln(out, "| estimates | runs | wait (min) ± MAD | bsld ± MAD | Δwait vs real | Δbsld vs real | distance |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|")
	if printed {
		fmt.Fprintf(out, "| real | 1 | %.1f (thesis %.0f) | %.1f (thesis %.1f) | | | |\n", lv.real.wait, th[0], lv.real.bsld, th[1])
	} else {
		fmt.Fprintf(out, "| real | 1 | %.1f (thesis: not printed) | %.1f | | | |\n", lv.real.wait, lv.real.bsld)
	}
	for _, o := range lv.rows {
		fmt.Fprintf(out, "| %s | %d | %.1f ± %.1f | %.1f ± %.1f | %+.0f%% | %+.0f%% | %.2f |\n", o.name, o.runs, o.wait, o.waitMAD, o.bsld, o.bsldMAD,
			100*(o.wait/lv.real.wait-1), 100*(o.bsld/lv.real.bsld-1), lv.distance(o))
	}
}

func extraBins(s logSetting) string {
	if len(s.Bins) <= 1 {
		return ""
	}
	return "; bins " + binsString(s.Bins)
}

// runValidation runs the experiment on every log of o.logs and prints the
// markdown report.
func runValidation(out, log io.Writer, o options) error {
	return validateAll(context.Background(), out, log, o, runEASY)
}

// validateAll runs the experiment on every log of o.logs and prints the
// tables on out; log (if not nil) gets the figures' file names, o.bar (if
// not nil) the progress bar.
func validateAll(ctx context.Context, out, log io.Writer, o options, easy easyFunc) error {
	var all []*logValidation
	names := strings.Split(o.logs, ",")
	// Each log is a stage of the bar, its simulations done of the total.
	bar := progress.New(o.bar, o.bar != nil, float64(len(names)))
	defer bar.Done()
	for _, name := range names {
		name = strings.TrimSpace(name)
		bar.Stage(name, 1)
		lv, err := validateLog(ctx, name, o, easy, bar)
		if err != nil {
			return err
		}
		all = append(all, lv)
	}
	fmt.Fprintf(out, "EASY with real estimates vs model estimates (%d seeds) vs the random f-model (%d seeds per f > 0); mean ± mean absolute deviation over seeds. distance = mean relative difference of wait and bsld from the real-estimate run.\n", o.seeds, o.fSeeds)
	for _, lv := range all {
		lv.write(out)
	}
	fmt.Fprint(out, "\n### Is the model closer to real estimates than the f-model?\n\n")
	fmt.Fprintln(out, "| log | f=1 | f=3 | f=10 | f=100 | f=300 | model beats every f > 0 |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|")
	wins := 0
	for _, lv := range all {
		beats, every := lv.modelBeatsF()
		cells := make([]string, 0, 5)
		for _, f := range fValues[1:] {
			cells = append(cells, yesNo(beats[f]))
		}
		if every {
			wins++
		}
		fmt.Fprintf(out, "| %s | %s | %s |\n", strings.ToUpper(lv.log), strings.Join(cells, " | "), yesNo(every))
	}
	fmt.Fprintf(out, "\nThe model is closer than the f-model at every f > 0 on %d of %d logs (thesis, Fig 5.13: on all four).\n", wins, len(all))
	writeStatements(out, all)
	if o.plot == "" {
		return nil
	}
	files, err := plotValidation(o.plot, all)
	if err != nil {
		return fmt.Errorf("-plot: %w", err)
	}
	if log != nil {
		bar.Done() // before the line, on the same stderr
		fmt.Fprintf(log, "wrote %s\n", strings.Join(files, ", "))
	}
	return nil
}

// writeStatements checks Fig 5.13's other statements (§5.12.3) on each log
// whose run has the rows they need: "vanl and impr are closer to the
// original than f > 0 or Φ"; "impr is always better (lower) than vanl, and
// closer to shfl"; "shfl is itself better than the original"; and, for f = 0
// ("comparable to the model except on SDSC"), both distances.
func writeStatements(out io.Writer, all []*logValidation) {
	var rows []string
	for _, lv := range all {
		v, okV := lv.row("model (vanl)")
		i, okI := lv.row("model (impr)")
		sh, okS := lv.row("shfl")
		phi, okP := lv.row("Φ (10%)")
		f0, ok0 := lv.row("f=0")
		if !okV || !okI || !okS || !okP || !ok0 {
			continue
		}
		closer := true
		for _, m := range []outcome{v, i} {
			for _, f := range fValues[1:] {
				o, _ := lv.row(fmt.Sprintf("f=%g", f))
				closer = closer && lv.distance(m) < lv.distance(o)
			}
			closer = closer && lv.distance(m) < lv.distance(phi)
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %s |", strings.ToUpper(lv.log), yesNo(closer),
			yesNo(i.wait < v.wait && i.bsld < v.bsld), yesNo(relDistance(i, sh) < relDistance(v, sh)),
			yesNo(sh.wait < lv.real.wait && sh.bsld < lv.real.bsld), fmt.Sprintf("%.2f / %.2f", lv.distance(f0), lv.distance(v))))
	}
	if len(rows) == 0 {
		return
	}
	fmt.Fprint(out, "\n### Fig 5.13's other statements\n\n")
	fmt.Fprintln(out, "| log | vanl and impr closer to real than every f > 0 and Φ | impr below vanl (wait and bsld) | impr closer to shfl than vanl | shfl below real (wait and bsld) | distance to real: f=0 / vanl |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|")
	fmt.Fprintln(out, strings.Join(rows, "\n"))
	fmt.Fprintln(out, "\nThesis: yes in every row of the first four columns; f=0 is \"comparable to the model except on SDSC\".")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
