package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/batchq/batchq/examples/internal/cli"
	"github.com/batchq/batchq/internal/tracetest"
	"github.com/batchq/batchq/qbets"
	"github.com/batchq/batchq/qbets/apq"
	"github.com/batchq/batchq/qbets/conformal"
	"github.com/batchq/batchq/qbets/ibl"
	"github.com/batchq/batchq/qbets/replay"
	"github.com/batchq/batchq/sched"
	"github.com/batchq/batchq/sched/forecast"
	"github.com/batchq/batchq/swf"
	"github.com/batchq/batchq/swf/convert"
)

// allPredictors are the scoreboard's rows, in order.
var allPredictors = []string{"forecast", "estimates", "naive", "ibl", "apq", "qbets"}

// fixedPredictors are the fixes of the README's diagnosis ("Why IBL and
// APQ lose"), scored on request beside the papers' defaults: IBL with
// the weighted median or the geometric mean and k = 8, APQ on log waits.
var fixedPredictors = []string{"ibl-median8", "ibl-geomean8", "apq-logwait"}

// floor is the wait under which waits count as equal in the ratio metrics.
const floor = 60

// levels are the interval levels scored.
var levels = []float64{0.5, 0.8, 0.9}

// row is one predictor's score.
type row struct {
	name     string
	scored   int // predictions due
	answered int
	within2  int
	within1m int
	within10 int
	absLog   float64 // Σ |log10(max(p,60)/max(w,60))|
	absErr   float64 // Σ |p − w|
	covered  [3]int
	widths   [3][]float64
	interval bool // the predictor answers intervals
	// QBETS: its answer is an upper bound.
	bound bool
}

// traceInfo describes the replayed log.
type traceInfo struct {
	name     string
	jobs     int            // jobs replayed (with a known wait)
	skipped  int            // jobs without a wait or submit time
	rejected map[string]int // jobs rejected before the replay, by reason (reject.go)
	// madeUp: jobs without a number (below 1, SWF's -1) numbered 10^18 + n by
	// their line (cli.MadeUpIDs), counted as simulate counts them
	// (changed id_made_up)
	madeUp int
	// partialOnly: jobs given by partial-execution lines only, no summary
	// line under their number (cli.PartialOnly): their lines are among the
	// rejected "partial execution", the job is in no count.
	partialOnly int
	// larger: replayed jobs larger than the machine. The forward
	// simulation cannot place them; forecast and estimates answer them
	// with the naive median (sched/forecast.Online).
	larger int
	// noSize: replayed jobs without a processor count (fields 5 and 8
	// unknown): on one pool the simulation asks no processors for them,
	// and a running one is in no snapshot; on nodes they ask their
	// demand's cores and a running one holds its node (sched/forecast.Online,
	// since d392e1e).
	noSize int
	// noRunTime: replayed jobs without a run time (field 4 unknown: a
	// Philly job Pass without end_time, an archive log's cancelled job
	// with a logged wait). Their wait is known, and only waits are
	// forecast, so they are scored; once started they never end in the
	// replay and hold no processors in the simulation (sched/forecast.Online).
	// simulate rejects the same jobs as "no run time": counted here, under
	// that name, the two commands account for them alike.
	noRunTime int
	// noEstimate: replayed jobs without a user estimate (field 9 ≤ 0):
	// forecast and estimates give them the longest run seen before as
	// their estimate (sched/forecast, S6's rule, causal).
	noEstimate int
	// overfull: questions at which the log's running jobs held more
	// processors than the machine; forecast's and estimates' simulations
	// grew the pool to hold them (forecast.Online.Overfull).
	overfull int
	// approximated: jobs of flurries whose forecast and estimates answers
	// are approximate (forecast.Online.Approximated; the larger of the two)
	approximated int
	machine      int64 // processors, or the cores of the nodes
	// nodes is the machine of -nodes (nil: one pool of machine
	// processors), read from nodesFile.
	nodes     []swf.Node
	nodesFile string
	// nodesSkipped and nodesAnomalies are the nodes file's lines left out
	// and kept with an anomaly, by reason (convert.Report: "count 0",
	// "kind named twice", "GPU model without GPUs"), as simulate's "nodes
	// read" line says them; forecast dropped that report.
	nodesSkipped, nodesAnomalies map[string]int
	// nodesNotes are the nodes file's remarks (convert.Report.Notes: a
	// column repeated or unknown, and not read), which simulate prints
	// under "nodes read"; forecast dropped them, a misspelt column's
	// amounts 0 without a word.
	nodesNotes []string
	// demands counts the replayed jobs with a demand line (swf.Demand):
	// on one pool only their processor counts are simulated.
	demands int
	zeros   int64 // zero bytes after the last gzip member, ignored
	// read is the reader's counts: with -lenient, the malformed lines
	// skipped (cli.SkippedOf).
	read swf.Stats
	// partitions are the jobs by partition when they name more than one,
	// replayed as one pool (cli.Partitions), nil otherwise.
	partitions *cli.Partitions
	// waited counts the scored jobs that waited at least the floor (60 s).
	// None did in a log of no queueing (a quiet machine, a log whose waits
	// were not recorded as such): every answer under a minute is then
	// exact in the ratios and within a minute (AAE and the intervals
	// aside), and the board ranks nothing, which the text
	// and -json say.
	waited int
}

// machineText is the report's machine: its processors, or its nodes.
func (info *traceInfo) machineText() string {
	if info.nodes == nil {
		return fmt.Sprintf("%d processors", info.machine)
	}
	var nodes, gpus int64
	for _, k := range info.nodes {
		nodes += k.Count
		gpus += k.Count * k.GPUs
	}
	return fmt.Sprintf("%d nodes of %d kinds (-nodes %s): %d cores, %d GPUs", nodes, len(info.nodes), info.nodesFile, info.machine, gpus)
}

// scorer is one predictor with how its intervals are read.
type scorer struct {
	name   string
	p      replay.Predictor
	w      *conformal.Wrapper // nil: the answer's own [Lower, Upper] (QBETS)
	online *forecast.Online   // forecast's and estimates' simulation (its Overfull count), else nil
}

// newScorers builds the named predictors for a machine of P processors.
func newScorers(names []string, P int64) ([]scorer, error) {
	return scorersOn(names, P, nil)
}

// scorersOn builds the named predictors for a machine of P processors,
// or of nodes when nodes is not nil (P their cores): forecast and
// estimates then simulate each job's demand on them; the others know
// no machine.
func scorersOn(names []string, P int64, nodes []swf.Node) ([]scorer, error) {
	var out []scorer
	policy := sched.Config{Nodes: nodes}
	wrap := func(name string, p conformal.Point) error {
		c, err := conformal.NewCalibrator(conformal.Config{Levels: levels})
		if err != nil {
			return err
		}
		w := conformal.Wrap(p, c, nil)
		out = append(out, scorer{name: name, p: w, w: w})
		return nil
	}
	for _, n := range names {
		var err error
		switch n {
		case "forecast":
			var f *forecast.Online
			if f, err = forecast.NewOnline(forecast.Config{Policy: policy}, P); err == nil {
				if err = wrap(n, f); err == nil {
					out[len(out)-1].online = f
				}
			}
		case "estimates":
			var f *forecast.Online
			if f, err = forecast.NewOnline(forecast.Config{Estimates: true, NoCorrection: true, Policy: policy}, P); err == nil {
				if err = wrap(n, f); err == nil {
					out[len(out)-1].online = f
				}
			}
		case "naive":
			err = wrap(n, &forecast.Naive{})
		case "ibl":
			var p replay.Predictor
			if p, err = replay.NewIBL(ibl.Config{}, ibl.Config{}, 90); err == nil {
				err = wrap(n, p)
			}
		case "apq":
			var p *replay.APQ
			if p, err = replay.NewAPQ(apq.Config{}); err == nil {
				err = wrap(n, p)
			}
		case "ibl-median8", "ibl-geomean8":
			// (fixedPredictors; TestReadmeFixed scores them on every log)
			c := ibl.Config{Estimate: strings.TrimSuffix(strings.TrimPrefix(n, "ibl-"), "8"), N: 8}
			var p replay.Predictor
			if p, err = replay.NewIBL(c, c, 90); err == nil {
				err = wrap(n, p)
			}
		case "apq-logwait":
			var p *replay.APQ
			if p, err = replay.NewAPQ(apq.Config{LogWait: true}); err == nil {
				err = wrap(n, p)
			}
		case "qbets":
			var p replay.Predictor
			if p, err = replay.NewQBETS(qbets.Config{}, true); err == nil {
				out = append(out, scorer{name: n, p: p})
			}
		default:
			err = fmt.Errorf("unknown predictor %q", n)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
	}
	return out, nil
}

// errNoWaits is a log without a single recorded wait.
var errNoWaits = errors.New("no job with a recorded wait and submit time (nothing to score)")

// score replays the trace at path through the named predictors on a
// machine of one pool.
func score(ctx context.Context, path string, machine int64, names []string, progress func(float64)) ([]*row, traceInfo, error) {
	return scoreOn(ctx, path, machine, "", false, names, progress)
}

// scoreOn is score on the machine of the nodes file nodesFile (none: one
// pool); a machine size given must then be the nodes' cores. lenient skips
// the malformed lines of both files (counted) instead of failing.
func scoreOn(ctx context.Context, path string, machine int64, nodesFile string, lenient bool, names []string, progress func(float64)) ([]*row, traceInfo, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, traceInfo{}, err
	}
	h, jobs, st, zeros, err := cli.ReadLogLenient(path, lenient)
	if err != nil {
		if cf := convertFirst(path); cf != nil {
			return nil, traceInfo{}, cf
		}
		return nil, traceInfo{}, err
	}
	if len(jobs) == 0 { // (before the header's size: an empty file has no header either)
		return nil, traceInfo{}, fmt.Errorf("%s: no job lines (nothing to score)", path)
	}
	info := traceInfo{name: tracetest.ShortName(path), machine: machine, zeros: zeros, read: st}
	if nodesFile != "" {
		var rep convert.Report
		if info.nodes, rep, err = cli.ReadNodes(nodesFile, lenient); err != nil {
			return nil, info, err
		}
		info.nodesSkipped, info.nodesAnomalies, info.nodesNotes = rep.Skipped, rep.Anomalies, rep.Notes
		info.nodesFile = filepath.Base(nodesFile)
		if err := (sched.Config{Nodes: info.nodes}).Validate(); err != nil {
			return nil, info, fmt.Errorf("-nodes %s: %w", nodesFile, err)
		}
		cores := int64(0)
		for _, k := range info.nodes {
			cores += k.Count * k.Cores
		}
		if machine != 0 && machine != cores {
			return nil, info, fmt.Errorf("-machine %d, but the nodes of %s have %d cores (leave -machine out)", machine, nodesFile, cores)
		}
		info.machine = cores
	}
	if info.machine == 0 {
		if info.machine, err = h.MachineSize(); err != nil {
			return nil, info, fmt.Errorf("%s: %w (give -machine)", path, err)
		}
	}
	if err := cli.CheckMachine(info.machine); err != nil {
		return nil, info, fmt.Errorf("%s: %w", path, err)
	}
	if info.partitions = cli.PartitionsOf(h, jobs); info.partitions != nil {
		info.partitions.Pool = info.machine
	}
	// Each job is counted once, under its first fault (a duplicate ID,
	// then a size or time out of range, then no wait): a log of "-1"
	// lines said only "rejected: 49 duplicate ID", hiding that no job had
	// a submit time. The jobs read without one are counted here, whatever
	// else they are rejected for, for the error of a log with none.
	noWait := 0
	for i := range jobs {
		if jobs[i].Wait < 0 || jobs[i].Submit < 0 {
			noWait++
		}
	}
	read := len(jobs)
	noWaits := func() error {
		if noWait == 0 {
			return fmt.Errorf("%s: %w", path, errNoWaits)
		}
		return fmt.Errorf("%s: %w: %d of the %d jobs read have none", path, errNoWaits, noWait, read)
	}
	// (before MadeUpIDs, which numbers a partial line without a number)
	var partialOnly cli.PartialOnly
	for i := range jobs {
		partialOnly.Add(&jobs[i])
	}
	info.partialOnly = partialOnly.Jobs()
	info.madeUp = cli.MadeUpIDs(jobs) // (before reject: the -1s were all one duplicate number)
	jobs, info.rejected = reject(jobs)
	if info.nodes != nil {
		if jobs, err = rejectOnNodes(ctx, info.nodes, jobs, info.rejected); err != nil {
			return nil, info, err
		}
	}
	byQueue, skipped := replay.Queues(jobs)
	if len(byQueue) == 0 {
		return nil, info, noWaits()
	}
	all, err := replay.All(byQueue)
	if err != nil {
		return nil, info, err
	}
	info.jobs, info.skipped = len(all), skipped
	for i := range all {
		if all[i].Size() > info.machine {
			info.larger++
		}
		if all[i].Size() <= 0 {
			info.noSize++
		}
		if all[i].RunTime < 0 {
			info.noRunTime++
		}
		if all[i].ReqTime <= 0 {
			info.noEstimate++
		}
		if all[i].Demand != nil {
			info.demands++
		}
	}
	if len(all) == 0 {
		return nil, info, noWaits()
	}
	sc, err := scorersOn(names, info.machine, info.nodes)
	if err != nil {
		return nil, info, err
	}
	rows := make([]*row, len(sc))
	ps := make([]replay.Predictor, len(sc))
	for i, s := range sc {
		rows[i] = &row{name: s.name, interval: true, bound: s.w == nil}
		ps[i] = s.p
	}
	opt := replay.Options{
		OnPredict: func(_ int, j *swf.Job, now int64, ans []replay.Prediction) {
			wait := float64(j.Submit + j.Wait - now)
			if wait >= floor {
				info.waited++
			}
			for i, a := range ans {
				rows[i].add(a, wait, sc[i].w)
			}
		},
	}
	if progress != nil {
		opt.Progress = func(done, total int) { progress(float64(done) / float64(max(total, 1))) }
	}
	scores, err := replay.Run(ctx, all, opt, ps...)
	if err != nil {
		return nil, info, err
	}
	for i := range rows {
		rows[i].scored = scores[i].Scored
		if sc[i].online != nil {
			info.overfull = max(info.overfull, sc[i].online.Overfull())
			info.approximated = max(info.approximated, sc[i].online.Approximated())
		}
	}
	return rows, info, nil
}

// add scores one answer of a job that waited wait seconds.
func (r *row) add(a replay.Prediction, wait float64, w *conformal.Wrapper) {
	if !a.OK {
		return
	}
	p := a.Point
	if r.bound {
		p = a.Upper
	}
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return
	}
	r.answered++
	if ratio(p, wait) <= math.Log10(2)+1e-12 {
		r.within2++
	}
	d := math.Abs(p - wait)
	if d <= 60 {
		r.within1m++
	}
	if d <= 600 {
		r.within10++
	}
	r.absLog += ratio(p, wait)
	r.absErr += d
	for k := range levels {
		lo, hi := math.NaN(), math.NaN()
		switch {
		case w != nil:
			lo, hi = w.Interval(k)
		case k == len(levels)-1: // QBETS: [0, bound], scored in the last column
			lo, hi = 0, a.Upper
		}
		if math.IsNaN(lo) || math.IsNaN(hi) {
			continue
		}
		if lo <= wait && wait <= hi {
			r.covered[k]++
		}
		r.widths[k] = append(r.widths[k], hi-lo)
	}
}

// ratio is |log10(max(p, 60) / max(w, 60))|.
func ratio(p, w float64) float64 {
	return math.Abs(math.Log10(math.Max(p, floor) / math.Max(w, floor)))
}

// share is n of the answers, NaN without any.
func (r *row) share(n int) float64 {
	if r.answered == 0 {
		return math.NaN()
	}
	return float64(n) / float64(r.answered)
}

// coverage is the share of the answers with an interval at level k that
// held the wait, NaN without any.
func (r *row) coverage(k int) float64 {
	if len(r.widths[k]) == 0 {
		return math.NaN()
	}
	return float64(r.covered[k]) / float64(len(r.widths[k]))
}

// width is the median width of the intervals at level k, seconds (+Inf
// when more than half are unbounded), NaN without any.
func (r *row) width(k int) float64 {
	w := r.widths[k]
	if len(w) == 0 {
		return math.NaN()
	}
	s := slices.Clone(w)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
